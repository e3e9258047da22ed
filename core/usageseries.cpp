#include "usageseries.h"

#include "execsegments.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace runlane {

Time UsageSeries::defaultBinWidth(Time span)
{
    return std::max<Time>(1, span / 200);
}

UsageSeries UsageSeries::compute(const Profile& profile, TrackId track, Time binWidth, std::size_t topK,
                                 std::optional<TimeRange> range)
{
    if (binWidth <= 0)
        throw std::invalid_argument("the bin width must be positive");
    const TimeRange r = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    UsageSeries series;
    series.m_track = track;
    series.m_start = r.from;
    series.m_binWidth = binWidth;
    if (r.to <= r.from)
        return series;
    const Time span = r.to - r.from;
    const std::size_t bins = std::size_t(span / binWidth + (span % binWidth != 0 ? 1 : 0));
    if (bins > kMaxBins)
        throw std::invalid_argument("the bin width gives " + std::to_string(bins) + " bins; at most "
                                    + std::to_string(kMaxBins) + " are allowed");
    series.m_binCount = bins;

    // Pass 1: exec per label inside the range picks the top k.
    std::vector<Time> perLabel(profile.labelCount(), 0);
    ExecSegments::forEach(profile, track, r.from, r.to, [&](MeasurementId m, IntervalId, Time s, Time e) {
        perLabel[profile.measurement(m).label] += e - s;
    });
    std::vector<LabelId> order;
    for (LabelId l = 0; l < perLabel.size(); ++l) {
        if (perLabel[l] > 0)
            order.push_back(l);
    }
    std::stable_sort(order.begin(), order.end(), [&](LabelId a, LabelId b) { return perLabel[a] > perLabel[b]; });
    if (order.size() > topK)
        order.resize(topK);
    series.m_labels = order;
    std::vector<std::uint32_t> seriesOf(profile.labelCount(), std::uint32_t(order.size()));
    for (std::uint32_t k = 0; k < order.size(); ++k)
        seriesOf[order[k]] = k;

    // Pass 2: spread each segment over the bins it touches.
    const std::size_t columns = series.seriesCount();
    std::vector<Time> exec(bins * columns, 0);
    ExecSegments::forEach(profile, track, r.from, r.to, [&](MeasurementId m, IntervalId, Time s, Time e) {
        const std::size_t column = seriesOf[profile.measurement(m).label];
        std::size_t bin = std::size_t((s - r.from) / binWidth);
        while (s < e && bin < bins) {
            const Time binEnd = r.from + Time(bin + 1) * binWidth;
            const Time part = std::min(e, binEnd) - s;
            exec[bin * columns + column] += part;
            s += part;
            ++bin;
        }
    });
    series.m_shares.resize(bins * columns);
    series.m_busy.assign(bins, 0.0);
    for (std::size_t b = 0; b < bins; ++b) {
        for (std::size_t c = 0; c < columns; ++c) {
            const double share = double(exec[b * columns + c]) / double(binWidth);
            series.m_shares[b * columns + c] = share;
            series.m_busy[b] += share;
        }
    }
    return series;
}

} // namespace runlane
