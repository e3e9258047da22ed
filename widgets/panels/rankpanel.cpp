#include "rankpanel.h"

#include "colorscheme.h"
#include "diffcolors.h"
#include "elidedlabel.h"
#include "comparefiltermodel.h"
#include "compareformatter.h"
#include "comparemodel.h"
#include "comparesession.h"
#include "profiledocument.h"
#include "rankformatter.h"
#include "ranksortproxy.h"
#include "rankheader.h"
#include "rankmodel.h"
#include "searchpattern.h"
#include "sharebardelegate.h"
#include "textcelldelegate.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSaveFile>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace runlane {

namespace {

// A long path keeps its end: the file's name and the line, what tells two
// paths of a project apart.
TextCellDelegate* locationDelegate(QObject* parent)
{
    auto* delegate = new TextCellDelegate(parent);
    delegate->setElideMode(Qt::ElideLeft);
    return delegate;
}

} // namespace

RankPanel::RankPanel(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis()), m_model(new RankModel(document, this)),
      m_proxy(new RankSortProxy(this)), m_view(new QTableView(this)), m_compareModel(new CompareModel(this)),
      m_compareProxy(new CompareFilterModel(this)), m_compareView(new QTableView(this)), m_stack(new QStackedWidget(this)),
      m_metricBox(new QComboBox(this)), m_verdictBox(new QComboBox(this)), m_filter(new QLineEdit(this)),
      m_count(new QLabel(this)), m_banner(new ElidedLabel(this)),
      m_job(this, [this](ProfileResult<Computed> result) { computed(std::move(result)); })
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RankModel::SortRole);
    m_proxy->setFilterKeyColumn(RankModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

    setUpTable(m_view, m_proxy, RankModel::Exec);
    m_view->setAlternatingRowColors(true);
    // Every cell is redrawn at each update of a live recording.
    m_view->setItemDelegate(new TextCellDelegate(this));
    m_view->setItemDelegateForColumn(RankModel::Exec, new ShareBarDelegate(RankModel::ShareRole, this));
    m_view->setItemDelegateForColumn(RankModel::Location, locationDelegate(this));
    m_view->setColumnWidth(RankModel::Name, 240);
    m_view->setColumnWidth(RankModel::Location, 170);
    for (int c = RankModel::Calls; c < RankModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, c == RankModel::Exec || c == RankModel::Total || c == RankModel::Wall ? 92 : 76);
    // The scheduling delay columns only for profiles with wakes (tokio).
    auto showDelays = [this] {
        for (int c = RankModel::DelaySum; c <= RankModel::DelayP90; ++c)
            m_view->setColumnHidden(c, !m_model->hasDelays());
    };
    connect(m_proxy, &QAbstractItemModel::modelReset, this, showDelays);
    showDelays();

    // The compare rank: its own view, so each mode keeps its order,
    // widths and selection.
    m_compareProxy->setSourceModel(m_compareModel);
    m_compareView->setObjectName(QStringLiteral("compareView"));
    setUpTable(m_compareView, m_compareProxy, CompareModel::Delta); // |Δ| first
    m_compareView->setColumnWidth(CompareModel::Name, 240);
    m_compareView->setColumnWidth(CompareModel::Location, 150);
    m_compareView->setItemDelegateForColumn(CompareModel::Location, locationDelegate(this));
    m_compareView->setColumnWidth(CompareModel::Interval, 150);
    for (int c = CompareModel::Verdict; c < CompareModel::ColumnCount; ++c) {
        if (c != CompareModel::Interval)
            m_compareView->setColumnWidth(c, c == CompareModel::Calls ? 140 : 86);
    }
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_compareView);
    m_metricBox->setObjectName(QStringLiteral("compareMetric"));
    m_metricBox->setToolTip(tr("The metric the compare rank shows and judges"));
    for (const CompareMetric metric : CompareMetrics::all())
        m_metricBox->addItem(QString::fromLatin1(CompareMetrics::name(metric).data()), int(metric));
    m_metricBox->setCurrentIndex(m_metricBox->findData(int(CompareMetric::Exec)));
    m_verdictBox->setObjectName(QStringLiteral("compareVerdicts"));
    m_verdictBox->addItem(tr("All verdicts"));
    m_verdictBox->addItem(tr("Changed"));
    m_verdictBox->setItemData(1, tr("Regressed or improved"), Qt::ToolTipRole);
    m_verdictBox->addItem(tr("Regressed"));
    m_verdictBox->addItem(tr("Improved"));
    m_verdictBox->addItem(tr("Inconclusive"));
    m_verdictBox->addItem(tr("Unchanged"));
    m_verdictBox->addItem(tr("Added"));
    m_verdictBox->addItem(tr("Removed"));
    // As narrow as their shortest entries allow: the compare rank's bar
    // must fit where the rank's does.
    for (QComboBox* box : {m_metricBox, m_verdictBox}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == m_metricBox ? 5 : 11);
    }
    m_metricBox->hide();
    m_verdictBox->hide();

    m_filter->setPlaceholderText(tr("Filter names (text, or /regex/)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMinimumWidth(260);
    m_filter->setMaximumWidth(360);
    m_count->setObjectName(QStringLiteral("rankCount"));
    m_count->setTextFormat(Qt::RichText);
    m_count->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    connect(m_count, &QLabel::linkActivated, m_filter, &QLineEdit::clear);
    m_banner->setObjectName(QStringLiteral("rankBanner"));
    m_banner->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    // A long banner (a base's name, a warning) is cut at the panel's edge
    // with "…" rather than widening the panel, and with it the window; its
    // tooltip has it whole.
    m_banner->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_banner->setMinimumWidth(40);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 2);
    top->addWidget(m_filter);
    top->addWidget(m_metricBox);
    top->addWidget(m_verdictBox);
    top->addWidget(m_count);
    top->addSpacing(12);
    top->addWidget(m_banner, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);

    m_copy = new QAction(tr("Copy rank rows"), this);
    m_copy->setObjectName(QStringLiteral("copyRows"));
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(selectedRowsText()); });
    addAction(m_copy);

    connect(m_filter, &QLineEdit::textChanged, this, &RankPanel::setFilterText);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RankPanel::currentRowChanged);
    connect(m_compareView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RankPanel::currentRowChanged);
    connect(m_document->compare(), &CompareSession::comparisonChanged, this, &RankPanel::comparisonChanged);
    connect(m_document->compare(), &CompareSession::baseChanged, this, &RankPanel::comparisonChanged);
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this] {
        m_syncing = true;
        const auto metric = CompareMetric(m_metricBox->currentData().toInt());
        m_document->compare()->setPreferredMetric(metric); // first, when the next comparison starts
        m_compareModel->setMetric(metric);
        m_syncing = false;
        focusChanged();
        updateBanner();
    });
    connect(m_verdictBox, &QComboBox::currentIndexChanged, this, &RankPanel::verdictFilterChanged);
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &RankPanel::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &RankPanel::recompute);
    connect(m_document, &ProfileDocument::emphasisChanged, this, &RankPanel::focusChanged);
    connect(m_axis, &TimeAxis::selectionChanged, this, &RankPanel::recompute);
    connect(m_banner, &QLabel::linkActivated, m_axis, &TimeAxis::clearSelection);
    // The shown count follows the filter.
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &RankPanel::updateBanner);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &RankPanel::updateBanner);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &RankPanel::updateBanner);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &RankPanel::updateBanner);
    connect(m_compareProxy, &QAbstractItemModel::modelReset, this, &RankPanel::updateBanner);
    connect(m_compareProxy, &QAbstractItemModel::layoutChanged, this, &RankPanel::updateBanner);
    connect(m_compareProxy, &QAbstractItemModel::rowsInserted, this, &RankPanel::updateBanner);
    connect(m_compareProxy, &QAbstractItemModel::rowsRemoved, this, &RankPanel::updateBanner);
    recompute();
    if (m_document->compare()->isActive())
        comparisonChanged();
}

void RankPanel::setUpTable(QTableView* view, QAbstractItemModel* model, int sortColumn)
{
    view->setHorizontalHeader(new RankHeader(view));
    view->setModel(model);
    view->setSortingEnabled(true);
    view->sortByColumn(sortColumn, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
}

RankPanel::~RankPanel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void RankPanel::setFilterText(const QString& text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    const SearchPattern pattern(text);
    for (QSortFilterProxyModel* proxy : {m_proxy, static_cast<QSortFilterProxyModel*>(m_compareProxy)}) {
        if (pattern.isRegex()) {
            // A pattern being typed is often invalid for a moment: keep the last good one.
            if (pattern.isValid())
                proxy->setFilterRegularExpression(pattern.regex());
        } else {
            proxy->setFilterFixedString(text);
        }
    }
    updateFilterStyle();
    updateBanner();
}

void RankPanel::updateFilterStyle()
{
    const SearchPattern pattern(m_filter->text());
    m_filter->setStyleSheet(pattern.isRegex() && !pattern.isValid()
                                ? QStringLiteral("QLineEdit { color: %1; }").arg(ColorScheme::errorText().name())
                                : QString());
}

void RankPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateFilterStyle(); // the error colour is the theme's
}

void RankPanel::dropProfile()
{
    if (m_cancel)
        m_cancel->store(true);
    m_job.drop();
    // A live recording's next version: the table shown stays (it holds its
    // own profile, and the ids mean the same) until the new one updates it
    // in place.
    m_continuing = m_document->isContinuation() && m_model->table() && !isComparing();
    if (m_continuing)
        return;
    // A load's next version: the rows the user scrolled to, by the name at
    // the top (scrolled, since an unscrolled rank shows its new top rows).
    // Kept from the version before if this one's table never came.
    const bool refining = m_document->isRefinement() && !isComparing();
    if (!refining)
        m_keptTop.reset();
    else if (m_model->table() && m_document->hasProfile())
        m_keptTop = topRow();
    m_syncing = true; // the reset must not move the focus of the profile to come
    m_model->setTable(nullptr, nullptr);
    m_compareModel->setComparison(nullptr, nullptr);
    m_syncing = false;
    // A filter typed for one file's names would hide the next file's rows
    // ("0 of 2 labels"); a live recording's next version keeps it (above),
    // and so does a load's.
    if (!refining) {
        m_filter->clear();
        // Another file opens at its top rows: the reset alone left the
        // last file's scroll (its layout waits for the event loop, and the
        // new rows came first).
        m_view->scrollToTop();
    }
    updateBanner();
}

void RankPanel::recompute()
{
    if (m_cancel)
        m_cancel->store(true);
    if (!m_document->hasProfile()) {
        dropProfile();
        return;
    }
    std::optional<TimeRange> range;
    // The aggregated view's axis is not time: a range there means nothing here.
    if (const auto& selection = m_axis->selection(); selection && !m_document->isAggregated())
        range = TimeRange{selection->first, selection->second};
    // The task owns what it reads (the metrics refer to the profile): a
    // cancelled one may still be finishing after the document moved on.
    const auto metrics = m_document->loaded().metrics;
    const auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_job.start(m_document->sharedProfile(), [metrics, range, cancel](const Profile& profile) {
        Computed result;
        result.table = std::make_shared<const RankTable>(RankTable::compute(*metrics, range, cancel.get()));
        if (range && !profile.wakes().empty())
            result.delays = std::make_shared<const SchedulingDelays>(profile, range);
        return std::make_shared<const Computed>(std::move(result));
    });
    updateBanner();
}

void RankPanel::finishPendingWork()
{
    m_job.finish();
}

void RankPanel::computed(ProfileResult<Computed> result)
{
    // Cancelled (null), or computed for a profile no longer open.
    if (!result.value || !m_document->isCurrent(result.profile))
        return;
    m_syncing = true;
    const bool updated = std::exchange(m_continuing, false) && !result.value->delays
        && m_model->updateTable(result.value->table, result.profile);
    if (!updated)
        m_model->setTable(result.value->table, std::move(result.profile), result.value->delays);
    m_syncing = false;
    fitColumns(updated);
    if (const std::optional<LabelKey> top = std::exchange(m_keptTop, std::nullopt))
        scrollLabelToTop(*top);
    focusChanged(); // the focused label's row in the new table (where it is seen, it stays)
    updateBanner();
    Q_EMIT tableShown();
}

void RankPanel::fitColumns(bool grown)
{
    if (grown) {
        // A live update (every second): the widest text of a column is
        // its largest value's; measuring 200 rows × 15 columns each time
        // cost ~4 ms of the GUI thread.
        const QFontMetrics metrics(m_view->font());
        for (int c = RankModel::Calls; c < RankModel::ColumnCount; ++c) {
            // Hidden (the scheduling delays of a profile without wakes,
            // every live one): no width to fit, and finding their largest
            // reads 5,000 rows through QVariants (0.15 ms a scrape).
            if (m_view->isColumnHidden(c))
                continue;
            const int widest = m_model->largestRow(c);
            if (widest < 0)
                continue;
            const int needed = metrics.horizontalAdvance(m_model->index(widest, c).data().toString()) + 18;
            if (needed > m_view->columnWidth(c))
                m_view->setColumnWidth(c, needed);
        }
        return;
    }
    // Values in samples or bytes ("3.33 k samples") are wider than times:
    // widen a numeric column to its widest value instead of eliding it.
    // A sample of rows is enough (their texts differ by a digit or two),
    // and this runs on the GUI thread after every range selection.
    const QFontMetrics metrics(m_view->font());
    const int rows = std::min(m_model->rowCount(), 200);
    for (int c = RankModel::Calls; c < RankModel::ColumnCount; ++c) {
        if (m_view->isColumnHidden(c))
            continue;
        int needed = 0;
        for (int r = 0; r < rows; ++r)
            needed = std::max(needed, metrics.horizontalAdvance(m_model->index(r, c).data().toString()));
        needed += 18; // the cell's margins
        if (needed > m_view->columnWidth(c))
            m_view->setColumnWidth(c, needed);
    }
}

std::optional<LabelKey> RankPanel::topRow() const
{
    if (m_view->verticalScrollBar()->value() == 0)
        return std::nullopt;
    const QModelIndex top = m_view->indexAt(QPoint(0, 0));
    if (!top.isValid())
        return std::nullopt;
    const auto label = LabelId(top.data(RankModel::LabelRole).toULongLong());
    return RunSet::keyOf(*m_document->profile(), label, RunSet::Match::NameFileLine);
}

void RankPanel::scrollLabelToTop(const LabelKey& key)
{
    // The view laid out the empty table of the drop when the event loop
    // ran since: its scroll range is still that table's (none), and a
    // scroll now would stop at 0 until its delayed layout.
    m_view->doItemsLayout();
    for (const LabelId label : RunSet::labelsOf(*m_document->profile(), key, RunSet::Match::NameFileLine)) {
        const int row = m_model->rowOf(label);
        const QModelIndex shown = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, RankModel::Name));
        if (shown.isValid()) {
            m_view->scrollTo(shown, QAbstractItemView::PositionAtTop);
            return;
        }
    }
}

void RankPanel::currentRowChanged()
{
    if (m_syncing)
        return;
    const QModelIndex current = currentView()->selectionModel()->currentIndex();
    // Both models give the LabelId at the same role; a removed label has none.
    static_assert(int(RankModel::LabelRole) == int(CompareModel::LabelRole));
    m_document->setFocusLabel(current.isValid() ? LabelId(current.data(RankModel::LabelRole).toULongLong()) : kNone);
}

void RankPanel::focusChanged()
{
    if (m_syncing)
        return;
    const LabelId focus = m_document->focusLabel();
    QTableView* view = currentView();
    const QModelIndex current = view->selectionModel()->currentIndex();
    if (current.isValid() && LabelId(current.data(RankModel::LabelRole).toULongLong()) == focus)
        return;
    m_syncing = true;
    QModelIndex shown;
    if (isComparing()) {
        const int row = focus == kNone ? -1 : m_compareModel->rowOf(focus);
        shown = row < 0 ? QModelIndex() : m_compareProxy->mapFromSource(m_compareModel->index(row, CompareModel::Name));
    } else {
        const int row = focus == kNone ? -1 : m_model->rowOf(focus);
        shown = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, RankModel::Name));
    }
    if (shown.isValid()) {
        view->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        view->scrollTo(shown);
    } else {
        view->selectionModel()->clear();
    }
    m_syncing = false;
}

void RankPanel::updateBanner()
{
    if (isComparing()) {
        const CompareSession* session = m_document->compare();
        m_count->setText(m_compareModel->shown() ? countText(m_compareProxy->rowCount(), m_compareModel->rowCount())
                                                 : QString());
        const Comparison* shown = m_compareModel->shown();
        if (!shown) {
            m_banner->setFullText(tr("Comparing with base %1: computing…").arg(session->baseName().toHtmlEscaped()));
            return;
        }
        using V = Comparison::Verdict;
        const QString text = tr("<b>New</b> (open) vs <b>base</b> %1: <span style='color:%2'>%3 regressed</span>, "
                             "<span style='color:%4'>%5 improved</span>, %6 inconclusive, %7 added, %8 removed")
                              .arg(session->baseName().toHtmlEscaped(), DiffColors::verdictText(V::Regressed).name())
                              .arg(shown->count(V::Regressed))
                              .arg(DiffColors::verdictText(V::Improved).name())
                              .arg(shown->count(V::Improved))
                              .arg(shown->count(V::Inconclusive))
                              .arg(shown->count(V::Added))
                              .arg(shown->count(V::Removed))
                          // The first warning where it is seen: with one new run
                          // against several, no label can be more than inconclusive.
                          + (shown->warnings().empty()
                                 ? QString()
                                 : QStringLiteral(" · ⚠ ") + QString::fromStdString(shown->warnings().front()).toHtmlEscaped());
        QString tip = QString::fromStdString(CompareFormatter::header(*shown));
        for (const std::string& warning : shown->warnings())
            tip += QStringLiteral("\n⚠ ") + QString::fromStdString(warning);
        m_banner->setFullText(text, tip);
        return;
    }
    m_count->setText(m_model->table() ? countText(m_proxy->rowCount(), m_model->rowCount()) : QString());
    if (!m_document->hasProfile()) {
        m_banner->setFullText(QString());
        return;
    }
    // A preview while the file loads, or a load stopped and kept: the
    // numbers are of a part of the file, said before anything else.
    QString part;
    if (const auto& partial = m_document->profile()->partial()) {
        // A tenth of a percent below 10 %: the first preview of a big file
        // comes from less than 1 % of it, which "0 %" would deny.
        const double percent = partial->totalBytes > 0 ? 100.0 * partial->bytesRead / partial->totalBytes : 0;
        const QString share = partial->totalBytes > 0
            ? tr("%1 % of the file").arg(percent < 10 ? QString::number(std::floor(percent * 10) / 10, 'f', 1)
                                                      : QString::number(int(percent)))
            : tr("%1 bytes of the file").arg(partial->bytesRead);
        if (partial->kind == PartialLoad::Kind::Cut)
            part = tr("<b>Cut</b>: from %1 · ").arg(share);
        else if (partial->shortestKept > 0)
            // The shorter boxes are not in the preview: not counted, and
            // their time is in their parents' exec until the load ends.
            part = tr("<b>Partial</b>: boxes of %1 or more, from %2 · ")
                       .arg(QString::fromStdString(ValueFormat::text(partial->shortestKept, m_document->profile()->unit())),
                            share);
        else
            part = tr("<b>Partial</b>: from %1 · ").arg(share);
        // Nor are the tasks a preview leaves out (PreviewSettings::taskBudget).
        if (partial->kind == PartialLoad::Kind::Preview && partial->tasksLeftOut > 0)
            part.insert(part.size() - 3, tr(", without the %1 shortest-lived tasks")
                                             .arg(QLocale(QLocale::English).toString(qulonglong(partial->tasksLeftOut))));
    }
    // A live recording's next version is computed while the table shown
    // stays: the banner keeps saying what that table is, rather than
    // flickering to "computing…" and back each second (and laying out the
    // rich-text label twice a scrape: 0.9 ms of the GUI thread).
    if (m_job.isRunning() && !m_continuing) {
        m_banner->setFullText(part + tr("computing…"));
        return;
    }
    const RankTable* table = m_model->table();
    if (table && table->range()) {
        const ValueUnit unit = m_model->profile()->unit();
        const Time start = m_model->profile()->startTime();
        auto point = [&](Time t) { return QString::fromStdString(ValueFormat::point(t - start, unit)); };
        // semantics.md §5: how a range counts, said where the numbers are.
        // The way back before the explanation: a narrow panel cuts the end.
        m_banner->setFullText(
            part + tr("<b>Range %1 – %2</b> (%3) · <a href='whole'>whole profile</a> · times clipped to it, total includes what "
               "was created before it")
                .arg(point(table->range()->from), point(table->range()->to),
                     QString::fromStdString(ValueFormat::text(table->range()->to - table->range()->from, unit))),
            tr("Exec, total and wall are clipped to the range; total includes the time of what a label "
               "created before the range. Calls, unfinished and the percentiles cover every call alive "
               "in the range, counted as finished if it finished at any time."));
    } else {
        m_banner->setFullText(part + tr("Whole profile (Shift+drag on the timeline for a range)"));
    }
}

QString RankPanel::countText(int shown, int all) const
{
    // A filter says what it hides, with a way out; without one (compare
    // mode's verdicts may hide rows: their box says which) the count.
    const QString filter = m_filter->text();
    const QString labels = all == 1 ? tr("label") : tr("labels");
    if (filter.isEmpty()) {
        return shown == all ? QStringLiteral("%1 %2").arg(all).arg(labels)
                            : tr("%1 of %2 %3").arg(QString::number(shown), QString::number(all), labels);
    }
    return tr("%1 of %2 %3 match '%4' · <a href='clear'>clear</a>")
        .arg(QString::number(shown), QString::number(all), labels, filter.toHtmlEscaped());
}

std::vector<std::size_t> RankPanel::shownRows(bool selectedOnly) const
{
    std::vector<std::size_t> rows;
    const QTableView* view = currentView();
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(view->model());
    const QItemSelectionModel* selection = view->selectionModel();
    const bool onlySelected = selectedOnly && selection->hasSelection();
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex index = proxy->index(r, 0);
        if (!onlySelected || selection->isRowSelected(r, QModelIndex()))
            rows.push_back(std::size_t(proxy->mapToSource(index).row()));
    }
    return rows;
}

bool RankPanel::isComparing() const
{
    return m_document->compare()->isActive();
}

QTableView* RankPanel::currentView() const
{
    return isComparing() ? m_compareView : m_view;
}

int RankPanel::shownRowCount() const
{
    return isComparing() ? m_compareProxy->rowCount() : m_proxy->rowCount();
}

void RankPanel::comparisonChanged()
{
    const CompareSession* session = m_document->compare();
    const bool comparing = session->isActive();
    m_stack->setCurrentWidget(comparing ? m_compareView : m_view);
    m_metricBox->setVisible(comparing);
    m_verdictBox->setVisible(comparing);
    m_syncing = true; // a reset must not move the focus
    if (session->sharedComparison() && m_document->hasProfile())
        m_compareModel->setComparison(session->sharedComparison(), m_document->sharedProfile(), session->match());
    else
        m_compareModel->setComparison(nullptr, nullptr);
    m_syncing = false;
    focusChanged();
    updateBanner();
    Q_EMIT tableShown();
}

void RankPanel::verdictFilterChanged()
{
    using V = Comparison::Verdict;
    static const std::set<V> choices[] = {{},          {V::Regressed, V::Improved}, {V::Regressed}, {V::Improved},
                                          {V::Inconclusive}, {V::Unchanged},        {V::Added},     {V::Removed}};
    const int i = m_verdictBox->currentIndex();
    m_compareProxy->setVerdicts(i >= 0 && i < int(std::size(choices)) ? choices[i] : std::set<V>());
    updateBanner();
}

QString RankPanel::selectedRowsText() const
{
    if (isComparing()) {
        if (!m_compareModel->shown())
            return {};
        return QString::fromStdString(CompareFormatter::csvRows(*m_compareModel->shown(), shownRows(true), '\t'));
    }
    if (!m_model->table())
        return {};
    // Every column the view shows, the scheduling delays included.
    return QString::fromStdString(
        RankFormatter::csvRows(*m_model->profile(), *m_model->table(), shownRows(true), '\t', m_model->delays()));
}

bool RankPanel::exportCsv(const QString& path, QString* error) const
{
    QSaveFile file(path);
    const std::string text = isComparing()
        ? (m_compareModel->shown() ? CompareFormatter::csvRows(*m_compareModel->shown(), shownRows(false)) : std::string())
        : m_model->table()
        ? RankFormatter::csvRows(*m_model->profile(), *m_model->table(), shownRows(false), ',', m_model->delays())
        : std::string();
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void RankPanel::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        currentView()->selectionModel()->clear();
        m_document->setFocusLabel(kNone);
        return;
    }
    QWidget::keyPressEvent(event);
}

void RankPanel::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addActions(actions());
    menu.addAction(tr("Clear the focus"), this, [this] {
        currentView()->selectionModel()->clear();
        m_document->setFocusLabel(kNone);
    });
    menu.exec(event->globalPos());
}

} // namespace runlane
