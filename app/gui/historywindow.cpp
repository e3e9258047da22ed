#include "historywindow.h"

#include "colorscheme.h"
#include "compareformatter.h"
#include "historyformatter.h"
#include "historytrendchart.h"
#include "qstringutf8.h"
#include "searchpattern.h"
#include "valueformat.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace runlane {

HistoryWindow::HistoryWindow(const std::string& location, Hooks hooks, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_hooks(std::move(hooks))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("History — %1").arg(qs(location.empty() ? HistoryDatabase::defaultLocation() : location)));
    resize(1100, 750); // placeWithin() fits it to the screen
    m_open = m_db.open(location);
    m_error = m_db.error();
    m_store = std::make_unique<HistoryStore>(m_db);

    m_workloads = new QComboBox(this);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter labels: text or /regex/"));
    m_filter->setClearButtonEnabled(true);
    m_labels = new QListWidget(this);
    m_labels->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_metrics = new QComboBox(this);
    for (const CompareMetric m : CompareMetrics::all())
        m_metrics->addItem(QString::fromLatin1(CompareMetrics::name(m).data()), int(m));
    m_metrics->setCurrentIndex(int(CompareMetric::Exec));
    auto* xAxis = new QComboBox(this);
    xAxis->addItems({tr("by run"), tr("by time")});
    auto* png = new QPushButton(tr("Export PNG…"), this);
    auto* csv = new QPushButton(tr("Export CSV…"), this);
    m_compare = new QPushButton(tr("Compare with the run before"), this);
    m_compare->setEnabled(false);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Workload"), this));
    controls->addWidget(m_workloads);
    controls->addStretch(1);
    controls->addWidget(new QLabel(tr("Metric"), this));
    controls->addWidget(m_metrics);
    controls->addWidget(xAxis);
    controls->addWidget(m_compare);
    controls->addWidget(png);
    controls->addWidget(csv);

    m_chart = new HistoryTrendChart(this);
    m_table = new QTableWidget(0, 7, this);
    m_table->setHorizontalHeaderLabels(
        {tr("run"), tr("recorded (UTC)"), tr("commit"), tr("branch"), tr("value"), tr("check"), tr("profile")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    auto* labelsAndChart = new QSplitter(Qt::Horizontal, this);
    auto* labelsPane = new QWidget(this);
    auto* labelsLayout = new QVBoxLayout(labelsPane);
    labelsLayout->setContentsMargins(0, 0, 0, 0);
    labelsLayout->addWidget(m_filter);
    labelsLayout->addWidget(m_labels, 1);
    labelsAndChart->addWidget(labelsPane);
    labelsAndChart->addWidget(m_chart);
    labelsAndChart->setStretchFactor(1, 1);
    labelsAndChart->setSizes({220, 880});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(labelsAndChart);
    split->addWidget(m_table);
    // The chart first: the table is for looking a run up.
    m_chart->setMinimumHeight(320);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({450, 250});
    m_note = new QLabel(this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(split, 1);
    layout->addWidget(m_note);

    connect(m_workloads, &QComboBox::currentIndexChanged, this, &HistoryWindow::fillLabels);
    connect(m_labels, &QListWidget::itemSelectionChanged, this, &HistoryWindow::showTrend);
    connect(m_filter, &QLineEdit::textChanged, this, &HistoryWindow::filterLabels);
    connect(m_metrics, &QComboBox::currentIndexChanged, this, &HistoryWindow::showTrend);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { openRun(row); });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) { m_compare->setEnabled(row > 0); });
    connect(m_compare, &QPushButton::clicked, this, &HistoryWindow::compareRun);
    connect(xAxis, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_chart->setXAxis(index == 1 ? HistoryTrendChart::XAxis::Time : HistoryTrendChart::XAxis::RunOrder);
    });
    connect(png, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export trend chart"), QString(), tr("PNG (*.png)"));
        if (!path.isEmpty() && !m_chart->savePng(path))
            QMessageBox::warning(this, tr("Export"), tr("Cannot write %1").arg(path));
    });
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export series"), QString(), tr("CSV (*.csv)"));
        if (!path.isEmpty() && !saveCsv(path))
            QMessageBox::warning(this, tr("Export"), tr("Cannot write %1").arg(path));
    });

    std::vector<std::string> workloads;
    if (!m_open || !m_store->workloads(workloads)) {
        m_error = m_db.error();
        m_note->setText(qs(m_error));
        return;
    }
    for (const std::string& w : workloads)
        m_workloads->addItem(qs(w));
    if (workloads.empty())
        m_note->setText(tr("No runs recorded yet (runlane-cli history record)."));
}

HistoryWindow::~HistoryWindow() = default;

void HistoryWindow::fillLabels()
{
    std::vector<std::string> names;
    m_labels->blockSignals(true);
    m_labels->clear();
    // Heaviest first by exec, the rank's default order, so that the top
    // label is at the top and not lost among hundreds by name.
    if (m_store->labelNamesByWeight(m_workloads->currentText().toStdString(), CompareMetric::Exec, names)) {
        for (const std::string& n : names)
            m_labels->addItem(qs(n));
    } else {
        m_note->setText(qs(m_db.error()));
    }
    // The label focused in the viewer, if the workload has it; else the top one.
    int start = 0;
    if (const QString focused = m_hooks.focusedLabel ? m_hooks.focusedLabel() : QString(); !focused.isEmpty()) {
        const QList<QListWidgetItem*> found = m_labels->findItems(focused, Qt::MatchExactly);
        if (!found.isEmpty())
            start = m_labels->row(found.front());
    }
    if (m_labels->count() > 0)
        m_labels->setCurrentRow(start);
    filterLabels();
    m_labels->blockSignals(false);
    if (m_labels->currentItem())
        m_labels->scrollToItem(m_labels->currentItem(), QAbstractItemView::PositionAtCenter);
    showTrend();
}

void HistoryWindow::filterLabels()
{
    const SearchPattern pattern(m_filter->text());
    m_filter->setStyleSheet(pattern.isValid() ? QString()
                                              : QStringLiteral("QLineEdit { color: %1; }").arg(ColorScheme::errorText().name()));
    // A pattern being typed is often invalid for a moment: the list stays
    // as the last good one left it.
    if (!pattern.isValid())
        return;
    QListWidgetItem* firstShown = nullptr;
    for (int row = 0; row < m_labels->count(); ++row) {
        QListWidgetItem* item = m_labels->item(row);
        item->setHidden(!pattern.matches(item->text()));
        if (!firstShown && !item->isHidden())
            firstShown = item;
    }
    // The chart follows the filter to its first label, as the list shows it.
    if (firstShown && (!m_labels->currentItem() || m_labels->currentItem()->isHidden()))
        m_labels->setCurrentItem(firstShown);
}

std::vector<HistoryStore::Point> HistoryWindow::pointsOf(const QString& label, CompareMetric metric)
{
    std::vector<HistoryStore::Point> all;
    if (!m_store->series(m_workloads->currentText().toStdString(), label.toStdString(), metric, 0, all)) {
        m_note->setText(qs(m_db.error()));
        return {};
    }
    // Several labels of one name (other files or lines): the first one's.
    std::vector<HistoryStore::Point> points;
    const LabelKey shown = all.empty() ? LabelKey{} : all.front().key;
    for (HistoryStore::Point& p : all) {
        if (p.key == shown)
            points.push_back(std::move(p));
    }
    return points;
}

void HistoryWindow::showTrend()
{
    const auto metric = CompareMetric(m_metrics->currentData().toInt());
    // The current label first, then the other selected ones in list order.
    QStringList chosen;
    if (m_labels->currentItem())
        chosen << m_labels->currentItem()->text();
    for (int row = 0; row < m_labels->count(); ++row) {
        const QListWidgetItem* item = m_labels->item(row);
        if (item->isSelected() && !chosen.contains(item->text()))
            chosen << item->text();
    }
    m_points = chosen.isEmpty() ? std::vector<HistoryStore::Point>() : pointsOf(chosen.front(), metric);
    std::vector<HistoryTrendChart::Labelled> trends;
    for (const QString& label : chosen) {
        const std::vector<HistoryStore::Point> points = trends.empty() ? m_points : pointsOf(label, metric);
        if (!points.empty())
            trends.push_back({qs(CompareFormatter::labelText(points.front().key)), HistoryTrend::compute(points)});
    }
    const QString unit = m_points.empty() ? QStringLiteral("ns") : qs(m_points.front().run.unit);
    QStringList names;
    for (const HistoryTrendChart::Labelled& t : trends)
        names << t.label;
    m_chart->setTrends(trends, tr("%1 — %2").arg(names.join(QStringLiteral(", ")), m_metrics->currentText()), unit);
    const HistoryTrend& trend = m_chart->trend();
    m_table->setRowCount(int(trend.points().size()));
    for (std::size_t i = 0; i < trend.points().size(); ++i) {
        const HistoryTrend::Point& p = trend.points()[i];
        const QString check = p.hasWindow ? tr("%1 (±%2 %)")
                                                .arg(QString::fromLatin1(Comparison::name(p.verdict).data()))
                                                .arg(p.threshold * 100, 0, 'f', 2)
                                          : QString::fromLatin1(Comparison::name(p.verdict).data());
        const QString cells[] = {QString::number(p.run.id),
                                 qs(p.run.recordedAt),
                                 qs(p.run.commit).left(12),
                                 qs(p.run.branch),
                                 qs(ValueFormat::text(Time(std::llround(p.value)), ValueFormat::unitOfKey(p.run.unit))),
                                 check,
                                 qs(p.run.sourcePath)};
        for (int c = 0; c < 7; ++c)
            m_table->setItem(int(i), c, new QTableWidgetItem(cells[c]));
    }
    m_table->resizeColumnsToContents();
    m_note->setText(tr("%1 runs, %2 regressed, %3 improved (against the 30 runs before each)")
                        .arg(trend.points().size())
                        .arg(trend.count(Comparison::Verdict::Regressed))
                        .arg(trend.count(Comparison::Verdict::Improved)));
}

QString HistoryWindow::profileOf(std::size_t row)
{
    const HistoryRun& run = m_points[row].run;
    const QString path = qs(run.sourcePath);
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        QMessageBox::information(this, tr("Open run"), tr("The profile of run %1 is no longer at %2.").arg(run.id).arg(path));
        return {};
    }
    return path;
}

void HistoryWindow::openRun(int row)
{
    if (row < 0 || std::size_t(row) >= m_points.size())
        return;
    // Compare mode would keep its base, a later run's predecessor for an
    // older run: a run is compared with its own. The first has none, and
    // opens alone.
    if (row > 0 && m_hooks.comparing && m_hooks.comparing()) {
        compareRow(row);
        return;
    }
    if (const QString path = profileOf(std::size_t(row)); !path.isEmpty())
        m_hooks.open(path);
}

void HistoryWindow::compareRun()
{
    compareRow(m_table->currentRow());
}

void HistoryWindow::compareRow(int row)
{
    if (row < 1 || std::size_t(row) >= m_points.size())
        return;
    const QString path = profileOf(std::size_t(row));
    const QString base = path.isEmpty() ? QString() : profileOf(std::size_t(row) - 1);
    if (!base.isEmpty())
        m_hooks.compare(path, base);
}

QRect HistoryWindow::placement(QSize wanted, const QRect& available, const QRect& over)
{
    // The frame is unknown before the window is shown: room for a usual
    // border and title bar, so that both stay on the screen.
    constexpr int kBorder = 8;
    constexpr int kTitle = 32;
    const QRect room = available.adjusted(kBorder, kTitle, -kBorder, -kBorder);
    QRect placed(QPoint(), wanted.boundedTo(room.size()));
    placed.moveCenter(over.isValid() ? over.center() : room.center());
    placed.moveLeft(std::clamp(placed.left(), room.left(), room.right() + 1 - placed.width()));
    placed.moveTop(std::clamp(placed.top(), room.top(), room.bottom() + 1 - placed.height()));
    return placed;
}

void HistoryWindow::placeWithin(const QRect& available, const QRect& over)
{
    setGeometry(placement(size(), available, over));
}

void HistoryWindow::keyPressEvent(QKeyEvent* event)
{
    // As a dialog: Esc closes the window when the widget with the focus
    // has no use for it.
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool HistoryWindow::saveCsv(const QString& path) const
{
    QFile file(path);
    const auto metric = CompareMetric(m_metrics->currentData().toInt());
    const QByteArray text = QByteArray::fromStdString(HistoryFormatter::seriesCsv(m_points, metric));
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

} // namespace runlane
