#pragma once

#include "viewsizing.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QWidget>

class QAction;
class QSplitter;

namespace runlane {

class CounterView;
class FramesTrack;
class IcicleView;
class MessagesView;
class OverviewStrip;
class ProfileDocument;
class TaskLaneView;
class TimeRuler;
class UsageChart;

// The open profile's views on one time axis: the overview strip, the frames
// track (if the profile has frames) and the time ruler above the icicle plot
// and, below it, the counters (if the profile has any), the task lanes and the
// usage chart. Their heights follow what the profile holds (ViewSizing); the
// user's moves of the splitters are kept for the session per kind of profile.
// The viewer's window shows one; `runlane-cli render` draws one alone.
class ProfileView : public QWidget
{
    Q_OBJECT

public:
    // The views that are exported alone (File ▸ Export, `runlane-cli render --view`).
    enum class Part { Icicle, Lanes, Usage, Counters, Messages };
    // A part's name in file names and on the command line: "icicle", "lanes", "usage", "counters", "messages".
    static const char* partName(Part part);

    explicit ProfileView(ProfileDocument* document, QWidget* parent = nullptr);

    OverviewStrip* overview() const { return m_overview; }
    FramesTrack* frames() const { return m_frames; }
    TimeRuler* ruler() const { return m_ruler; }
    IcicleView* icicle() const { return m_icicle; }
    CounterView* counters() const { return m_counters; }
    MessagesView* messagesView() const { return m_messages; }
    TaskLaneView* lanes() const { return m_lanes; }
    UsageChart* usage() const { return m_usage; }
    // Whether a part shows anything to export: the lanes and the usage chart
    // need the timeline (not the aggregated view), the counters a profile with counters,
    // the messages a profile with messages between processes.
    bool canExport(Part part) const;

    // Sizes the views for the profile just shown (or the user's sizes for its
    // kind). Whoever lays this view out lays it out first, so that the
    // heights shared are those it will have. Sized again the same way
    // whenever this view's height changes (the window, a dock opening or
    // closing): the user's sizes, if any, are scaled to the new height.
    void fitToProfile();
    // The height the views could give to a dock below them and still get what ViewSizing
    // gives them first (negative: what they are short of it), for the window's docks.
    int spareHeight() const;
    // The main splitter's state, for the settings: restored at start, saved
    // once the user has moved it.
    void restoreSplitterState(const QByteArray& state);
    QByteArray splitterState() const;
    bool splitterMoved() const { return m_splitterMoved; }

    // Critical path (P, for the View menu; the lanes' and the icicle's
    // context menus have it too): shows the path of the selected task, or
    // of the selected box's measurement (semantics.md §9). Clear critical
    // path (Esc) is enabled only while a path is shown, so that Esc keeps
    // its other uses (the range, then the selection) the rest of the time.
    QAction* criticalPathAction() const { return m_criticalPathAction; }
    QAction* clearCriticalPathAction() const { return m_clearCriticalPathAction; }
    void showCriticalPath();

Q_SIGNALS:
    // A line for the status bar (what P did, or why it could not).
    void message(const QString& text);
    // canExport may have changed: the counters shown or hidden, the aggregated view on or off.
    void exportsChanged();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // ViewSizing's sizes (or the user's for this kind) for the room the views have now.
    void fitToRoom();
    void fitCounters();
    ViewSizing::Facts sizingFacts() const;

    ProfileDocument* m_document;
    OverviewStrip* m_overview;
    FramesTrack* m_frames;
    TimeRuler* m_ruler;
    IcicleView* m_icicle;
    CounterView* m_counters;
    MessagesView* m_messages;
    TaskLaneView* m_lanes;
    UsageChart* m_usage;
    QAction* m_criticalPathAction;
    QAction* m_clearCriticalPathAction;
    // The timeline panel (m_splitter's first), split between the icicle,
    // the counters and the messages below it. Nested, so that m_splitter keeps its three
    // panels and the sizes saved by earlier versions, and a profile without
    // counters or messages looks as before: hidden, they take no room.
    QSplitter* m_splitter;
    QSplitter* m_timelineSplitter;
    // The user's splitter sizes (and counters' height) per kind of profile, for the session.
    QHash<int, QList<int>> m_userSizes;
    QHash<int, int> m_userCounters;
    int m_countersRoom = 0; // the counters' share of the timeline panel
    bool m_splitterMoved = false;
};

} // namespace runlane
