#include "criticalpathpanel.h"

#include "comparesession.h"
#include "criticalpathbar.h"
#include "criticalpathbreakdownmodel.h"
#include "criticalpathcomparetab.h"
#include "criticalpathflamegraph.h"
#include "criticalpathformatter.h"
#include "criticalpathsegmentmodel.h"
#include "criticalpathstate.h"
#include "profiledocument.h"
#include "rankheader.h"
#include "sharebardelegate.h"
#include "valueformat.h"

#include <QAction>
#include <QButtonGroup>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMouseEvent>
#include <QMessageBox>
#include <QProgressBar>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace runlane {

namespace {

QString html(const Profile& p, LabelId label)
{
    return QString::fromStdString(p.labelText(label)).toHtmlEscaped();
}

// Rows selected whole, a header that sorts, no row numbers.
void setUpView(QTableView* view, QAbstractItemModel* model, bool sortable)
{
    view->setHorizontalHeader(new RankHeader(view));
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setSortingEnabled(sortable);
}

} // namespace

CriticalPathPanel::CriticalPathPanel(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_taskButton(new QToolButton(this)), m_labelButton(new QToolButton(this)),
      m_message(new QLabel(this)),
      m_progressBar(new QProgressBar(this)), m_cancelButton(new QToolButton(this)), m_bar(new CriticalPathBar(this)),
      m_left(new QStackedWidget(this)), m_segments(new CriticalPathSegmentModel(this)), m_segmentView(new QTableView(this)),
      m_slowest(new QListWidget(this)), m_tables(new QTabWidget(this)),
      m_byLabel(new CriticalPathBreakdownModel(CriticalPathBreakdownModel::Grouping::ByLabel, this)),
      m_byProcess(new CriticalPathBreakdownModel(CriticalPathBreakdownModel::Grouping::ByProcess, this)),
      m_labelProxy(new QSortFilterProxyModel(this)), m_processProxy(new QSortFilterProxyModel(this)),
      m_labelView(new QTableView(this)), m_processView(new QTableView(this)),
      m_flameGraph(new CriticalPathFlameGraph(document, this)), m_progressTimer(new QTimer(this)),
      m_job(this, [this](ProfileResult<Aggregate> result) { aggregated(std::move(result)); })
{
    // The scope as two exclusive buttons (a tab bar here would read as
    // one more row of the dock's tabs).
    m_taskButton->setObjectName(QStringLiteral("criticalPathTask"));
    m_taskButton->setText(tr("Task"));
    m_taskButton->setToolTip(tr("The path of one task (P on a task or box)"));
    m_labelButton->setObjectName(QStringLiteral("criticalPathLabel"));
    m_labelButton->setText(tr("Label"));
    m_labelButton->setToolTip(tr("The paths of all the finished tasks of the rank's selected label, summed"));
    auto* scopes = new QButtonGroup(this);
    for (QToolButton* button : {m_taskButton, m_labelButton}) {
        button->setCheckable(true);
        scopes->addButton(button);
    }
    m_taskButton->setChecked(true);
    m_message->setObjectName(QStringLiteral("criticalPathMessage"));
    m_message->setTextFormat(Qt::RichText);
    m_message->setWordWrap(true);
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progressBar->setMaximumWidth(160);
    m_progressBar->setTextVisible(false);
    m_progressBar->hide();
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->hide();
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 0);
    top->addWidget(m_taskButton);
    top->addWidget(m_labelButton);
    top->addWidget(m_message, 1);
    top->addWidget(m_progressBar);
    top->addWidget(m_cancelButton);

    setUpView(m_segmentView, m_segments, false);
    m_segmentView->setObjectName(QStringLiteral("criticalPathSegments"));
    m_segmentView->setItemDelegateForColumn(CriticalPathSegmentModel::Duration,
                                            new ShareBarDelegate(CriticalPathSegmentModel::ShareRole, this));
    m_segmentView->setToolTip(tr("Click a segment to select what it names and bring it into view"));
    // The label is what a segment names: as wide as the breakdown's names,
    // the track (the last column) taking the rest.
    m_segmentView->setColumnWidth(CriticalPathSegmentModel::Label, 200);
    m_slowest->setObjectName(QStringLiteral("criticalPathSlowest"));
    m_slowest->setToolTip(tr("The label's slowest tasks: pick one to see its path"));
    m_left->addWidget(m_segmentView);
    m_left->addWidget(m_slowest);

    for (auto [proxy, model, view, name] :
         {std::tuple{m_labelProxy, m_byLabel, m_labelView, "criticalPathByLabel"},
          std::tuple{m_processProxy, m_byProcess, m_processView, "criticalPathByProcess"}}) {
        proxy->setSourceModel(model);
        proxy->setSortRole(CriticalPathBreakdownModel::SortRole);
        proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
        setUpView(view, proxy, true);
        view->setObjectName(QString::fromLatin1(name));
        view->sortByColumn(CriticalPathBreakdownModel::Ns, Qt::DescendingOrder);
        view->setItemDelegateForColumn(CriticalPathBreakdownModel::Share,
                                       new ShareBarDelegate(CriticalPathBreakdownModel::ShareRole, this));
    }
    m_labelView->setColumnWidth(CriticalPathBreakdownModel::Kind, 90);
    m_labelView->setColumnWidth(CriticalPathBreakdownModel::Name, 200);
    m_tables->addTab(m_labelView, tr("By label"));
    m_tables->addTab(m_processView, tr("By process"));
    m_tables->addTab(m_flameGraph, tr("Flame graph"));
    m_tables->setTabToolTip(2, tr("Running time on the paths under each measurement's creation path"));
    m_compareTab = new CriticalPathCompareTab(m_document, this);
    m_compareTab->setObjectName(QStringLiteral("criticalPathCompare"));
    m_compareTab->hide(); // a tab in compare mode only
    connect(m_document->compare(), &CompareSession::baseChanged, this, &CriticalPathPanel::updateShown);
    // A box clicked focuses its label: that must not replace the label
    // whose paths the graph shows (focusChanged).
    m_flameGraph->installEventFilter(this);
    connect(m_flameGraph, &CriticalPathFlameGraph::nodeClicked, this, [this] { m_flameClick = false; });

    // Side by side, not in a splitter: the window's tests and state know
    // one splitter, the profile view's.
    auto* tables = new QHBoxLayout;
    tables->setContentsMargins(0, 0, 0, 0);
    tables->addWidget(m_left, 3);
    tables->addWidget(m_tables, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_bar);
    layout->addLayout(tables, 1);

    m_exportBreakdown = new QAction(tr("Critical path breakdown as CSV…"), this);
    m_exportBreakdown->setObjectName(QStringLiteral("exportCriticalPath"));
    connect(m_exportBreakdown, &QAction::triggered, this, [this] { chooseAndExportCsv(CsvTable::Breakdown); });
    m_exportSegments = new QAction(tr("Critical path segments as CSV…"), this);
    m_exportSegments->setObjectName(QStringLiteral("exportCriticalPathSegments"));
    connect(m_exportSegments, &QAction::triggered, this, [this] { chooseAndExportCsv(CsvTable::Segments); });
    m_exportPng = new QAction(tr("Critical path panel as PNG…"), this);
    m_exportPng->setObjectName(QStringLiteral("exportCriticalPathImage"));
    connect(m_exportPng, &QAction::triggered, this, &CriticalPathPanel::chooseAndExportPng);
    m_labelAction = new QAction(tr("Critical path of this label"), this);
    m_labelAction->setObjectName(QStringLiteral("criticalPathOfLabel"));
    connect(m_labelAction, &QAction::triggered, this, [this] {
        showLabel(m_document->focusLabel());
        setScope(Scope::Label);
        bringToFront();
    });

    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &CriticalPathPanel::updateProgress);
    connect(m_cancelButton, &QToolButton::clicked, this, &CriticalPathPanel::cancel);
    connect(m_taskButton, &QToolButton::clicked, this, [this] { setScope(Scope::Task); });
    connect(m_labelButton, &QToolButton::clicked, this, [this] { setScope(Scope::Label); });
    connect(m_segmentView, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) { activateSegment(index.row()); });
    connect(m_segmentView, &QAbstractItemView::activated, this, [this](const QModelIndex& index) { activateSegment(index.row()); });
    connect(m_slowest, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { pickSlowest(m_slowest->row(item)); });
    connect(m_slowest, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { pickSlowest(m_slowest->row(item)); });
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &CriticalPathPanel::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &CriticalPathPanel::updateShown);
    connect(m_document, &ProfileDocument::emphasisChanged, this, &CriticalPathPanel::focusChanged);
    connect(m_document->criticalPath(), &CriticalPathState::changed, this, &CriticalPathPanel::pathChanged);
    if (m_document->criticalPath()->isActive())
        pathChanged();
    updateShown();
}

CriticalPathPanel::~CriticalPathPanel()
{
    // The job's destructor waits for the worker: tell it to stop first.
    if (m_cancel)
        m_cancel->store(true);
}

void CriticalPathPanel::setScope(Scope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    updateShown();
}

const CriticalPathSummary* CriticalPathPanel::summary() const
{
    return m_scope == Scope::Task ? m_taskSummary.get() : m_labelSummary.get();
}

void CriticalPathPanel::pathChanged()
{
    CriticalPathState* state = m_document->criticalPath();
    if (state->isActive() && m_document->hasProfile()) {
        // The one task as a summary: the breakdowns, the process table and
        // the CSV exports are then those of a label's aggregate. One walk
        // more, O(k log n).
        const std::shared_ptr<const CriticalPath> paths = state->paths();
        m_taskProfile = m_document->sharedProfile();
        m_taskSummary = std::make_shared<const CriticalPathSummary>(
            CriticalPathSummary::compute(*paths, {state->measurement()}, true));
        m_segments->setPath(m_taskProfile, state->segments());
        const std::optional<Time> keptTop = std::exchange(m_keptSegmentTop, std::nullopt);
        if (keptTop && m_document->isRefinement())
            scrollSegmentsTo(*keptTop);
        else if (!m_document->isRefinement())
            m_segmentView->scrollToTop(); // a new path starts at its start, not where the last one was scrolled
        // The focus moved before P: its aggregate is ready when asked for,
        // but the path asked for last is what is shown.
        if (m_followPending)
            showLabel(m_document->focusLabel());
        // The same path walked again in a load's next version: the panel
        // stays as the user left it (its scope; the rank in front, say).
        const bool again = m_document->isRefinement();
        if (!again)
            m_scope = Scope::Task;
        updateShown();
        if (!again)
            bringToFront();
    } else {
        // A load's next version drops the path, then walks it again: the
        // segments the user scrolled to are kept by time (a fuller version
        // has more of them before).
        m_keptSegmentTop.reset();
        if (m_document->isRefinement() && m_segmentView->verticalScrollBar()->value() > 0) {
            if (const QModelIndex top = m_segmentView->indexAt(QPoint(0, 0)); top.isValid())
                m_keptSegmentTop = Time(top.data(CriticalPathSegmentModel::StartRole).toLongLong());
        }
        m_taskProfile.reset();
        m_taskSummary.reset();
        m_segments->clear();
        updateShown();
    }
    Q_EMIT pathShown();
}

void CriticalPathPanel::scrollSegmentsTo(Time start)
{
    const std::vector<CriticalPath::Segment>& segments = m_segments->segments();
    const auto at = std::partition_point(segments.begin(), segments.end(),
                                         [start](const CriticalPath::Segment& s) { return s.start < start; });
    if (at == segments.end())
        return;
    m_segmentView->doItemsLayout(); // its scroll range is the emptied table's until then
    m_segmentView->scrollTo(m_segments->index(int(at - segments.begin()), 0), QAbstractItemView::PositionAtTop);
}

void CriticalPathPanel::focusChanged()
{
    const LabelId focus = m_document->focusLabel();
    m_labelAction->setEnabled(focus != kNone);
    if (focus == kNone || focus == m_label || m_flameClick)
        return;
    // A tab behind the rank is not shown: the aggregate waits until the
    // panel is (each rank row clicked would otherwise start a computation).
    if (!isVisible()) {
        m_followPending = true;
        return;
    }
    showLabel(focus);
    if (!m_document->isRefinement()) // the same label focused again: the scope stays
        setScope(Scope::Label);
}

bool CriticalPathPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_flameGraph && event->type() == QEvent::MouseButtonRelease
        && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
        m_flameClick = true; // until its nodeClicked, after the focus moved
    return QWidget::eventFilter(watched, event);
}

void CriticalPathPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_followPending && m_document->focusLabel() != kNone) {
        showLabel(m_document->focusLabel());
        setScope(Scope::Label);
    }
    m_followPending = false;
}

void CriticalPathPanel::stopJob()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    m_job.drop();
    m_computing = false;
    m_progressTimer->stop();
}

void CriticalPathPanel::showLabel(LabelId label)
{
    stopJob();
    m_label = label;
    m_followPending = false;
    m_cancelled = false;
    m_labelProfile.reset();
    m_labelSummary.reset();
    m_slowestTasks.clear();
    m_slowest->clear();
    m_compareTab->setLabel(nullptr, kNone, nullptr);
    if (label == kNone || !m_document->hasProfile() || label >= m_document->profile()->labelCount()) {
        m_label = kNone;
        updateShown();
        return;
    }
    // The index keeps its profile alive: the worker may outlive a switch.
    const std::shared_ptr<const CriticalPath> paths = m_document->criticalPath()->paths();
    const auto cancel = std::make_shared<std::atomic<bool>>(false);
    const auto progress = std::make_shared<Progress>();
    m_cancel = cancel;
    m_progress = progress;
    m_job.start(m_document->sharedProfile(), [paths, label, cancel, progress](const Profile& profile) {
        const LabelId labels[] = {label};
        std::vector<MeasurementId> tasks = CriticalPathSummary::tasksOf(profile, labels);
        Aggregate aggregate;
        aggregate.label = label;
        aggregate.slowest = CriticalPathSummary::slowest(profile, tasks, 10);
        aggregate.summary = std::make_shared<const CriticalPathSummary>(CriticalPathSummary::compute(
            *paths, std::move(tasks), false, cancel.get(), [progress](std::size_t done, std::size_t total) {
                progress->done.store(done, std::memory_order_relaxed);
                progress->total.store(total, std::memory_order_relaxed);
            }));
        return std::make_shared<const Aggregate>(std::move(aggregate));
    });
    m_computing = true;
    m_progressTimer->start();
    updateShown();
}

void CriticalPathPanel::aggregated(ProfileResult<Aggregate> result)
{
    m_progressTimer->stop();
    m_computing = false;
    // Cancelled or failed (null), of another profile, or of a label no
    // longer asked for: nothing of it is shown.
    if (!result.value || !m_document->isCurrent(result.profile) || result.value->label != m_label) {
        updateShown();
        return;
    }
    const Profile& p = *result.profile;
    m_labelProfile = std::move(result.profile);
    m_labelSummary = result.value->summary;
    m_slowestTasks = result.value->slowest;
    m_compareTab->setLabel(m_labelProfile, m_label, m_labelSummary);
    m_slowest->clear();
    for (const MeasurementId id : m_slowestTasks) {
        const Measurement& m = p.measurement(id);
        m_slowest->addItem(tr("%1 — created at %2, took %3")
                               .arg(QString::fromUtf8(p.labelName(m.label).data(), qsizetype(p.labelName(m.label).size())),
                                    QString::fromStdString(ValueFormat::point(m.created - p.startTime(), p.unit())),
                                    QString::fromStdString(ValueFormat::text(m.finished - m.created, p.unit()))));
    }
    updateShown();
    Q_EMIT aggregateShown();
}

void CriticalPathPanel::cancel()
{
    if (!isComputing())
        return;
    stopJob();
    m_cancelled = true;
    updateShown();
}

void CriticalPathPanel::finishPendingWork()
{
    m_job.finish();
}

void CriticalPathPanel::dropProfile()
{
    stopJob();
    m_label = kNone;
    m_followPending = false;
    m_cancelled = false;
    m_taskProfile.reset();
    m_taskSummary.reset();
    m_labelProfile.reset();
    m_labelSummary.reset();
    m_slowestTasks.clear();
    m_slowest->clear();
    m_compareTab->setLabel(nullptr, kNone, nullptr);
    m_segments->clear();
    updateShown();
}

void CriticalPathPanel::updateShown()
{
    const bool task = m_scope == Scope::Task;
    (task ? m_taskButton : m_labelButton)->setChecked(true);
    const std::shared_ptr<const Profile>& profile = task ? m_taskProfile : m_labelProfile;
    const std::shared_ptr<const CriticalPathSummary>& shown = task ? m_taskSummary : m_labelSummary;
    if (m_byLabel->summary() != shown.get()) {
        m_byLabel->setSummary(profile, shown);
        m_byProcess->setSummary(profile, shown);
        m_flameGraph->setSummary(shown);
    }
    if (shown)
        m_bar->setTotals(shown->kindTotals(), shown->wall());
    else
        m_bar->clear();
    m_left->setCurrentWidget(task ? static_cast<QWidget*>(m_segmentView) : m_slowest);
    const bool computing = !task && isComputing();
    m_progressBar->setVisible(computing);
    m_cancelButton->setVisible(computing);
    if (computing)
        updateProgress();
    m_message->setText(message());
    m_exportBreakdown->setEnabled(shown != nullptr);
    m_exportSegments->setEnabled(task && m_taskSummary);
    m_exportPng->setEnabled(m_document->hasProfile());
    m_labelAction->setEnabled(m_document->focusLabel() != kNone);
    // Compare mode adds the label's paths against the base runs' (Label scope only).
    const bool compare = !task && m_compareTab->isAvailable();
    const int at = m_tables->indexOf(m_compareTab);
    if (compare && at < 0)
        m_tables->addTab(m_compareTab, tr("Base vs new"));
    else if (!compare && at >= 0)
        m_tables->removeTab(at);
}

void CriticalPathPanel::updateProgress()
{
    if (!m_progress)
        return;
    const std::size_t total = m_progress->total.load(std::memory_order_relaxed);
    const std::size_t done = std::min(m_progress->done.load(std::memory_order_relaxed), total);
    // Busy (0, 0) until the worker has counted the tasks.
    m_progressBar->setRange(0, total > 0 ? 1000 : 0);
    m_progressBar->setValue(total > 0 ? int(done * 1000 / total) : 0);
}

QString CriticalPathPanel::message() const
{
    if (!m_document->hasProfile())
        return tr("Open a profile to see why its tasks took as long as they did.");
    const Profile& p = *m_document->profile();
    QString text;
    if (m_scope == Scope::Task) {
        if (!m_taskSummary || m_taskSummary->tasks().empty()) {
            const QString leftOut = m_document->leftOutPath();
            // A load's next preview left the task's box out (ProfileDocument::refineProfile).
            text = !leftOut.isEmpty()
                ? tr("The path of <b>%1</b> is not in this preview of the file%2: it is shown again when a version "
                     "that has its task arrives, the whole profile at the latest.")
                      .arg(leftOut.toHtmlEscaped(), m_document->previewKeeps())
                : tr("No path shown: select a task (a lane) or a box and press <b>P</b> (View ▸ Critical path) "
                     "to see why it took as long as it did.");
        } else {
            const Measurement& m = p.measurement(m_taskSummary->tasks().front().measurement);
            text = tr("Critical path of <b>%1</b>, created at %2: %3 of wall time")
                       .arg(html(p, m.label), QString::fromStdString(ValueFormat::point(m.created - p.startTime(), p.unit())),
                            QString::fromStdString(ValueFormat::text(m_taskSummary->wall(), p.unit())));
        }
    } else if (m_label == kNone) {
        text = tr("No label chosen: select a row of the rank (or <i>Critical path of this label</i> in its context "
                  "menu) to sum the critical paths of its tasks.");
    } else if (isComputing()) {
        text = tr("Summing the critical paths of the tasks of <b>%1</b>…").arg(html(p, m_label));
    } else if (m_cancelled) {
        text = tr("Cancelled: the critical paths of <b>%1</b>'s tasks were not summed.").arg(html(p, m_label));
    } else if (m_labelSummary && m_labelSummary->tasks().empty()) {
        text = tr("<b>%1</b> has no finished task, so no path to sum (a task still running or born finished has "
                  "none).").arg(html(p, m_label));
    } else if (m_labelSummary) {
        text = tr("Critical paths of %n task(s) of <b>%1</b>: %2 of wall time in all. Pick one of the slowest to see "
                  "its path.", nullptr, int(m_labelSummary->tasks().size()))
                   .arg(html(p, m_label), QString::fromStdString(ValueFormat::text(m_labelSummary->wall(), p.unit())));
    }
    // Said where the numbers are: without wakers every pause is waiting.
    const std::string_view why = CriticalPath::whyNoWakers(m_document->criticalPath()->wakeSource(), p.isPreview());
    if (!why.empty())
        text += QStringLiteral("<br><i>") + tr("No wakers: %1.").arg(QString::fromUtf8(why.data(), qsizetype(why.size())).toHtmlEscaped())
            + QStringLiteral("</i>");
    return text;
}

void CriticalPathPanel::activateSegment(int row)
{
    const Profile* p = m_segments->profile();
    if (!p || row < 0 || row >= m_segments->rowCount() || !m_document->isCurrent(m_taskProfile))
        return;
    const CriticalPath::Segment& s = m_segments->segments()[std::size_t(row)];
    // Idle names no one: the task that was ready is selected instead.
    const MeasurementId selected = s.named != kNone ? s.named : s.pathMeasurement;
    IntervalId interval = kNone;
    if (s.named != kNone) {
        // The named measurement's interval the segment lies in (running,
        // queued); a waiting one may have none (a timer never runs).
        const auto ids = p->intervalsOf(s.named);
        const auto it = std::partition_point(ids.begin(), ids.end(), [&](IntervalId id) { return p->interval(id).end <= s.start; });
        if (it != ids.end() && p->interval(*it).start < s.end)
            interval = *it;
    }
    // In view and not a sliver, the zoom stays; else the segment with a
    // quarter of its length each side. The interval's row comes on screen.
    m_document->revealRange(s.start, s.end, interval, selected);
}

void CriticalPathPanel::pickSlowest(int row)
{
    if (row < 0 || std::size_t(row) >= m_slowestTasks.size() || !m_document->isCurrent(m_labelProfile))
        return;
    m_document->criticalPath()->show(m_slowestTasks[std::size_t(row)]);
}

void CriticalPathPanel::bringToFront()
{
    // Tabbed beside the rank: a path asked for (P) shows the tab.
    if (auto* dock = qobject_cast<QDockWidget*>(parentWidget())) {
        dock->show();
        dock->raise();
    }
}

bool CriticalPathPanel::exportCsv(const QString& path, CsvTable table, QString* error) const
{
    const CriticalPathSummary* shown = summary();
    const Profile* p = m_scope == Scope::Task ? m_taskProfile.get() : m_labelProfile.get();
    if (!shown || !p || (table == CsvTable::Segments && m_scope != Scope::Task)) {
        if (error)
            *error = tr("no critical path is shown");
        return false;
    }
    const std::string text = CriticalPathFormatter::csv(*p, *shown, table == CsvTable::Segments);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QImage CriticalPathPanel::image(qreal scale)
{
    QImage image((QSizeF(size()) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(palette().color(QPalette::Window));
    render(&image);
    return image;
}

QList<QAction*> CriticalPathPanel::exportActions() const
{
    return {m_exportBreakdown, m_exportSegments, m_exportPng};
}

QString CriticalPathPanel::suggestedName(const QString& suffix) const
{
    return QFileInfo(m_document->loaded().path).completeBaseName() + suffix;
}

void CriticalPathPanel::chooseAndExportCsv(CsvTable table)
{
    const QString suggestion =
        suggestedName(table == CsvTable::Segments ? QStringLiteral("-critical-path-segments.csv") : QStringLiteral("-critical-path.csv"));
    const QString filter = tr("CSV files (*.csv)");
    const QString path = m_chooseSave ? m_chooseSave(suggestion, filter)
                                      : QFileDialog::getSaveFileName(this, tr("Export the critical path as CSV"), suggestion, filter);
    QString error;
    if (!path.isEmpty() && !exportCsv(path, table, &error))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}

void CriticalPathPanel::chooseAndExportPng()
{
    const QString suggestion = suggestedName(QStringLiteral("-critical-path.png"));
    const QString filter = tr("PNG images (*.png)");
    const QString path = m_chooseSave ? m_chooseSave(suggestion, filter)
                                      : QFileDialog::getSaveFileName(this, tr("Export the critical path as PNG"), suggestion, filter);
    if (path.isEmpty())
        return;
    const QImage shot = image(devicePixelRatioF());
    // Atomically, as every export: the file appears only when complete.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !shot.save(&file, "PNG") || !file.commit())
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, file.errorString()));
}

void CriticalPathPanel::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addActions(exportActions());
    menu.addSeparator();
    menu.addAction(tr("Clear the path"), m_document->criticalPath(), &CriticalPathState::clear)
        ->setEnabled(m_document->criticalPath()->isActive());
    menu.exec(event->globalPos());
}

} // namespace runlane
