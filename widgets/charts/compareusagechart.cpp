#include "compareusagechart.h"

#include "comparesession.h"
#include "diffcolors.h"
#include "colorscheme.h"
#include "profiledocument.h"
#include "usageseries.h"

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
      m_baseLine(new QLineSeries), m_newLine(new QLineSeries), m_xAxis(new QValueAxis), m_yAxis(new QValueAxis),
      m_note(new QLabel(this)), m_job(this, [this](ProfileResult<Series> result) { computed(std::move(result)); })
{
    m_chart->addSeries(m_baseLine);
    m_chart->addSeries(m_newLine);
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    for (QLineSeries* line : {m_baseLine, m_newLine}) {
        line->attachAxis(m_xAxis);
        line->attachAxis(m_yAxis);
    }
    m_yAxis->setLabelFormat(QStringLiteral("%.0f %"));
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(6, 4, 6, 0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_note);
    layout->addWidget(m_view, 1);
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
}

void CompareUsageChart::recompute()
{
    const CompareSession* compare = m_document->compare();
    const LabelId focus = m_document->focusLabel();
    const CompareSession::Base* base = compare->base();
    if (!m_document->hasProfile() || !base || focus == kNone || focus >= m_document->profile()->labelCount()
        || base->profiles.empty()) {
        drop();
        m_note->setText(!base                   ? tr("Not comparing: File ▸ Compare with… opens the base runs.")
                            : base->profiles.empty() ? tr("A baseline report has no timeline to draw.")
                                                     : tr("Select a label (a rank row) to see its event-loop share in the "
                                                          "base and in the new profile."));
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
    m_job.start(m_document->sharedProfile(), [baseProfile, key, match, label](const Profile& next) {
        auto series = std::make_shared<Series>();
        const Time span = std::max<Time>(1, std::max(next.duration(), baseProfile->duration()));
        series->binWidth = std::max<Time>(1, (span + Time(kBins) - 1) / Time(kBins));
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
    // x in ms for times, in the profile's own unit otherwise.
    const double scale = s.unit == ValueUnit::Nanoseconds ? 1e-6 : 1.0 / double(kTicksPerUnit);
    double top = 1.0;
    const auto fill = [&](QLineSeries* line, const std::vector<double>& shares) {
        QList<QPointF> points;
        points.reserve(qsizetype(shares.size() * 2));
        for (std::size_t b = 0; b < shares.size(); ++b) {
            // A step per bin: the share holds over the whole bin.
            const double x0 = double(b) * double(s.binWidth) * scale;
            points << QPointF(x0, shares[b] * 100) << QPointF(x0 + double(s.binWidth) * scale, shares[b] * 100);
            top = std::max(top, shares[b]);
        }
        line->replace(points);
    };
    fill(m_baseLine, s.base);
    fill(m_newLine, s.next);
    m_baseLine->setName(tr("base"));
    m_newLine->setName(tr("new"));
    m_baseLine->setPen(QPen(DiffColors::verdictText(Comparison::Verdict::Unchanged), 1.5, Qt::DashLine));
    m_newLine->setPen(QPen(ColorScheme::isDark() ? QColor(240, 190, 90) : QColor(200, 110, 0), 2));
    const std::size_t bins = std::max(s.base.size(), s.next.size());
    m_xAxis->setRange(0, double(bins) * double(s.binWidth) * scale);
    m_xAxis->applyNiceNumbers(); // ticks at round times
    m_xAxis->setTitleText(s.unit == ValueUnit::Nanoseconds ? tr("ms from the profile's start") : tr("from the profile's start"));
    m_yAxis->setRange(0, std::ceil(top * 10) * 10);
}

void CompareUsageChart::finishPendingWork()
{
    m_job.finish();
}

} // namespace runlane
