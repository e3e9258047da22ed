#pragma once

#include "frameseries.h"
#include "profiletypes.h"

#include <QTextBrowser>

#include <memory>

namespace runlane {

class IcicleView;
class Profile;
class ProfileDocument;
class TimeAxis;

// What is known about the selected interval, task or call path: position,
// times, exec and total, its intervals, its creator and what it created,
// its args (JSON, indented);
// or about the selected mark: where it is and its details (JSON, indented);
// or about the selected message between processes (and its mark, if any).
// The creator and the children are links that select them; so are the
// intervals the selected one was caused by or causes (flows).
class DetailsPane : public QTextBrowser
{
    Q_OBJECT

public:
    DetailsPane(ProfileDocument* document, QWidget* parent = nullptr);
    void showAggregatedNode(const IcicleView* view, std::uint32_t span);
    QString html() const { return toHtml(); }
    // Nothing selected: only the hint is shown, and the pane may be a narrow strip.
    bool isEmpty() const { return m_empty; }
    // The strip's width while empty, and the width the details ask for.
    static constexpr int kStripWidth = 90;
    static constexpr int kWidth = 300;

Q_SIGNALS:
    void emptyChanged(bool empty);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showHtml(const QString& html);
    void setEmpty(bool empty);
    void refresh();
    void linkClicked(const QUrl& url);
    QString flowLinks(const Profile& profile, IntervalId selected) const;
    // The selected mark: its name, time, process, track and JSON.
    QString markHtml(const Profile& profile, std::uint32_t mark) const;
    // The selected message between processes (the Messages view's): from, to, endpoint, times.
    QString messageHtml(const Profile& profile, std::uint32_t message) const;

    ProfileDocument* m_document;
    TimeAxis* m_axis;
    QString m_html; // what is shown
    bool m_showsNode = false; // an aggregated node's, not the selection's
    bool m_empty = true;
    std::shared_ptr<const FrameSeries> m_frames = std::make_shared<const FrameSeries>(); // the profile's: their statistics follow the range in view or selected
};

} // namespace runlane
