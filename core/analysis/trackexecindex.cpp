#include "trackexecindex.h"

#include "execsegments.h"

namespace runlane {

TrackExecIndex::TrackExecIndex(const Profile& profile, TrackId track) : m_track(track)
{
    // ExecSegments walks depth by depth, each depth in order of start: the
    // array is a few sorted runs, merged pairwise (log runs passes) rather
    // than sorted from scratch.
    std::vector<std::size_t> runs{0};
    // A sampled thread's "(idle)" is left out: the index serves the usage,
    // where it is not busy time (as in UsageSeries::spansOf).
    ExecSegments::forEach(profile, track, kTimeMin, kTimeMax, [&](MeasurementId m, IntervalId, Time s, Time e) {
        const LabelId label = profile.labelOf(m);
        if (profile.isIdle(label))
            return;
        if (!m_segments.empty() && s < m_segments.back().start)
            runs.push_back(m_segments.size()); // a new run (the next depth)
        m_segments.push_back(Segment{s, e, label});
    });
    runs.push_back(m_segments.size());
    auto byStart = [](const Segment& a, const Segment& b) { return a.start < b.start; };
    while (runs.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
            std::inplace_merge(m_segments.begin() + std::ptrdiff_t(runs[r]), m_segments.begin() + std::ptrdiff_t(runs[r + 1]),
                               m_segments.begin() + std::ptrdiff_t(runs[r + 2]), byStart);
            merged.push_back(runs[r + 2]);
        }
        if (runs.size() % 2 == 0) // an odd number of runs: the last waits for the next pass
            merged.push_back(runs.back());
        runs = std::move(merged);
    }
    m_summed = std::adjacent_find(m_segments.begin(), m_segments.end(),
                                  [](const Segment& a, const Segment& b) { return b.start < a.end; })
        == m_segments.end();
    Time span = 0;
    if (m_summed && !m_segments.empty() && __builtin_sub_overflow(m_segments.back().end, m_segments.front().start, &span))
        m_summed = false; // exec sums up to the span: kept below 2^63
    if (m_summed) {
        sum();
        return;
    }
    m_maxEnd.reserve(m_segments.size());
    Time latest = kTimeMin;
    for (const Segment& s : m_segments) {
        latest = std::max(latest, s.end);
        m_maxEnd.push_back(latest);
    }
}

void TrackExecIndex::sum()
{
    // Disjoint segments sorted by start have their ends sorted too, and
    // so have each label's: the exec before t is that of the segments
    // starting before t, less what the last of them runs past t.
    m_busyThrough.reserve(m_segments.size());
    Time busy = 0;
    LabelId labels = 0;
    for (const Segment& s : m_segments) {
        busy += s.end - s.start;
        m_busyThrough.push_back(busy);
        labels = std::max(labels, s.label + 1);
    }
    // A counting sort by label keeps each label's segments in order of
    // start. Their starts are copied (not referred to by index), so that a
    // search reads one array: at 50 M events the top-k pass searches every
    // label's segments, and an index read through cost a miss a step.
    m_labelBegin.assign(std::size_t(labels) + 1, 0);
    for (const Segment& s : m_segments)
        ++m_labelBegin[s.label + 1];
    for (LabelId l = 0; l < labels; ++l) {
        if (m_labelBegin[l + 1] > 0)
            m_labels.push_back(l);
        m_labelBegin[l + 1] += m_labelBegin[l];
    }
    m_labelStarts.resize(m_segments.size());
    m_labelThrough.resize(m_segments.size());
    std::vector<std::uint32_t> next(m_labelBegin.begin(), m_labelBegin.end() - 1);
    std::vector<Time> exec(labels, 0);
    for (const Segment& s : m_segments) {
        const std::uint32_t k = next[s.label]++;
        exec[s.label] += s.end - s.start;
        m_labelStarts[k] = s.start;
        m_labelThrough[k] = exec[s.label];
    }
}

namespace {

// The first of [from, count) whose start is at or after t (starts sorted):
// steps of 1, 2, 4… from `from`, then a binary search in the last step.
// A sweep over rising times costs the log of each step's distance, not of
// the whole array.
template<typename StartAt>
std::size_t gallop(std::size_t from, std::size_t count, Time t, StartAt startAt)
{
    std::size_t lo = from;
    std::size_t hi = from;
    std::size_t step = 1;
    while (hi < count && startAt(hi) < t) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min(hi, count);
    while (lo < hi) { // [from, lo) start before t; hi is count or starts at or after t
        const std::size_t mid = lo + (hi - lo) / 2;
        if (startAt(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

} // namespace

Time TrackExecIndex::busyBefore(Time t, std::size_t* cursor) const
{
    // The segments starting before t; the last may run past it.
    const std::size_t end = cursor
        ? (*cursor = gallop(*cursor, m_segments.size(), t, [this](std::size_t i) { return m_segments[i].start; }))
        : std::size_t(std::partition_point(m_segments.begin(), m_segments.end(), [t](const Segment& s) { return s.start < t; })
                      - m_segments.begin());
    if (end == 0)
        return 0;
    return m_busyThrough[end - 1] - std::max<Time>(0, m_segments[end - 1].end - t);
}

Time TrackExecIndex::execBefore(LabelId label, Time t, std::size_t* cursor) const
{
    if (std::size_t(label) + 1 >= m_labelBegin.size())
        return 0;
    const std::size_t first = m_labelBegin[label];
    const std::size_t last = m_labelBegin[label + 1];
    std::size_t end = 0;
    if (first == last || t <= m_labelStarts[first])
        end = first; // before the label's first segment: the search is for nothing
    else if (m_labelStarts[last - 1] < t)
        end = last; // after its last start (a range to the profile's end)
    else if (cursor)
        end = gallop(std::max(*cursor, first), last, t, [this](std::size_t i) { return m_labelStarts[i]; });
    else
        end = std::size_t(std::partition_point(m_labelStarts.begin() + std::ptrdiff_t(first), m_labelStarts.begin() + std::ptrdiff_t(last),
                                               [t](Time start) { return start < t; })
                          - m_labelStarts.begin());
    if (cursor)
        *cursor = end;
    if (end == first)
        return 0;
    // The last segment's length is the step of the running sum.
    const Time length = m_labelThrough[end - 1] - (end - 1 > first ? m_labelThrough[end - 2] : 0);
    return m_labelThrough[end - 1] - std::max<Time>(0, m_labelStarts[end - 1] + length - t);
}

} // namespace runlane
