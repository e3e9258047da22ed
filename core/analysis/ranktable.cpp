#include "ranktable.h"

#include "execsegments.h"
#include "loaderror.h"
#include "nearestrank.h"
#include "parallel.h"
#include "schedulingdelays.h"
#include "snapshotreader.h"

#include <algorithm>
#include <tuple>
#include <cmath>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <optional>

namespace runlane {

namespace {

// Nearest-rank percentiles (and the max) of unsorted values, which it
// reorders. Selection instead of a sort: O(n) rather than O(n log n), which
// is most of a whole-profile rank of millions of calls.
struct Quantiles {
    Time max = 0, p50 = 0, p90 = 0, p99 = 0;
};

Quantiles quantiles(Time* values, std::size_t n)
{
    Quantiles q;
    if (n == 0)
        return q;
    // Each selection splits the values, so the next, higher one only needs
    // the part after it: the median first, in all of them, then p90 in
    // the upper half and p99 in the top tenth (1.6 n steps, not 2.9 n
    // when p99 came first).
    Time* end = values + n;
    const std::size_t r99 = nearestRank(n, 0.99), r90 = nearestRank(n, 0.90), r50 = nearestRank(n, 0.50);
    std::nth_element(values, values + r50, end);
    q.p50 = values[r50];
    if (r90 > r50)
        std::nth_element(values + r50 + 1, values + r90, end);
    q.p90 = values[r90];
    if (r99 > r90)
        std::nth_element(values + r90 + 1, values + r99, end);
    q.p99 = values[r99];
    q.max = *std::max_element(values + r99, end);
    return q;
}

// Measurements ranked per thread at the least: fewer cost more to split
// and merge (a row per label and part) than they take to count.
constexpr std::size_t kRankedPerPart = std::size_t(1) << 16;
constexpr std::size_t kRankedPerLabel = 8;

Time overlap(Time a, Time b, const TimeRange& r)
{
    return std::max<Time>(0, std::min(b, r.to) - std::max(a, r.from));
}

// The figures clipped to a range (semantics.md §5). Per measurement alive
// in it: exec, from the exec segments inside it. Per label: time with
// children, the clipped exec of every measurement with one of the label on
// its creator chain, wherever that one lived: a creator that finished before
// the range is not alive in it, but what it created and runs in the range is
// still its doing. Each measurement counts once per label: the chain's
// topmost measurement of the label (one not nested in the same label) holds
// it in its subtree's sum, the others are skipped.
// Dense (the range holds a good part of the profile): arrays indexed by
// measurement id, the tree summed in one backward pass. Sparse (a short
// range): arrays indexed by position among the alive measurements, the tree
// summed over those that ran and their creators only, so that the cost
// follows what the range holds, not the size of the profile.
class ClippedFigures
{
public:
    ClippedFigures(const MeasurementMetrics& metrics, const TimeRange& range, const std::function<void()>& checkCancel)
        : m_metrics(metrics)
    {
        const Profile& profile = metrics.profile();
        const std::size_t count = profile.measurementCount();
        m_alive = metrics.aliveIn(range.from, range.to);
        m_dense = m_alive.size() * 4 >= count;
        checkCancel();
        m_exec.assign(m_dense ? count : m_alive.size(), 0);
        // Tracks in parallel: a measurement's intervals are all on its
        // track, so no two threads add to the same slot.
        parallelFor(profile.trackCount(), [&](std::size_t t) {
            ExecSegments::forEach(profile, TrackId(t), range.from, range.to,
                                  [&](MeasurementId m, IntervalId, Time s, Time e) {
                                      // Never kNotAlive: the builder keeps
                                      // intervals within their measurement.
                                      const std::size_t slot = slotOf(m);
                                      if (slot == kNotAlive)
                                          return;
                                      m_exec[slot] += e - s;
                                  });
        });
        checkCancel();
        m_labelTotal.assign(profile.labelCount(), 0);
        if (m_dense) {
            std::vector<Time> total = m_exec;
            sumById(total);
        } else {
            sumSparse();
        }
    }

    std::size_t aliveCount() const { return m_alive.size(); }
    // Calls fn(slot, id) for the measurements alive in the range [begin,
    // end) of aliveCount(), in id order.
    template<typename Fn>
    void forEachAlive(std::size_t begin, std::size_t end, Fn&& fn) const
    {
        for (std::size_t k = begin; k < end; ++k)
            fn(m_dense ? std::size_t(m_alive[k]) : k, m_alive[k]);
    }
    Time exec(std::size_t slot) const { return m_exec[slot]; }
    // Time with children of a label, alive in the range or not.
    Time labelTotal(LabelId label) const { return m_labelTotal[label]; }

private:
    static constexpr std::size_t kNotAlive = std::size_t(-1);
    std::size_t slotOf(MeasurementId id) const
    {
        if (m_dense)
            return id;
        const auto it = std::lower_bound(m_alive.begin(), m_alive.end(), id);
        return it != m_alive.end() && *it == id ? std::size_t(it - m_alive.begin()) : kNotAlive;
    }

    // Adds the clipped time with children of a measurement to its label's
    // unless an ancestor of the same label holds it already.
    void addToLabel(MeasurementId id, LabelId label, Time total)
    {
        if (!m_metrics.nestedInSameLabel(id))
            m_labelTotal[label] = addClamped(m_labelTotal[label], total);
    }

    // Creators have lower ids (ProfileBuilder), so going down the ids every
    // measurement has its whole subtree summed when its turn comes. `total`
    // holds the clipped exec by id and is summed in place.
    void sumById(std::vector<Time>& total)
    {
        const Profile& profile = m_metrics.profile();
        for (std::size_t id = total.size(); id-- > 0;) {
            if (total[id] == 0)
                continue; // most of them: nothing of theirs ran in the range
            const Measurement& m = profile.measurement(MeasurementId(id));
            addToLabel(MeasurementId(id), m.label, total[id]);
            if (m.creator != kNone)
                total[m.creator] = addClamped(total[m.creator], total[id]);
        }
    }

    // The same sum over the alive measurements that ran in the range and
    // all their creators up to the roots, alive or not: the only ones with
    // a time with children in the range. Creators that are not alive get
    // slots after the alive ones. Creator chains can be long (a future that
    // starts the next one and finishes, a million times over): when they
    // reach a good part of the profile, the plain pass by id is cheaper.
    void sumSparse()
    {
        const Profile& profile = m_metrics.profile();
        const std::size_t count = profile.measurementCount();
        std::vector<MeasurementId> ids = m_alive; // per slot
        std::vector<Time> total = m_exec;
        std::vector<std::size_t> up(ids.size(), kNotAlive); // the creator's slot
        std::vector<bool> reached(ids.size(), false);
        std::unordered_map<MeasurementId, std::size_t> deadSlot;
        for (std::size_t k = 0; k < m_alive.size(); ++k) {
            if (m_exec[k] == 0)
                continue;
            // Up the creator chain to a slot reached before (its chain is
            // done) or to the root.
            for (std::size_t slot = k; !reached[slot];) {
                reached[slot] = true;
                const MeasurementId creator = profile.measurement(ids[slot]).creator;
                if (creator == kNone)
                    break;
                std::size_t next = slotOf(creator);
                if (next == kNotAlive) {
                    const auto [it, added] = deadSlot.emplace(creator, ids.size());
                    next = it->second;
                    if (added) {
                        if (ids.size() * 4 >= count) {
                            sumAllById();
                            return;
                        }
                        ids.push_back(creator);
                        total.push_back(0);
                        up.push_back(kNotAlive);
                        reached.push_back(false);
                    }
                }
                up[slot] = next;
                slot = next;
            }
        }
        // Highest id first: the alive slots are in id order already, the
        // creators that are not alive are sorted and merged in. Slots not
        // reached have nothing in the range and are skipped with the zeros.
        std::vector<std::size_t> dead(ids.size() - m_alive.size());
        std::iota(dead.begin(), dead.end(), m_alive.size());
        std::sort(dead.begin(), dead.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
        for (std::size_t alive = m_alive.size(), d = dead.size(); alive > 0 || d > 0;) {
            const bool takeDead = d > 0 && (alive == 0 || ids[dead[d - 1]] > ids[alive - 1]);
            const std::size_t slot = takeDead ? dead[--d] : --alive;
            if (total[slot] == 0)
                continue;
            addToLabel(ids[slot], profile.labelOf(ids[slot]), total[slot]);
            if (up[slot] != kNotAlive)
                total[up[slot]] = addClamped(total[up[slot]], total[slot]);
        }
    }

    // sumById over arrays the size of the profile, for a sparse range whose
    // creator chains turned out long.
    void sumAllById()
    {
        std::vector<Time> total(m_metrics.profile().measurementCount(), 0);
        for (std::size_t k = 0; k < m_alive.size(); ++k)
            total[m_alive[k]] = m_exec[k];
        sumById(total);
    }

    const MeasurementMetrics& m_metrics;
    std::vector<MeasurementId> m_alive;
    bool m_dense = false;
    std::vector<Time> m_exec;
    std::vector<Time> m_labelTotal;
};

// A range that holds all of the profile changes nothing: the plain figures
// are the clipped ones, at a fraction of the cost.
bool holdsWholeProfile(const Profile& profile, const TimeRange& range)
{
    const auto& all = profile.measurements();
    return range.from <= profile.startTime() && range.to >= profile.endTime()
        && (all.empty() || all.back().created < range.to);
}

} // namespace

RankTable RankTable::compute(const MeasurementMetrics& metrics, std::optional<TimeRange> range,
                             const std::atomic<bool>* cancel, Distributions distributions)
{
    const bool walls = distributions == Distributions::ExecAndWall;
    const std::function<void()> checkCancel = [cancel] { throwIfCancelled(cancel); };
    const Profile& profile = metrics.profile();
    if (profile.measurementCount() == 0 && !profile.snapshots().empty())
        return fromSnapshots(profile, range);
    RankTable table;
    table.m_range = range;
    std::optional<ClippedFigures> clipped;
    if (range && !holdsWholeProfile(profile, *range))
        clipped.emplace(metrics, *range, checkCancel);
    checkCancel();

    // Calls fn(id, measurement, exec, wall) for the measurements to rank
    // [begin, end) (all of them, or those alive in the range), in id order.
    const std::size_t ranked = clipped ? clipped->aliveCount() : profile.measurementCount();
    auto forEachRanked = [&](std::size_t begin, std::size_t end, auto&& fn) {
        if (!clipped) {
            for (std::size_t k = begin; k < end; ++k) {
                const MeasurementId id = MeasurementId(k);
                const Measurement& m = profile.measurement(id);
                fn(id, m, metrics.exec(id), m.finished - m.created);
            }
            return;
        }
        clipped->forEachAlive(begin, end, [&](std::size_t slot, MeasurementId id) {
            const Measurement& m = profile.measurement(id);
            fn(id, m, clipped->exec(slot), overlap(m.created, m.finished, *range));
        });
    };

    // Per-call distributions: exec over the calls that ran, wall over all
    // but the stillborn; values grouped by label with a counting sort (a
    // first pass counts and sums, a second one places the values). Both
    // passes go over parts of the measurements in parallel, each part with
    // rows and counts of its own: counts add up, and saturating sums of
    // times that are never negative are the same in any grouping (a part
    // that meets a negative time, which the builder never makes, sends
    // the count back to one part).
    const std::size_t labels = profile.labelCount();
    // A part's figures of one label, in one cache line: the count reads
    // the measurements in id order and adds to the label of each, so the
    // labels' tallies are hit at random; 5,000 RankRows (three lines each)
    // did not stay in a core's cache beside the measurements streaming by.
    struct alignas(64) Tally {
        Time exec = 0, total = 0, wall = 0;
        std::uint32_t calls = 0, unfinished = 0, stillborn = 0, primitive = 0, failed = 0, cancelled = 0;
        std::uint32_t execCount = 0, wallCount = 0; // values for the distributions
    };
    struct Part {
        std::size_t begin = 0, end = 0;
        std::vector<Tally> tallies; // per label
        bool negative = false;
        // Per label, where the part places its next value of each
        // distribution.
        std::vector<std::uint32_t> execAt, wallAt;
    };
    auto countPart = [&](Part& part) {
        part.tallies.assign(labels, Tally{});
        forEachRanked(part.begin, part.end, [&](MeasurementId id, const Measurement& m, Time exec, Time wall) {
            Tally& tally = part.tallies[m.label];
            const bool ran = !profile.intervalsOf(id).empty();
            const FinalState state = m.finalState();
            if (state == FinalState::Unfinished) {
                ++tally.unfinished;
            } else {
                ++tally.calls;
                if (m.isBornFinished())
                    ++tally.stillborn;
                else if (!ran)
                    ++tally.primitive;
            }
            tally.failed += state == FinalState::Failed ? 1 : 0;
            tally.cancelled += state == FinalState::Cancelled ? 1 : 0;
            tally.exec = addClamped(tally.exec, exec);
            part.negative = part.negative || exec < 0 || wall < 0;
            // Recursion counted once: a measurement's total holds those of the
            // same label under it. (In a range the totals come per label.)
            if (!clipped && !metrics.nestedInSameLabel(id)) {
                tally.total = addClamped(tally.total, metrics.total(id));
                part.negative = part.negative || metrics.total(id) < 0;
            }
            tally.wall = addClamped(tally.wall, wall);
            tally.execCount += ran ? 1 : 0;
            tally.wallCount += walls && !m.isBornFinished() ? 1 : 0;
        });
    };
    // Two parts only where labels are few beside the measurements: each
    // part has a tally per label, which with a label per call or two would
    // cost more memory than the counting saves time.
    std::vector<Part> parts(ranked >= kRankedPerPart * 2 && labels * kRankedPerLabel <= ranked ? 2 : 1);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        parts[p].begin = ranked * p / parts.size();
        parts[p].end = ranked * (p + 1) / parts.size();
    }
    parallelFor(parts.size(), [&](std::size_t p) { countPart(parts[p]); });
    if (parts.size() > 1 && std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.negative; })) {
        parts.resize(1);
        parts[0].end = ranked;
        countPart(parts[0]);
    }
    // The rows, and where each part's values of a label start: after the
    // earlier parts'.
    std::vector<RankRow> rows(labels);
    std::vector<std::uint32_t> execStart(labels + 1, 0);
    std::vector<std::uint32_t> wallStart(labels + 1, 0);
    for (Part& part : parts) {
        part.execAt.resize(labels);
        part.wallAt.resize(labels);
    }
    for (std::size_t l = 0; l < labels; ++l) {
        RankRow& row = rows[l];
        std::uint32_t exec = execStart[l];
        std::uint32_t wall = wallStart[l];
        for (std::size_t p = 0; p < parts.size(); ++p) {
            const Tally& tally = parts[p].tallies[l];
            row.calls += tally.calls;
            row.unfinished += tally.unfinished;
            row.stillborn += tally.stillborn;
            row.primitive += tally.primitive;
            row.failed += tally.failed;
            row.cancelled += tally.cancelled;
            row.exec = addClamped(row.exec, tally.exec);
            row.total = addClamped(row.total, tally.total);
            row.wall = addClamped(row.wall, tally.wall);
            parts[p].execAt[l] = exec;
            parts[p].wallAt[l] = wall;
            exec += tally.execCount;
            wall += tally.wallCount;
        }
        execStart[l + 1] = exec;
        wallStart[l + 1] = wall;
    }
    checkCancel();
    std::vector<Time> execSamples(execStart.back());
    std::vector<Time> wallSamples(wallStart.back());
    parallelFor(parts.size(), [&](std::size_t p) {
        std::vector<std::uint32_t>& execAt = parts[p].execAt;
        std::vector<std::uint32_t>& wallAt = parts[p].wallAt;
        forEachRanked(parts[p].begin, parts[p].end, [&](MeasurementId id, const Measurement& m, Time exec, Time wall) {
            if (!profile.intervalsOf(id).empty())
                execSamples[execAt[m.label]++] = exec;
            if (walls && !m.isBornFinished())
                wallSamples[wallAt[m.label]++] = wall;
        });
    });

    checkCancel();
    // Labels are independent; the big ones dominate, so they go in parallel.
    parallelFor(rows.size(), [&](std::size_t l) {
        RankRow& row = rows[l];
        row.label = LabelId(l);
        Time* execs = execSamples.data() + execStart[l];
        const std::size_t n = execStart[l + 1] - execStart[l];
        if (n > 0) {
            Time sum = 0;
            for (std::size_t k = 0; k < n; ++k)
                sum = addClamped(sum, execs[k]);
            const Quantiles q = quantiles(execs, n);
            row.max = q.max;
            row.mean = sum / Time(n);
            row.p50 = q.p50;
            row.p90 = q.p90;
            row.p99 = q.p99;
        }
        const std::size_t w = wallStart[l + 1] - wallStart[l];
        if (w > 0) {
            const Quantiles q = quantiles(wallSamples.data() + wallStart[l], w);
            row.wallMax = q.max;
            row.wallP50 = q.p50;
            row.wallP90 = q.p90;
            row.wallP99 = q.p99;
        }
    });
    for (RankRow& row : rows) {
        if (clipped)
            row.total = clipped->labelTotal(row.label);
        // A label none of whose measurements is alive in the range has a
        // row (calls 0, exec 0) when what it created ran in it.
        if (row.calls + row.unfinished > 0 || row.total > 0)
            table.m_rows.push_back(row);
    }
    table.finish(profile);
    return table;
}

void RankTable::finish(const Profile& profile)
{
    // A sampled thread's "(idle)" is not busy: no share, and not counted
    // in the busy time the others share.
    m_busy = 0;
    for (const RankRow& row : m_rows) {
        if (!profile.isIdle(row.label))
            m_busy = addClamped(m_busy, row.exec);
    }
    for (RankRow& row : m_rows)
        row.busyShare = m_busy > 0 && !profile.isIdle(row.label) ? double(row.exec) / double(m_busy) : 0.0;
    sort(profile, RankSortKey::Exec);
}

// Chroprof: each proc's figures from the last snapshot it appears in (a
// proc that drops out of the exported top-k is not zero), or for a range
// those at its end less those at its start. Counters that went down were
// reset in between; the later value is all that is known then.
RankTable RankTable::fromSnapshots(const Profile& profile, std::optional<TimeRange> range)
{
    RankTable table;
    table.m_range = range;
    const bool clip = range && profile.snapshotsAreTimed();
    const std::size_t labels = profile.labelCount();
    // Copies: a reader's rows last until its next read.
    std::vector<AggregateRow> atEnd(labels);
    std::vector<AggregateRow> atStart(labels);
    std::vector<std::uint8_t> has(labels, 0); // kAtEnd | kAtStart
    constexpr std::uint8_t kAtEnd = 1, kAtStart = 2;
    std::vector<LabelId> order; // labels in order of appearance (the table is sorted after)
    SnapshotReader reader(profile.snapshots());
    if (!clip) {
        // From the newest back, until every label has its last row: a live
        // recording's rank costs its procs, not the hours received. Read
        // a block at a time (forward from its keyframe, so that no snapshot
        // is decoded twice); within it, a label's last row is the one kept.
        struct Found {
            std::size_t snapshot;
            std::size_t row;
            LabelId label;
        };
        std::vector<Found> found;
        std::vector<std::uint32_t> foundAt(labels, UINT32_MAX); // index into `found`
        // The newest first, alone: a live recording keeps its rows decoded
        // (SnapshotList::newestRows), and in it most procs have their row.
        std::size_t older = reader.size(); // the snapshots left to scan
        if (older > 0 && profile.snapshots().newestRows()) {
            for (const AggregateRow& r : reader.rows(older - 1)) {
                if (!(has[r.label] & kAtEnd)) {
                    has[r.label] |= kAtEnd;
                    atEnd[r.label] = r;
                    order.push_back(r.label);
                }
            }
            --older;
        }
        reader.forEachBlockBackward(order.size() < labels ? older : 0, [&](std::size_t first, std::size_t end) {
            found.clear();
            for (std::size_t i = first; i < end; ++i) {
                const std::span<const AggregateRow> rows = reader.rows(i);
                for (std::size_t k = 0; k < rows.size(); ++k) {
                    const LabelId label = rows[k].label;
                    if (has[label] & kAtEnd)
                        continue; // a later block has its last row
                    atEnd[label] = rows[k];
                    if (foundAt[label] == UINT32_MAX) {
                        foundAt[label] = std::uint32_t(found.size());
                        found.push_back({i, k, label});
                    } else {
                        found[foundAt[label]].snapshot = i;
                        found[foundAt[label]].row = k;
                    }
                }
            }
            // The order the newest-first scan met them in.
            std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
                return a.snapshot != b.snapshot ? a.snapshot > b.snapshot : a.row < b.row;
            });
            for (const Found& f : found) {
                has[f.label] |= kAtEnd;
                order.push_back(f.label);
            }
            return order.size() < labels;
        });
    } else {
        for (std::size_t i = 0; i < reader.size(); ++i) {
            const Time time = reader.snapshot(i).time();
            if (time > range->to)
                break;
            for (const AggregateRow& r : reader.rows(i)) {
                if (!(has[r.label] & kAtEnd))
                    order.push_back(r.label);
                atEnd[r.label] = r;
                has[r.label] |= kAtEnd;
                if (time <= range->from) {
                    atStart[r.label] = r;
                    has[r.label] |= kAtStart;
                }
            }
        }
    }
    auto minus = [](auto later, auto earlier) { return later >= earlier ? later - earlier : later; };
    const AggregateRow zero;
    for (const LabelId label : order) {
        const AggregateRow& r = atEnd[label];
        const AggregateRow& b = (has[label] & kAtStart) ? atStart[label] : zero;
        RankRow row;
        row.label = label;
        row.hasDistribution = false;
        row.calls = minus(r.calls, b.calls);
        row.stillborn = minus(r.stillborn, b.stillborn);
        row.zombieEvents = minus(r.zombieEvents, b.zombieEvents);
        row.exec = minus(r.exec, b.exec);
        row.total = addClamped(row.exec, minus(r.childrenExec, b.childrenExec));
        row.wall = minus(r.wall, b.wall);
        row.max = r.execMax;
        row.mean = row.calls > 0 ? row.exec / Time(row.calls) : 0;
        if (clip && row.calls + row.stillborn + row.zombieEvents == 0 && row.exec == 0 && row.wall == 0)
            continue;
        table.m_rows.push_back(row);
    }
    table.finish(profile);
    return table;
}

namespace {

// The names of parseSortKey, in the order the CLI's rank table shows them.
constexpr std::pair<std::string_view, RankSortKey> kSortKeys[] = {
    {"exec", RankSortKey::Exec},
    {"busy", RankSortKey::Busy},
    {"total", RankSortKey::Total},
    {"wall", RankSortKey::Wall},
    {"calls", RankSortKey::Calls},
    {"unfinished", RankSortKey::Unfinished},
    {"stillborn", RankSortKey::Stillborn},
    {"primitive", RankSortKey::Primitive},
    {"failed", RankSortKey::Failed},
    {"cancelled", RankSortKey::Cancelled},
    {"zombie", RankSortKey::Zombie},
    {"max", RankSortKey::Max},
    {"mean", RankSortKey::Mean},
    {"p50", RankSortKey::P50},
    {"p90", RankSortKey::P90},
    {"p99", RankSortKey::P99},
    {"wall_max", RankSortKey::WallMax},
    {"wall_p50", RankSortKey::WallP50},
    {"wall_p90", RankSortKey::WallP90},
    {"wall_p99", RankSortKey::WallP99},
    {"delays", RankSortKey::Delays},
    {"delay_sum", RankSortKey::DelaySum},
    {"delay_max", RankSortKey::DelayMax},
    {"delay_p90", RankSortKey::DelayP90},
    {"name", RankSortKey::Name},
    {"file", RankSortKey::File},
};

} // namespace

void RankTable::sort(const Profile& profile, RankSortKey key, bool descending, const SchedulingDelays* delays)
{
    // -1: the row has no such figure (pre-aggregated metrics have no
    // per-call distribution; a label may have no scheduling delay), below
    // every row that has one, as the viewer sorts them.
    auto value = [key, delays](const RankRow& r) -> Time {
        auto perCall = [&r](Time t) { return r.hasDistribution ? t : Time(-1); };
        auto delay = [&r, delays](Time DelayStats::*field) {
            const DelayStats& d = delays ? delays->ofLabel(r.label) : DelayStats{};
            return d.count == 0 ? Time(-1) : d.*field;
        };
        switch (key) {
        case RankSortKey::Exec:
        case RankSortKey::Busy: // exec over one sum: the same order
            return r.exec;
        case RankSortKey::Total:
            return r.total;
        case RankSortKey::Wall:
            return r.wall;
        case RankSortKey::Calls:
            return Time(r.calls);
        case RankSortKey::Unfinished:
            return Time(r.unfinished);
        case RankSortKey::Stillborn:
            return Time(r.stillborn);
        case RankSortKey::Primitive:
            return Time(r.primitive);
        case RankSortKey::Failed:
            return Time(r.failed);
        case RankSortKey::Cancelled:
            return Time(r.cancelled);
        case RankSortKey::Zombie:
            return Time(r.zombieEvents);
        case RankSortKey::Max:
            return r.max;
        case RankSortKey::Mean:
            return r.mean;
        case RankSortKey::P50:
            return perCall(r.p50);
        case RankSortKey::P90:
            return perCall(r.p90);
        case RankSortKey::P99:
            return perCall(r.p99);
        case RankSortKey::WallMax:
            return perCall(r.wallMax);
        case RankSortKey::WallP50:
            return perCall(r.wallP50);
        case RankSortKey::WallP90:
            return perCall(r.wallP90);
        case RankSortKey::WallP99:
            return perCall(r.wallP99);
        case RankSortKey::Delays:
            return delays ? Time(delays->ofLabel(r.label).count) : 0;
        case RankSortKey::DelaySum:
            return delay(&DelayStats::sum);
        case RankSortKey::DelayMax:
            return delay(&DelayStats::max);
        case RankSortKey::DelayP90:
            return delay(&DelayStats::p90);
        case RankSortKey::Name:
        case RankSortKey::File:
            break;
        }
        return 0;
    };
    std::stable_sort(m_rows.begin(), m_rows.end(), [&](const RankRow& a, const RankRow& b) {
        if (key == RankSortKey::Name) {
            // The same name in other files or lines: by file and line, so
            // the order does not depend on the order labels were read in.
            const Label& la = profile.label(a.label);
            const Label& lb = profile.label(b.label);
            const auto ka = std::make_tuple(profile.labelName(a.label), profile.string(la.file), la.line, a.label);
            const auto kb = std::make_tuple(profile.labelName(b.label), profile.string(lb.file), lb.line, b.label);
            return descending ? ka > kb : ka < kb;
        }
        if (key == RankSortKey::File) {
            // file:line, as the viewer's column reads; then by name.
            const Label& la = profile.label(a.label);
            const Label& lb = profile.label(b.label);
            const auto ka = std::make_tuple(profile.string(la.file), la.line, profile.labelName(a.label), a.label);
            const auto kb = std::make_tuple(profile.string(lb.file), lb.line, profile.labelName(b.label), b.label);
            return descending ? ka > kb : ka < kb;
        }
        const Time x = value(a);
        const Time y = value(b);
        if (x != y)
            return descending ? x > y : x < y;
        return a.label < b.label;
    });
}

bool RankTable::parseSortKey(std::string_view text, RankSortKey& key)
{
    for (const auto& [name, value] : kSortKeys) {
        if (name == text) {
            key = value;
            return true;
        }
    }
    return false;
}

std::string RankTable::sortKeys()
{
    std::string names;
    for (const auto& [name, value] : kSortKeys)
        names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

} // namespace runlane
