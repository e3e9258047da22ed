#pragma once

#include "calltree.h"
#include "colorscheme.h"
#include "loadedprofile.h"
#include "profilejob.h"
#include "runset.h"

#include <QObject>

#include <memory>
#include <optional>

namespace runlane {

class CompareSession;
class CriticalPathState;
class MessagesState;
class TimeAxis;

// The open profile and how it is shown: colour mode, timeline or aggregated
// flame graph. Owned by the GUI thread; views read it and listen to it. It
// keeps the shared TimeAxis's bounds in step with what is shown.
//
// A change of profile is one step that every view observes in the same
// order: profileAboutToChange() (each view drops everything it derived
// from the old profile: rows, ids, series, tables, requests under way),
// then the document and the axis switch (the axis's signals now reach
// views that hold nothing), then profileChanged() (each view rebuilds from
// the new profile), then emphasisChanged(). Between the first and the last
// signal no view holds an id of the old profile, so no signal handler of
// one view can make another read old ids against the new profile.
class ProfileDocument : public QObject
{
    Q_OBJECT

public:
    ProfileDocument(TimeAxis* axis, QObject* parent = nullptr);
    ~ProfileDocument() override;

    void setProfile(const LoadedProfile& loaded);
    // The open profile grown (a live recording's next version): every
    // label id of the open profile means the same in `loaded`. Views are
    // told as for a new profile, with isContinuation() true meanwhile so
    // they keep what they can (the rank's selection and scroll, the chart's
    // hidden series); the focus, the search and the visible range stay.
    void continueProfile(const LoadedProfile& loaded);
    bool isContinuation() const { return m_continuing; }
    // The same source's fuller version with ids of its own (a load's next
    // preview, or its whole profile after the previews): set as a new
    // profile, with isRefinement() true meanwhile so that the views keep,
    // by name, what the user set in the last version (folded tracks,
    // scrolling, the usage chart's loop and hidden bands, the rank's
    // filter). The document keeps the aggregated view the user chose, the
    // focused label if the new version has one of its name, the selected
    // box if it has the same one (IntervalMatch), and the critical path
    // shown, walked again for its task if the new version has it. The
    // axis's range and selection are the caller's (LoadController's).
    void refineProfile(const LoadedProfile& loaded);
    // A refinement or a continuation is being told to the views (and, for
    // a refinement, what the user set is being set again: a view tells it
    // from the user's own choice by this).
    bool isRefinement() const { return m_refining || m_continuing; }
    // The name of the box selected, or of the task whose critical path was
    // shown, that this preview of a loading file left out (refineProfile:
    // it comes back with the version that has it again); "" if none.
    QString leftOutSelection() const { return leftOutName(m_wantedSelection); }
    QString leftOutPath() const { return leftOutName(m_wantedPath); }
    // " (it keeps boxes of 2.10 ms or more)" for a preview that leaves the
    // shorter boxes out, else "": why a box is not in it.
    QString previewKeeps() const;
    void clear();
    bool hasProfile() const { return !m_loaded.isNull(); }
    const LoadedProfile& loaded() const { return m_loaded; }
    const Profile* profile() const { return m_loaded.profile.get(); }
    const std::shared_ptr<const Profile>& sharedProfile() const { return m_loaded.profile; }
    // Whether a result computed from `profile` belongs to what is open.
    bool isCurrent(const std::shared_ptr<const Profile>& profile) const
    {
        return profile != nullptr && profile == m_loaded.profile;
    }
    const MeasurementMetrics* metrics() const { return m_loaded.metrics.get(); }
    TimeAxis* axis() const { return m_axis; }
    // Compare mode: the base runs the open profile is compared against.
    CompareSession* compare() const { return m_compare; }
    // The critical path shown on the timelines and in its panel (P).
    CriticalPathState* criticalPath() const { return m_criticalPath; }
    // The messages between its processes, the endpoint highlighted and the message selected.
    MessagesState* messages() const { return m_messages; }

    ColorMode colorMode() const { return m_colorMode; }
    void setColorMode(ColorMode mode);
    // The fill colour of an interval (or of a call tree node, in aggregated
    // mode), dimmed while other labels are emphasised.
    QRgb colorOf(LabelId label, Time duration) const;
    QRgb labelColor(LabelId label) const { return m_colors[label]; }

    // Aggregated: identical call paths merged, no time axis. The call tree
    // is built off the GUI thread the first time; until then isAggregated()
    // is already true and callTree() null.
    bool isAggregated() const { return m_aggregated; }
    void setAggregated(bool aggregated);
    const CallTree* callTree() const { return m_callTree.get(); }
    const std::shared_ptr<const CallTree>& sharedCallTree() const { return m_callTree; }
    // Emphasis: the focused label (the rank's selected row, a band of the
    // usage chart) and the labels matching a search. While either is set,
    // every view draws the other labels dimmed.
    LabelId focusLabel() const { return m_focus; }
    void setFocusLabel(LabelId label);
    // Case-insensitive substring of the label's name, or a regular
    // expression written /like this/; "" clears the search.
    void setSearch(const QString& text);
    const QString& searchText() const { return m_search; }
    bool searchIsValid() const { return m_searchValid; }
    const std::vector<LabelId>& searchMatches() const { return m_matchList; }
    std::size_t searchIntervalCount() const { return m_matchIntervals; }
    bool isEmphasisActive() const { return m_focus != kNone || !m_search.isEmpty(); }
    bool isHighlighted(LabelId label) const
    {
        return label == m_focus || (label < m_matches.size() && m_matches[label]);
    }
    // What F3 steps through: the focused label, else the search's matches.
    std::vector<LabelId> steppedLabels() const;
    // Selects the next (or previous) occurrence of steppedLabels() after
    // the selected interval (or the visible range), zooms to it and emits
    // intervalRevealed() for it. Returns the interval, kNone if there is
    // none.
    IntervalId stepOccurrence(bool forward) { return stepThrough(steppedLabels(), forward); }
    // The same through the given labels (the find bar steps through the
    // search's matches even while a rank row is focused).
    IntervalId stepThrough(const std::vector<LabelId>& labels, bool forward);
    // Where the selected interval stands among the occurrences of `labels`
    // in time: {k (1-based; 0 if it is not one of them), N}.
    std::pair<std::size_t, std::size_t> occurrencePosition(const std::vector<LabelId>& labels) const;
    const LabelIndex* labelIndex() const { return m_loaded.labels.get(); }
    // Selects an interval and shows it: the time axis zoomed to it (with
    // context) unless it is in view already, and intervalRevealed() for the
    // views to bring its row on screen (a link of the details pane).
    void revealInterval(IntervalId id);
    // The same for a stretch of time [start, end) that `interval` of
    // `measurement` lies in (a critical path's segment), or `measurement`
    // alone when `interval` is kNone (then nothing is revealed).
    void revealRange(Time start, Time end, IntervalId interval, MeasurementId measurement);

    // Blocks until background work (the call tree) is done and applied;
    // for scripts that render at once.
    void finishPendingWork();

Q_SIGNALS:
    // Before anything of the document changes: drop what refers to the
    // old profile; do not read the document.
    void profileAboutToChange();
    void profileChanged();
    void colorsChanged();
    void viewModeChanged();
    void emphasisChanged();
    // An interval to bring into view (revealInterval, stepThrough),
    // already selected.
    void intervalRevealed(IntervalId id);

private:
    // Shows [start, end) with a quarter of its length each side (F3, reveals).
    void zoomAround(Time start, Time end);
    void applyBounds();
    // `continuing`: continueProfile's step (ids, focus, view mode and range kept).
    void switchTo(const LoadedProfile& loaded, bool continuing = false);
    void callTreeBuilt(ProfileResult<CallTree> result);

    TimeAxis* m_axis;
    CompareSession* m_compare; // made first: it drops its results before any view rebuilds
    CriticalPathState* m_criticalPath;
    MessagesState* m_messages;
    LoadedProfile m_loaded;
    ColorMode m_colorMode = ColorMode::ByLabel;
    std::vector<QRgb> m_colors;
    Time m_longest = 1;
    bool m_aggregated = false;
    bool m_continuing = false;
    bool m_refining = false;
    // What the user chose that a load's next preview left out (a box under
    // its higher threshold, a label whose calls all are): looked for again
    // in each later version, by what it was in the last one that held it,
    // until found, replaced by the user's next choice, or missing from the
    // whole profile too.
    struct Wanted {
        std::shared_ptr<const Profile> in;
        IntervalId interval = kNone;
    };
    static QString leftOutName(const Wanted& wanted);
    Wanted m_wantedSelection;
    Wanted m_wantedPath;
    std::optional<LabelKey> m_wantedFocus;
    LabelId m_focus = kNone;
    QString m_search;
    bool m_searchValid = true;
    std::vector<bool> m_matches;
    std::vector<LabelId> m_matchList;
    std::size_t m_matchIntervals = 0;
    std::shared_ptr<const CallTree> m_callTree;
    ProfileJob<CallTree> m_callTreeJob;
};

} // namespace runlane
