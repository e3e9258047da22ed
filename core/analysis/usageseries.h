#pragma once

#include "profile.h"
#include "ranktable.h"

#include <optional>
#include <vector>

namespace runlane {

class TrackExecIndex;

// Event-loop usage over time (semantics.md §6): for a track and bin width w,
// the share of each bin that each label was executing, Σ exec in bin / w.
// The top-k labels by exec in the range get their own series; the rest are
// summed into "other", so the stacked values of a bin add up to the loop's
// busy fraction of that bin. For cumulative metric snapshots (Chroprof) the
// exec comes from the differences between snapshots, spread evenly over the
// time between them (so a bin can show more than 100 %: Chroprof credits a
// future's time when it completes).
//
// A bin counts only its part inside both the range and the profile (its
// `part`), and its share is of that part: a last bin that lies mostly past
// the profile's end is divided by what it covers of the profile, not by w
// (a loop busy all of the profile's last 0.3 s shows 100 % in a last 1 s
// bin, not 30 %). So every bin reads as a busy fraction, and the mean of a
// series over the range, its exec there / the range's time inside the
// profile, does not depend on the bin width (issue 39: the legend's mean
// read 18.2 % with 1 s bins for 18.8 % of a 30.0 s profile).
class UsageSeries
{
public:
    static constexpr std::size_t kMaxBins = 1'000'000;

    // Bins cover `range` (default: the whole profile) on a grid from
    // `origin` (default: the range's start; the chart's bins sit on a grid
    // from the profile's start, so that panning keeps them): the first one
    // starts at the grid line at or before the range's start, the last may
    // extend past its end. Returns an empty series (binCount 0)
    // for an empty range; throws std::invalid_argument for binWidth <= 0 or
    // more than kMaxBins bins. `likely`: labels expected among the top k
    // (the series shown before); when they are, the spans are read once
    // instead of twice. They change no share, except "other" by rounding
    // (it is summed in another order); ids the profile lacks are ignored.
    static UsageSeries compute(const Profile& profile, TrackId track, Time binWidth, std::size_t topK,
                               std::optional<TimeRange> range = std::nullopt, const std::vector<LabelId>& likely = {},
                               std::optional<Time> origin = std::nullopt);
    // The same from a track's exec index (built once, for many ranges):
    // equal to the above for the index's track. From a summed index
    // (TrackExecIndex::summed) a bin costs a search per series, whatever
    // it holds, and `likely` is not needed.
    static UsageSeries compute(const Profile& profile, const TrackExecIndex& index, Time binWidth, std::size_t topK,
                               std::optional<TimeRange> range = std::nullopt, const std::vector<LabelId>& likely = {},
                               std::optional<Time> origin = std::nullopt);
    // The same with `labels` as the series, in this order, instead of the
    // top k (compare mode draws one label of a comparison, which may be
    // several ids of a profile).
    static UsageSeries compute(const Profile& profile, TrackId track, Time binWidth, const std::vector<LabelId>& labels,
                               std::optional<TimeRange> range = std::nullopt);
    // The track on which `labels` executed the longest; kNone if they never
    // executed on any (or the profile has no timeline).
    static TrackId busiestTrack(const Profile& profile, const std::vector<LabelId>& labels);
    // The default bin width: span / 200, at least 1 ns.
    static Time defaultBinWidth(Time span);

    TrackId track() const { return m_track; }
    // Where the first bin starts (bin b: [start + b × w, start + (b + 1) × w)).
    Time start() const { return m_start; }
    Time binWidth() const { return m_binWidth; }
    std::size_t binCount() const { return m_binCount; }
    // What is counted: the range inside the profile (empty: from == to).
    TimeRange counted() const { return m_counted; }
    // The part of bin `bin` that is counted, which its shares are of: the
    // whole bin but at the range's and the profile's ends (empty past them).
    TimeRange binPart(std::size_t bin) const;
    // The labels with a series of their own, largest first; "other" follows.
    const std::vector<LabelId>& labels() const { return m_labels; }
    std::size_t seriesCount() const { return m_labels.size() + 1; }
    // Share of bin `bin` for series `series` (labels().size() = other).
    double share(std::size_t bin, std::size_t series) const { return m_shares[bin * seriesCount() + series]; }
    double busy(std::size_t bin) const { return m_busy[bin]; }
    // Series `series`' exec over everything counted / the time counted: the
    // mean of its bins weighted by their parts, the same for any bin width.
    double meanShare(std::size_t series) const { return m_mean[series]; }

private:
    // Exec `exec` spread evenly over [from, to): an exec segment's own
    // length, or what accumulated between two metric snapshots.
    struct Span {
        LabelId label;
        Time from;
        Time to;
        double exec;
    };
    // The bins of range `r` on the grid from `origin`, with nothing in
    // them yet; none (binCount 0) for an empty range.
    static UsageSeries binned(const Profile& profile, TrackId track, Time binWidth, TimeRange r, Time origin);
    // The shares, busy fractions and means from `exec`: per bin, each
    // series' exec (the labels', then other).
    void share(const std::vector<double>& exec);
    // From the sums of an index whose segments are disjoint: per bin and
    // label, two binary searches instead of a run over the segments.
    static UsageSeries fromSums(const Profile& profile, const TrackExecIndex& index, Time binWidth, std::size_t topK,
                                TimeRange r, Time origin);
    // Passes 1 (top k, unless `chosen` gives the series; the bins of the
    // `likely` labels) and 2 (bins, when not all are in pass 1's) over the
    // spans forEachSpan(fn) gives.
    template<typename ForEachSpan>
    static UsageSeries fromSpans(const Profile& profile, TrackId track, Time binWidth, std::size_t topK, TimeRange range,
                                 Time origin, const std::vector<LabelId>* chosen, const std::vector<LabelId>& likely,
                                 ForEachSpan&& forEachSpan);
    // The exec spans of a track in `range` (snapshots are scanned by SnapshotSteps).
    static std::vector<Span> spansOf(const Profile& profile, TrackId track, TimeRange range);

    TrackId m_track = 0;
    Time m_start = 0;
    Time m_binWidth = 1;
    std::size_t m_binCount = 0;
    TimeRange m_counted{0, 0};
    std::vector<LabelId> m_labels;
    std::vector<double> m_shares;
    std::vector<double> m_busy;
    std::vector<double> m_mean;
};

} // namespace runlane
