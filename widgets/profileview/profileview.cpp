#include "profileview.h"

#include "counterview.h"
#include "counttext.h"
#include "criticalpathstate.h"
#include "framestrack.h"
#include "icicleview.h"
#include "messagesview.h"
#include "overviewstrip.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "timeruler.h"
#include "usagechart.h"

#include <QAction>
#include <QResizeEvent>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace runlane {

const char* ProfileView::partName(Part part)
{
    switch (part) {
    case Part::Icicle:
        return "icicle";
    case Part::Lanes:
        return "lanes";
    case Part::Usage:
        return "usage";
    case Part::Counters:
        return "counters";
    case Part::Messages:
        return "messages";
    }
    return "";
}

ProfileView::ProfileView(ProfileDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_overview = new OverviewStrip(m_document, this);
    m_overview->setObjectName(QStringLiteral("overview"));
    // Hidden, and so taking no room, for a profile without frames.
    m_frames = new FramesTrack(m_document, this);
    m_frames->setObjectName(QStringLiteral("frames"));
    m_ruler = new TimeRuler(m_document, this);
    m_ruler->setObjectName(QStringLiteral("ruler"));
    m_icicle = new IcicleView(m_document, this);
    m_counters = new CounterView(m_document, this);
    m_counters->setObjectName(QStringLiteral("counters"));
    m_messages = new MessagesView(m_document, this);
    m_messages->setObjectName(QStringLiteral("messages"));
    m_lanes = new TaskLaneView(m_document, this);
    m_usage = new UsageChart(m_document, this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_timelineSplitter = new QSplitter(Qt::Vertical, m_splitter);
    m_timelineSplitter->setObjectName(QStringLiteral("timelineSplitter"));
    m_timelineSplitter->addWidget(m_icicle);
    m_timelineSplitter->addWidget(m_counters);
    m_timelineSplitter->addWidget(m_messages);
    // A change of the panel's height goes to the icicle; the counters and messages keep theirs.
    m_timelineSplitter->setStretchFactor(0, 1);
    m_timelineSplitter->setStretchFactor(1, 0);
    m_timelineSplitter->setStretchFactor(2, 0);
    m_timelineSplitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_timelineSplitter);
    m_splitter->addWidget(m_lanes);
    m_splitter->addWidget(m_usage);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setStretchFactor(2, 1);
    m_splitter->setChildrenCollapsible(false);
    layout->addWidget(m_overview);
    layout->addWidget(m_frames);
    layout->addWidget(m_ruler);
    layout->addWidget(m_splitter, 1);

    connect(m_document, &ProfileDocument::viewModeChanged, this, [this] {
        // The lanes and the usage chart need the timeline: in the aggregated view their room
        // goes to the flame graph, and the splitter gives it back when they return.
        m_lanes->setVisible(!m_document->isAggregated());
        m_usage->setVisible(!m_document->isAggregated());
        fitCounters(); // shown again with the timeline
    });
    // The messages come and go with the profile (and the view mode): their room is the icicle's.
    connect(m_document, &ProfileDocument::profileChanged, this, [this] {
        if (m_document->hasProfile())
            fitCounters();
    });
    // Collapsing or expanding counter tracks gives the room to the icicle or takes it back.
    connect(m_counters, &CounterView::contentHeightChanged, this, [this] {
        if (m_document->hasProfile())
            fitCounters();
    });
    // A move of either splitter is kept for this session and this kind of profile (issue 46).
    const auto remember = [this] {
        const int kind = ViewSizing::kindOf(sizingFacts());
        if (!m_counters->isHidden())
            m_countersRoom = m_timelineSplitter->sizes().value(1);
        m_userSizes.insert(kind, m_splitter->sizes());
        m_userCounters.insert(kind, m_countersRoom);
        m_splitterMoved = true;
    };
    connect(m_splitter, &QSplitter::splitterMoved, this, remember);
    connect(m_timelineSplitter, &QSplitter::splitterMoved, this, remember);

    // The window's keys (the actions are this widget's, so that they work
    // wherever the focus is in the window, and in the View menu too).
    m_criticalPathAction = new QAction(tr("&Show critical path"), this);
    m_criticalPathAction->setObjectName(QStringLiteral("criticalPath"));
    m_criticalPathAction->setShortcut(QKeySequence(Qt::Key_P));
    m_criticalPathAction->setStatusTip(tr("Why the selected task took as long as it did"));
    connect(m_criticalPathAction, &QAction::triggered, this, &ProfileView::showCriticalPath);
    m_clearCriticalPathAction = new QAction(tr("C&lear critical path"), this);
    m_clearCriticalPathAction->setObjectName(QStringLiteral("clearCriticalPath"));
    m_clearCriticalPathAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_clearCriticalPathAction->setEnabled(false);
    connect(m_clearCriticalPathAction, &QAction::triggered, m_document->criticalPath(), &CriticalPathState::clear);
    connect(m_document->criticalPath(), &CriticalPathState::changed, this, [this] {
        const bool shown = m_document->criticalPath()->isActive();
        m_clearCriticalPathAction->setEnabled(shown);
        if (!shown) // "Critical path of …; Esc clears it" is over
            Q_EMIT message(QString());
    });
    addAction(m_criticalPathAction);
    addAction(m_clearCriticalPathAction);
}

void ProfileView::showCriticalPath()
{
    const TimeAxis& axis = *m_document->axis();
    const Profile* profile = m_document->profile();
    MeasurementId m = axis.selectedMeasurement();
    if (m == kNone && profile && axis.selectedInterval() < profile->intervalCount())
        m = profile->interval(axis.selectedInterval()).measurement;
    CriticalPathState& path = *m_document->criticalPath();
    if (!profile || m == kNone || !path.show(m)) {
        Q_EMIT message(tr("Select a task (a lane) or a box first: the critical path shown is the selected one's"));
        return;
    }
    const std::string_view name = profile->labelName(profile->measurement(m).label);
    Q_EMIT message(tr("Critical path of %1: %2; Esc clears it")
                       .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                            countText(qint64(path.segments().size()), "segment", "segments")));
}

bool ProfileView::canExport(Part part) const
{
    switch (part) {
    case Part::Icicle:
        return true;
    case Part::Lanes:
    case Part::Usage:
        return !m_document->isAggregated();
    case Part::Counters:
        return !m_counters->isHidden();
    case Part::Messages:
        return !m_messages->isHidden();
    }
    return false;
}

void ProfileView::restoreSplitterState(const QByteArray& state)
{
    m_splitter->restoreState(state);
}

QByteArray ProfileView::splitterState() const
{
    return m_splitter->saveState();
}

ViewSizing::Facts ProfileView::sizingFacts() const
{
    const Profile* p = m_document->profile();
    ViewSizing::Facts f;
    f.total = std::max(200, m_splitter->height() - (m_splitter->count() - 1) * m_splitter->handleWidth());
    f.handle = m_timelineSplitter->handleWidth();
    f.chartOnly = p && p->intervalCount() == 0 && p->snapshotsAreTimed();
    f.icicleContent = m_icicle->contentHeight();
    f.icicleMinimum = m_icicle->minimumHeight();
    f.counters = !m_counters->isHidden();
    f.countersContent = m_counters->contentHeight();
    f.countersCompact = int(m_counters->trackCount()) * CounterView::kHeaderHeight;
    f.countersMinimum = m_counters->minimumHeight();
    f.laneContent = m_lanes->totalTaskCount() > 0 ? m_lanes->contentHeight() : 0;
    f.laneRowHeight = m_lanes->rowHeight();
    f.lanesLegend = TaskLaneView::kLegendHeight;
    f.lanesMinimum = m_lanes->minimumHeight();
    f.usageMinimum = m_usage->minimumHeight();
    return f;
}

int ProfileView::spareHeight() const
{
    const ViewSizing::Facts facts = sizingFacts();
    return facts.total - ViewSizing::wantedTotal(facts);
}

void ProfileView::fitToProfile()
{
    // Whoever laid this view out did so first: the heights shared are those it has.
    layout()->activate();
    fitToRoom();
}

void ProfileView::fitToRoom()
{
    // The views' heights follow the profile's content (ViewSizing); sizes the user chose
    // for this kind of profile in this session come back instead, scaled by the splitter
    // to the room there is now.
    const int kind = ViewSizing::kindOf(sizingFacts());
    if (const auto user = m_userSizes.constFind(kind); user != m_userSizes.constEnd()) {
        m_splitter->setSizes(*user);
        m_countersRoom = m_userCounters.value(kind, 0);
    } else {
        const ViewSizing::Sizes sizes = ViewSizing::fit(sizingFacts());
        m_splitter->setSizes({sizes.timeline, sizes.lanes, sizes.usage});
        m_countersRoom = sizes.counters;
    }
    fitCounters();
}

void ProfileView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The room changed under the views (the window resized, a dock opened or closed below
    // them, a notice above): sized again for it, the splitter already laid out to the new
    // height (issue 46: the lanes keep their six rows when the Critical path dock opens).
    // The aggregated view hides the lanes and the chart, and the splitter gives their room
    // to the icicle.
    if (event->size().height() != event->oldSize().height() && m_document->hasProfile() && !m_document->isAggregated())
        fitToRoom();
}

void ProfileView::fitCounters()
{
    // Within the timeline panel the counters get their share (or the height they need, if
    // the icicle's rows leave it) and the icicle the rest, its minimum at least; a profile
    // without counters leaves it all to the icicle.
    Q_EMIT exportsChanged();
    // The messages' poles, all of them up to half of the panel, out of the icicle's room
    // (ViewSizing's figures are those of the panel without them).
    if (!m_messages->isHidden())
        m_timelineSplitter->refresh(); // shown for this profile: the splitter hears of it now
    const int total = m_splitter->sizes().value(0);
    const int messages = m_messages->isHidden() ? 0 : std::max(m_messages->minimumHeight(), std::min(m_messages->contentHeight(), total / 2));
    const int withoutMessages = total - (messages > 0 ? messages + m_timelineSplitter->handleWidth() : 0);
    if (m_counters->isHidden()) {
        // At once, not when the splitter hears of the hide from the event loop.
        m_timelineSplitter->refresh();
        if (messages > 0)
            m_timelineSplitter->setSizes({std::max(0, withoutMessages), 0, messages});
        return;
    }
    const int panel = withoutMessages - m_timelineSplitter->handleWidth();
    const int counters = ViewSizing::countersInPanel(sizingFacts(), panel, m_countersRoom);
    m_timelineSplitter->setSizes({std::max(0, panel - counters), counters, messages});
}

} // namespace runlane
