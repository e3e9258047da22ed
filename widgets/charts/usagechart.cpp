#include "usagechart.h"

#include "colorscheme.h"
#include "linelabel.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "timeformat.h"
#include "trackexecindex.h"
#include "usagebands.h"
#include "usagechartview.h"
#include "valueformat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>
#include <mutex>
#include <cmath>
#include <numeric>

namespace runlane {

// The exec index of the track shown, built by the first computation that
// needs it (on the worker) and kept for the zooms that follow. Jobs run one
// at a time; the lock only makes that an invariant rather than a promise.
struct UsageChart::IndexCache {
    std::mutex lock;
    const Profile* profile = nullptr;
    std::unique_ptr<const TrackExecIndex> index;

    const TrackExecIndex& get(const Profile& p, TrackId track)
    {
        std::lock_guard<std::mutex> guard(lock);
        if (profile != &p || !index || index->track() != track) {
            index.reset(); // one index at a time: the old one's memory first
            index = std::make_unique<const TrackExecIndex>(p, track);
            profile = &p;
        }
        return *index;
    }
};

UsageChart::UsageChart(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_axis(document->axis()), m_view(new UsageChartView(this, m_axis, this)),
      m_trackBox(new QComboBox(this)), m_binBox(new QComboBox(this)), m_topBox(new QSpinBox(this)),
      m_note(new LineLabel(this)), m_debounce(new QTimer(this)), m_stretch(new QTimer(this)),
      m_bands(new UsageBands(m_view->chart())),
      m_job(this, [this](ProfileResult<UsageSeries> result) { computed(std::move(result)); })
{
    // The bands fill the plot area, wherever the view lays it out.
    m_bands->setPlotArea(m_view->chart()->plotArea());
    connect(m_view->chart(), &QChart::plotAreaChanged, this, [this](const QRectF& area) { m_bands->setPlotArea(area); });
    setMinimumHeight(kHeaderHeight + 70);
    auto* title = new QLabel(tr("<b>Event-loop usage</b>"), this);
    m_binBox->addItem(tr("auto"), QVariant::fromValue<qint64>(0));
    for (const Time w : {Time(10'000), Time(100'000), Time(1'000'000), Time(10'000'000), Time(100'000'000),
                         Time(1'000'000'000), Time(10'000'000'000)})
        m_binBox->addItem(QString::fromStdString(TimeFormat::duration(w)).replace(QStringLiteral(".00"), QString()),
                          QVariant::fromValue<qint64>(w));
    m_topBox->setRange(1, 20);
    m_topBox->setValue(m_topK);
    m_topBox->setPrefix(tr("top "));
    m_trackBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_note->setForegroundRole(QPalette::PlaceholderText); // follows the theme, as a style sheet would not
    auto* header = new QHBoxLayout;
    header->setContentsMargins(8, 2, 8, 2);
    header->setSpacing(8);
    header->addWidget(title);
    header->addWidget(m_trackBox);
    header->addWidget(new QLabel(tr("bins"), this));
    header->addWidget(m_binBox);
    header->addWidget(m_topBox);
    header->addWidget(m_note, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(0);
    connect(m_debounce, &QTimer::timeout, this, &UsageChart::recompute);
    m_stretch->setSingleShot(true);
    m_stretch->setInterval(30);
    connect(m_stretch, &QTimer::timeout, this, &UsageChart::updateRange);
    connect(m_trackBox, &QComboBox::activated, this, [this](int index) { setTrack(TrackId(m_trackBox->itemData(index).toUInt())); });
    connect(m_binBox, &QComboBox::activated, this, [this](int index) { setBinWidth(m_binBox->itemData(index).toLongLong()); });
    connect(m_topBox, &QSpinBox::valueChanged, this, &UsageChart::setTopK);
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &UsageChart::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &UsageChart::profileChanged);
    connect(m_document, &ProfileDocument::viewModeChanged, this, &UsageChart::recompute);
    connect(m_document, &ProfileDocument::emphasisChanged, this, &UsageChart::rebuildChart);
    connect(m_document, &ProfileDocument::colorsChanged, this, &UsageChart::rebuildChart);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, [this] {
        // A live recording's next version, followed: the visible range
        // slides to it right after it is shown (profileChanged), and its
        // bins are the ones computed now.
        const bool newVersion = m_continuationQueued;
        // At once, not on a timer: the worker computes while this thread
        // paints the other views, and one job at a time (m_pending)
        // coalesces a burst of range changes.
        recompute();
        // The old bins are stretched to the new range only if the new
        // ones are late: the new bins, due in a few ms, would paint the
        // chart again. (When the bands were Qt Charts area series, each
        // stretch also re-laid out and stroked every band: 3 to 4 ms a
        // zoom at 1 M events.) Never for a followed new version:
        // stretched, the old bins would move by a pixel or two (a second
        // of a 5-minute window), a paint for nothing once a second.
        if (!newVersion)
            m_stretch->start();
    });
    profileChanged();
}

UsageChart::~UsageChart() = default;

const UsageSeries* UsageChart::series() const
{
    return m_document->isCurrent(m_shown.profile) ? m_shown.value.get() : nullptr;
}

int UsageChart::plotWidth() const
{
    return std::max(1, m_view->plotWidth());
}

void UsageChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_view->layoutPlot();
    updateYTicks(); // as many labels as the height holds
    scheduleRecompute(); // the bin budget follows the width
}

void UsageChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuildChart(); // the axis and the "other" band take the theme's colours
}

void UsageChart::dropProfile()
{
    m_debounce->stop();
    m_stretch->stop();
    m_job.drop();
    m_pending = false;
    // A job under way keeps its own reference; the next profile gets a new cache.
    m_indexCache.reset();
    // The same source's next version (a load's preview every second):
    // the loop chosen and the bands hidden are found again by name.
    const Profile* old = m_document->profile();
    m_keptHidden.clear();
    if (old && m_document->isRefinement() && !m_document->isContinuation()) {
        for (const LabelId label : m_hidden)
            m_keptHidden.push_back(RunSet::keyOf(*old, label, RunSet::Match::NameFileLine));
    } else if (!m_document->isRefinement()) {
        m_chosenTrack.clear();
    }
    m_tracks.clear();
    m_trackBox->clear();
    // A live recording's next version: the bands shown stay until the new
    // series replaces them (no blank chart once a second), and the hidden
    // labels mean the same there.
    if (m_document->isContinuation())
        return;
    m_shown = {};
    m_hidden.clear();
    rebuildChart();
}

void UsageChart::profileChanged()
{
    // profileAboutToChange already dropped the old profile's state (and
    // the constructor starts empty): no second rebuild here.
    if (const Profile* p = m_document->profile()) {
        if (p->measurementCount() == 0 && p->snapshotsAreTimed()) {
            m_tracks.push_back(0); // metric snapshots: one loop
            m_trackBox->addItem(tr("metrics"), 0u);
        } else {
            // Event loops and threads with intervals, busiest first; a
            // worker pool (tokio's runtime) is one loop of several workers.
            const auto& overview = m_document->loaded().overview;
            for (TrackId t = 0; t < p->trackCount(); ++t) {
                const Track& track = p->track(t);
                if ((track.kind != TrackKind::Async || track.workerPool) && track.depthCount() > 0)
                    m_tracks.push_back(t);
            }
            auto busy = [&](TrackId t) { return std::accumulate(overview[t].begin(), overview[t].end(), 0.0); };
            std::stable_sort(m_tracks.begin(), m_tracks.end(), [&](TrackId a, TrackId b) { return busy(a) > busy(b); });
            for (const TrackId t : m_tracks)
                m_trackBox->addItem(qs(p->string(p->track(t).name)), t);
        }
    }
    m_track = m_tracks.empty() ? 0 : m_tracks.front();
    if (const Profile* p = m_document->profile(); p && !m_chosenTrack.empty()) {
        const auto chosen = std::find_if(m_tracks.begin(), m_tracks.end(),
                                         [&](TrackId t) { return t < p->trackCount() && p->string(p->track(t).name) == m_chosenTrack; });
        if (chosen != m_tracks.end()) {
            m_track = *chosen;
            m_trackBox->setCurrentIndex(int(chosen - m_tracks.begin()));
        }
    }
    if (const Profile* p = m_document->profile()) {
        for (const LabelKey& key : std::exchange(m_keptHidden, {})) {
            if (const std::vector<LabelId> same = RunSet::labelsOf(*p, key, RunSet::Match::NameFileLine); !same.empty())
                m_hidden.insert(same.front());
        }
    }
    m_trackBox->setVisible(m_tracks.size() > 1);
    if (!m_document->isContinuation()) {
        rebuildChart();
        recompute();
        return;
    }
    // A live recording's next version: following slides the visible range
    // right after this, which recomputes; computing here too would bin the
    // old range first (two scans of the followed span per snapshot). Not
    // following, nothing else asks: the queued one runs.
    m_continuationQueued = true;
    QTimer::singleShot(0, this, [this] {
        if (std::exchange(m_continuationQueued, false))
            recompute();
    });
}

void UsageChart::setTrack(TrackId track)
{
    // Only the tracks offered (threads and loops with intervals): another
    // id may not exist in this profile, or have nothing to bin.
    if (track == m_track || std::find(m_tracks.begin(), m_tracks.end(), track) == m_tracks.end())
        return;
    m_track = track;
    m_hidden.clear();
    if (const Profile* p = m_document->profile(); p && track < p->trackCount())
        m_chosenTrack = p->string(p->track(track).name);
    const int index = m_trackBox->findData(track);
    if (index >= 0)
        m_trackBox->setCurrentIndex(index);
    recompute();
}

QString UsageChart::trackName() const
{
    return m_trackBox->currentText();
}

QString UsageChart::binsNote() const
{
    return m_note->text();
}

void UsageChart::setBinWidth(Time width)
{
    if (width == m_binWidth)
        return;
    m_binWidth = std::max<Time>(0, width);
    const int index = m_binBox->findData(QVariant::fromValue<qint64>(m_binWidth));
    if (index >= 0)
        m_binBox->setCurrentIndex(index);
    recompute();
}

void UsageChart::setTopK(int k)
{
    k = std::clamp(k, 1, 20);
    if (k == m_topK)
        return;
    m_topK = k;
    m_topBox->setValue(k);
    recompute();
}

void UsageChart::setHidden(LabelId label, bool hidden)
{
    if (hidden)
        m_hidden.insert(label);
    else
        m_hidden.erase(label);
    rebuildChart(); // the stack without it; no recompute
}

Time UsageChart::effectiveBinWidth(Time span) const
{
    // At most one bin per pixel column: the chart's cost does not grow with
    // the zoom or the profile.
    const Time budget = plotWidth();
    if (m_binWidth == 0)
        return TimeFormat::niceStep(double(span) * 3 / double(budget)); // in doubles: 3 × a span may pass 2^63
    const Time bins = span / m_binWidth + 1;
    return bins <= budget ? m_binWidth : m_binWidth * ((bins + budget - 1) / budget);
}

void UsageChart::scheduleRecompute()
{
    m_debounce->start();
}

void UsageChart::recompute()
{
    m_debounce->stop();
    m_continuationQueued = false;
    if (m_job.isRunning()) {
        // One at a time: a zoom does not pile up computations.
        m_pending = true;
        return;
    }
    const Profile* p = m_document->profile();
    if (!p || m_document->isAggregated() || m_tracks.empty()) {
        m_shown = {};
        rebuildChart();
        return;
    }
    const Time width = effectiveBinWidth(m_axis->visibleSpan());
    // Bins on a grid from the profile's start, so that panning keeps them;
    // what is counted is the range shown, so that the legend's means are
    // of the view, whatever the bins (an edge bin's shares are of its part
    // in view).
    const Time from = m_axis->visibleStart();
    const TimeRange range{from, std::max(addClamped(from, 1), m_axis->visibleEnd())};
    const TrackId track = m_track;
    const std::size_t k = std::size_t(m_topK);
    if (!m_indexCache)
        m_indexCache = std::make_shared<IndexCache>();
    ++m_computations;
    // The labels shown are likely the top k again (a zoom, a live
    // recording's next version, whose ids are the previous one's): the
    // spans are then read once. Another profile's ids only cost that.
    std::vector<LabelId> likely;
    if (m_shown.value && m_shown.value->track() == track)
        likely = m_shown.value->labels();
    m_job.start(m_document->sharedProfile(), [cache = m_indexCache, track, width, k, range, likely = std::move(likely)](const Profile& profile) {
        return std::make_shared<const UsageSeries>(
            UsageSeries::compute(profile, cache->get(profile, track), width, k, range, likely, profile.startTime()));
    });
    // In the profile's unit: samples, or plain units, are no nanoseconds.
    const ValueUnit unit = p->unit();
    auto value = [unit](Time t) { return QString::fromStdString(ValueFormat::text(t, unit)); };
    QString note = m_binWidth != 0 && width != m_binWidth
        ? tr("bins of %1 (%2 merged ×%3 to fit the width)").arg(value(width), value(m_binWidth)).arg(width / m_binWidth)
        : tr("bins of %1").arg(value(width));
    // Several workers poll at once: 100 % is one worker busy.
    if (track < p->trackCount() && p->track(track).workerPool)
        note += tr(" · shares in worker-equivalents (can exceed 100 %)");
    m_note->setText(note);
}

void UsageChart::finishPendingWork()
{
    // Whatever runs is for older settings: let it end, then compute for
    // the current ones and wait for that.
    m_debounce->stop();
    m_job.finish();
    m_pending = false;
    recompute();
    m_job.finish();
}

void UsageChart::computed(ProfileResult<UsageSeries> result)
{
    // Computed for another profile (a switch raced it): never shown.
    if (!m_document->isCurrent(result.profile) || m_document->isAggregated())
        return;
    if (result.value) {
        m_shown = std::move(result);
        rebuildChart();
        Q_EMIT seriesShown();
    }
    if (std::exchange(m_pending, false))
        recompute();
}

LabelId UsageChart::labelOf(const UsageSeries& series, std::size_t k)
{
    return k < series.labels().size() ? series.labels()[k] : kNone;
}

QString UsageChart::nameOf(const Profile& profile, LabelId label)
{
    return label == kNone ? tr("other") : qs(profile.labelName(label));
}

QColor UsageChart::colorOf(LabelId label) const
{
    return label == kNone ? ColorScheme::other() : QColor::fromRgb(m_document->colorOf(label, 0));
}

double UsageChart::yMaximum() const
{
    return m_yMax;
}

double UsageChart::yStep() const
{
    // Round shares, as many as the plot's height holds a label apart:
    // 25 %, else 50 %, 100 %, 250 %, … A tick count instead splits
    // [0, max] evenly (issue 39: "62 %" as the one label of a max of 125 %).
    const double rows = std::max(1.0, m_view->chart()->plotArea().height() / kYLabelGap);
    for (double scale = 1;; scale *= 10) {
        for (const double round : {25.0, 50.0, 100.0}) {
            if (const double step = round * scale; m_yMax / step <= rows || step >= m_yMax)
                return step;
        }
    }
}

void UsageChart::updateYTicks()
{
    if (!m_yAxis)
        return;
    const double step = yStep();
    if (m_yAxis->tickType() != QValueAxis::TicksDynamic) {
        m_yAxis->setTickType(QValueAxis::TicksDynamic);
        m_yAxis->setTickAnchor(0);
    }
    if (m_yAxis->tickInterval() != step)
        m_yAxis->setTickInterval(step);
}

void UsageChart::clearBands()
{
    // The y axis stays, hidden, for the next bands.
    m_bands->clear();
    if (m_yAxis)
        m_yAxis->setVisible(false);
}

void UsageChart::rebuildChart()
{
    m_yMax = 100;
    if (!m_document->hasProfile()) {
        clearBands();
        m_view->setMessage(QString());
        return;
    }
    if (m_document->isAggregated()) {
        clearBands();
        m_view->setMessage(m_document->profile()->hasTimestamps()
                               ? tr("Event-loop usage needs the timeline: turn off View ▸ Aggregated flame graph (Ctrl+G)")
                               : tr("Event-loop usage needs a timeline: this file has no timestamps"));
        return;
    }
    if (m_tracks.empty()) {
        clearBands();
        m_view->setMessage(tr("No event loop or thread with intervals in this profile"));
        return;
    }
    const UsageSeries* shown = series();
    // A live recording's previous version (only a continuation keeps
    // m_shown): its bands stay until the next version's series arrives,
    // instead of being removed and made again at each snapshot.
    if (!shown && m_shown.value && !m_bands->bands().empty())
        return;
    if (!shown || shown->binCount() == 0) {
        clearBands();
        m_view->setMessage(m_job.isRunning() ? tr("computing…") : QString());
        return;
    }
    m_view->setMessage(QString());
    QChart* chart = m_view->chart();
    if (!m_yAxis) {
        // Made once: the axis outlives every series shown (building series
        // and axes anew each time cost 12 to 26 ms of the GUI thread per
        // zoom on a 1 M event trace). No x axis: the ruler above says where
        // we are, and a QValueAxis lays out its hidden labels as rich text
        // at every range change (0.6 ms a scrape of a followed recording).
        m_yAxis = new QValueAxis(chart);
        chart->addAxis(m_yAxis, Qt::AlignLeft);
        m_yAxis->setLabelFormat(QStringLiteral("%d %%"));
        m_yAxis->setGridLineVisible(false);
        m_yAxis->setLineVisible(false);
    }
    m_yAxis->setVisible(true);
    const Profile* p = m_shown.profile.get(); // the series' own profile, which series() checked is open
    const UsageSeries& s = *shown;
    const std::size_t series = s.seriesCount();
    const std::size_t bins = s.binCount();
    // The bands' tops, stacked: largest series at the bottom, "other" on
    // top; a hidden series adds nothing to the stack.
    m_stretch->stop();
    std::vector<UsageBands::Band> bands(series);
    std::vector<double> stack(bins, 0.0);
    for (std::size_t k = 0; k < series; ++k) {
        const LabelId label = labelOf(s, k);
        UsageBands::Band& band = bands[k];
        band.visible = !isHidden(label);
        band.name = nameOf(*p, label);
        band.color = colorOf(label);
        band.tops.resize(bins);
        for (std::size_t b = 0; b < bins; ++b) {
            stack[b] += band.visible ? 100.0 * s.share(b, k) : 0.0;
            band.tops[b] = stack[b];
        }
    }
    // Up in steps of 25 %; a stack that passes 100 % only by rounding
    // (a sampled thread's bins, 100.0000000001 %) does not raise it to 125.
    for (const double top : stack)
        m_yMax = std::max(m_yMax, std::ceil(top / 25.0 - 1e-9) * 25.0);
    if (m_yAxis->max() != m_yMax || m_yAxis->min() != 0)
        m_yAxis->setRange(0, m_yMax);
    updateYTicks();
    // The chart's own theme is light: its labels and line take ours.
    if (m_yAxis->labelsBrush().color() != ColorScheme::mutedText())
        m_yAxis->setLabelsBrush(ColorScheme::mutedText());
    m_bands->setBaselineColor(ColorScheme::mark());
    // x is time from the profile's start: exact in a double where absolute
    // (epoch) nanoseconds would not be. The bins are drawn over what they
    // count: a last bin past the profile's end stops at it.
    m_bands->setBands(std::move(bands), double(s.start() - p->startTime()), double(s.binWidth()),
                      double(s.counted().from - p->startTime()), double(s.counted().to - p->startTime()));
    updateRange();
    m_view->viewport()->update();
}

bool UsageChart::isStretchPending() const
{
    return m_stretch->isActive();
}

void UsageChart::updateRange()
{
    const Time start = m_document->hasProfile() ? m_document->profile()->startTime() : 0;
    const double xMin = double(m_axis->visibleStart() - start);
    const double xMax = double(m_axis->visibleEnd() - start);
    m_bands->setRange(xMin, xMax, m_yMax);
}

std::vector<UsageChart::LegendEntry> UsageChart::legend() const
{
    std::vector<LegendEntry> entries;
    const UsageSeries* shown = series();
    if (!shown || shown->binCount() == 0)
        return entries;
    const UsageSeries& s = *shown;
    const Profile& p = *m_shown.profile;
    for (std::size_t k = 0; k < s.seriesCount(); ++k) {
        const LabelId label = labelOf(s, k);
        // Its exec in view / the view's time inside the profile, not the
        // mean of the bins: a last bin mostly past the profile's end would
        // count as a whole one (issue 39).
        entries.push_back(LegendEntry{label, nameOf(p, label), colorOf(label), s.meanShare(k), isHidden(label)});
    }
    return entries;
}

LabelId UsageChart::labelAt(QPoint pos) const
{
    const UsageSeries* shown = this->series();
    const std::size_t series = shown ? shown->seriesCount() : 0;
    const QRectF plot = m_view->chart()->plotArea();
    if (series == 0 || !plot.contains(pos))
        return kNone;
    const UsageSeries& s = *shown;
    const Time t = m_axis->timeAt(pos.x() - plot.left(), plot.width());
    if (t < s.start())
        return kNone;
    const std::size_t bin = std::size_t((t - s.start()) / s.binWidth());
    if (bin >= s.binCount())
        return kNone;
    const double value = (plot.bottom() - pos.y()) / plot.height() * m_yMax;
    double lower = 0;
    for (std::size_t k = 0; k < series; ++k) {
        const LabelId label = labelOf(s, k);
        if (isHidden(label))
            continue;
        const double upper = lower + 100.0 * s.share(bin, k);
        if (value >= lower && value < upper)
            return label;
        lower = upper;
    }
    return kNone;
}

void UsageChart::focusLabelAt(QPoint pos)
{
    m_document->setFocusLabel(labelAt(pos));
}

QString UsageChart::describeAt(QPoint pos) const
{
    const QRectF plot = m_view->chart()->plotArea();
    const UsageSeries* shown = series();
    if (!shown || shown->binCount() == 0 || !plot.contains(pos))
        return {};
    const UsageSeries& s = *shown;
    const Profile& p = *m_shown.profile;
    const Time t = m_axis->timeAt(pos.x() - plot.left(), plot.width());
    if (t < s.start() || std::size_t((t - s.start()) / s.binWidth()) >= s.binCount())
        return {};
    const std::size_t bin = std::size_t((t - s.start()) / s.binWidth());
    // The part of the bin its shares are of (cut at the profile's end and
    // at the view's edges).
    const TimeRange part = s.binPart(bin);
    if (part.to <= part.from)
        return {};
    const ValueUnit unit = p.unit();
    auto point = [&](Time v) { return QString::fromStdString(ValueFormat::point(v - p.startTime(), unit)); };
    QString text = tr("[%1, %2): busy %3 %").arg(point(part.from), point(part.to)).arg(100.0 * s.busy(bin), 0, 'f', 1);
    for (std::size_t k = 0; k < s.seriesCount(); ++k) {
        const double share = s.share(bin, k);
        if (share <= 0)
            continue;
        const QString name = nameOf(p, labelOf(s, k));
        text += QStringLiteral("\n%1 %  %2").arg(100.0 * share, 5, 'f', 1).arg(name);
    }
    return text;
}

} // namespace runlane

