#include "compareusagechart.h"

#include "comparesession.h"
#include "diffcolors.h"
#include "colorscheme.h"
#include "profiledocument.h"
#include "usageseries.h"

#include "timeformat.h"
#include "timeruler.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

// The share of each bin that the comparison's label `key` took on the
// track where it ran the longest (semantics.md §6), its ids' series added.
// The smallest of 1, 2, 2.5, 5 × 10^k % that splits [0, top] in at most
// five steps: labels at round shares.
double shareStep(double top)
{
    for (double scale = 1;; scale *= 10) {
        for (const double round : {1.0, 2.0, 2.5, 5.0}) {
            if (top / (round * scale) <= 5 + 1e-9)
                return round * scale;
        }
    }
}

std::vector<double> usageOf(const Profile& profile, const LabelKey& key, RunSet::Match match, Time binWidth)
{
    const std::vector<LabelId> labels = RunSet::labelsOf(profile, key, match);
    TrackId track = UsageSeries::busiestTrack(profile, labels);
    // Chroprof snapshots have no timeline: their usage is of no track.
    if (track == kNone && profile.measurementCount() == 0 && profile.snapshotsAreTimed())
        track = 0;
    if (track == kNone)
        return {};
    const UsageSeries series = UsageSeries::compute(profile, track, binWidth, labels);
    std::vector<double> shares(series.binCount(), 0.0);
    for (std::size_t b = 0; b < series.binCount(); ++b) {
        for (std::size_t k = 0; k < labels.size(); ++k)
            shares[b] += series.share(b, k);
    }
    return shares;
}

} // namespace

CompareUsageChart::CompareUsageChart(ProfileDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_baseLine(new QLineSeries), m_newLine(new QLineSeries), m_xAxis(new QCategoryAxis), m_yAxis(new QValueAxis),
      m_note(new QLabel(this)), m_message(new QLabel(this)),
      m_job(this, [this](ProfileResult<Series> result) { computed(std::move(result)); })
{
    m_chart->addSeries(m_baseLine);
    m_chart->addSeries(m_newLine);
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    for (QLineSeries* line : {m_baseLine, m_newLine}) {
        line->attachAxis(m_xAxis);
        line->attachAxis(m_yAxis);
    }
    m_xAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_xAxis->setTitleText(tr("time from each profile's start"));
    m_yAxis->setLabelFormat(QStringLiteral("%.0f %"));
    m_yAxis->setTickType(QValueAxis::TicksDynamic);
    m_yAxis->setTickAnchor(0);
    m_yAxis->setTickInterval(25);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(6, 4, 6, 0);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setContentsMargins(24, 0, 24, 0);
    m_message->setForegroundRole(QPalette::PlaceholderText); // follows the theme
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_note);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message, 1);
    connect(document, &ProfileDocument::profileAboutToChange, this, &CompareUsageChart::drop);
    connect(document, &ProfileDocument::emphasisChanged, this, &CompareUsageChart::recompute);
    connect(document->compare(), &CompareSession::baseChanged, this, &CompareUsageChart::recompute);
    recompute();
}

CompareUsageChart::~CompareUsageChart() = default;

void CompareUsageChart::drop()
{
    m_asked = {};
    m_job.drop();
    m_shown = {};
    m_baseLine->clear();
    m_newLine->clear();
    showMessage(idleMessage());
}

QString CompareUsageChart::idleMessage() const
{
    const CompareSession::Base* base = m_document->compare()->base();
    if (!m_document->hasProfile() || !base)
        return tr("Not comparing: File ▸ Compare with… opens the base runs.");
    if (base->profiles.empty())
        return tr("A baseline report has no timeline to draw.");
    return tr("Select a label (a rank row) to see its event-loop share in the base and in the new profile.");
}

void CompareUsageChart::showMessage(const QString& message)
{
    // Empty axes would read as data ("1 %, 1 %, 0 %", x from 0.00 to
    // 1.00, two nameless legend squares): the chart goes, the text says
    // what to do.
    m_note->hide();
    m_view->hide();
    m_message->setText(message);
    m_message->show();
}

QString CompareUsageChart::message() const
{
    return m_view->isHidden() ? m_message->text() : QString();
}

bool CompareUsageChart::isChartShown() const
{
    return !m_view->isHidden();
}

Time CompareUsageChart::Series::partOf(std::size_t bin, Time span) const
{
    const Time from = Time(bin) * binWidth;
    return std::clamp<Time>(span - from, 0, binWidth);
}

void CompareUsageChart::recompute()
{
    const CompareSession* compare = m_document->compare();
    const LabelId focus = m_document->focusLabel();
    const CompareSession::Base* base = compare->base();
    if (!m_document->hasProfile() || !base || focus == kNone || focus >= m_document->profile()->labelCount()
        || base->profiles.empty()) {
        drop(); // and says why there is no chart
        return;
    }
    // A search changes the emphasis too: the same label of the same runs
    // is not computed again.
    const Asked asked{focus, base->generation};
    if (asked == m_asked)
        return;
    m_asked = asked;
    const Profile& p = *m_document->profile();
    const RunSet::Match match = compare->match();
    const LabelKey key = RunSet::keyOf(p, focus, match);
    const std::shared_ptr<const Profile> baseProfile = base->profiles.front().profile;
    const QString label = QString::fromStdString(p.labelText(focus));
    m_note->setText(tr("%1: share of the event loop, base %2 and new, each from its own start%3")
                        .arg(label.toHtmlEscaped(), QFileInfo(base->paths.value(0)).fileName(),
                             compare->baseRunCount() > 1 ? tr(" (the first of %1 base runs)").arg(compare->baseRunCount())
                                                         : QString()));
    if (!isChartShown()) // else the chart shown stays until the new one is in
        showMessage(tr("Computing the usage of %1…").arg(label));
    m_job.start(m_document->sharedProfile(), [baseProfile, key, match, label](const Profile& next) {
        auto series = std::make_shared<Series>();
        const Time span = std::max<Time>(1, std::max(next.duration(), baseProfile->duration()));
        series->binWidth = std::max<Time>(1, (span + Time(kBins) - 1) / Time(kBins));
        series->baseSpan = baseProfile->duration();
        series->nextSpan = next.duration();
        series->unit = next.unit();
        series->label = label;
        series->base = usageOf(*baseProfile, key, match, series->binWidth);
        series->next = usageOf(next, key, match, series->binWidth);
        return std::shared_ptr<const Series>(std::move(series));
    });
}

void CompareUsageChart::computed(ProfileResult<Series> result)
{
    if (!result.value || !m_document->isCurrent(result.profile))
        return;
    m_shown = std::move(result);
    const Series& s = *m_shown.value;
    if (s.base.empty() && s.next.empty()) {
        showMessage(tr("%1 never ran on an event loop or thread of either profile: no share to draw.").arg(s.label));
        return;
    }
    // x in the profile's time (or unit) from its start, as the ruler.
    double top = 0.01;
    const auto fill = [&](QLineSeries* line, const std::vector<double>& shares, Time span) {
        QList<QPointF> points;
        points.reserve(qsizetype(shares.size() * 2));
        for (std::size_t b = 0; b < shares.size(); ++b) {
            // A step per bin: the share holds over the bin's part inside
            // the profile (the last one ends with it).
            const double x0 = double(b) * double(s.binWidth);
            points << QPointF(x0, shares[b] * 100) << QPointF(x0 + double(s.partOf(b, span)), shares[b] * 100);
            top = std::max(top, shares[b]);
        }
        line->replace(points);
    };
    fill(m_baseLine, s.base, s.baseSpan);
    fill(m_newLine, s.next, s.nextSpan);
    m_baseLine->setName(tr("base"));
    m_newLine->setName(tr("new"));
    m_baseLine->setPen(QPen(DiffColors::verdictText(Comparison::Verdict::Unchanged), 1.5, Qt::DashLine));
    m_newLine->setPen(QPen(ColorScheme::isDark() ? QColor(240, 190, 90) : QColor(200, 110, 0), 2));
    labelTimes(double(std::max(s.baseSpan, s.nextSpan)), s.unit);
    // Up to a round share, labelled every round step.
    const double step = shareStep(top * 100);
    m_yAxis->setRange(0, std::ceil(top * 100 / step - 1e-9) * step);
    m_yAxis->setTickInterval(step);
    m_message->hide();
    m_note->show();
    m_view->show();
}

void CompareUsageChart::labelTimes(double span, ValueUnit unit)
{
    span = std::max(span, 1.0);
    // About six labels: the ruler's step and labels ("2 s", "500 ms").
    const Time step = TimeFormat::niceStep(span / 6);
    for (const QString& label : m_xAxis->categoriesLabels())
        m_xAxis->remove(label);
    m_xAxis->setStartValue(0);
    for (Time at = 0;;) {
        m_xAxis->append(TimeRuler::tickLabel(at, step, unit), double(at));
        const Time next = addClamped(at, step); // a span near 2^63 ns: no wrap
        if (next == at || double(next) > span)
            break;
        at = next;
    }
    m_xAxis->setRange(0, span);
}

void CompareUsageChart::finishPendingWork()
{
    m_job.finish();
}

} // namespace runlane
