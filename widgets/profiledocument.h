#pragma once

#include "calltree.h"
#include "colorscheme.h"
#include "loadedprofile.h"

#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace runlane {

class TimeAxis;

// The open profile and how it is shown: colour mode, timeline or aggregated
// flame graph. Owned by the GUI thread; views read it and listen to it. It
// keeps the shared TimeAxis's bounds in step with what is shown.
class ProfileDocument : public QObject
{
    Q_OBJECT

public:
    ProfileDocument(TimeAxis* axis, QObject* parent = nullptr);
    ~ProfileDocument() override;

    void setProfile(const LoadedProfile& loaded);
    void clear();
    bool hasProfile() const { return !m_loaded.isNull(); }
    const LoadedProfile& loaded() const { return m_loaded; }
    const Profile* profile() const { return m_loaded.profile.get(); }
    const MeasurementMetrics* metrics() const { return m_loaded.metrics.get(); }
    TimeAxis* axis() const { return m_axis; }

    ColorMode colorMode() const { return m_colorMode; }
    void setColorMode(ColorMode mode);
    // The fill colour of an interval (or of a call tree node, in aggregated mode).
    QRgb colorOf(LabelId label, Time duration) const;
    QRgb labelColor(LabelId label) const { return m_colors[label]; }

    // Aggregated: identical call paths merged, no time axis. The call tree
    // is built off the GUI thread the first time; until then isAggregated()
    // is already true and callTree() null.
    bool isAggregated() const { return m_aggregated; }
    void setAggregated(bool aggregated);
    const CallTree* callTree() const { return m_callTree.get(); }
    // Blocks until background work (the call tree) is done and applied;
    // for scripts that render at once.
    void finishPendingWork();

Q_SIGNALS:
    void profileChanged();
    void colorsChanged();
    void viewModeChanged();

private:
    void applyBounds();
    void callTreeBuilt();

    TimeAxis* m_axis;
    LoadedProfile m_loaded;
    ColorMode m_colorMode = ColorMode::ByLabel;
    std::vector<QRgb> m_colors;
    Time m_longest = 1;
    bool m_aggregated = false;
    std::shared_ptr<const CallTree> m_callTree;
    QFutureWatcher<std::shared_ptr<const CallTree>> m_callTreeWatcher;
};

} // namespace runlane
