#include "profilefinisher.h"

#include "creationorder.h"
#include "freshmemory.h"
#include "hugepages.h"
#include "intervalorder.h"
#include "loaderror.h"
#include "parallel.h"
#include "permuteinplace.h"
#include "prefetchdistance.h"
#include "profilebuilder.h"
#include "trackgrouping.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <new>
#include <numeric>
#include <string>
#include <type_traits>

namespace runlane {

namespace {

constexpr MeasurementId kAutoCreator = ProfileBuilder::kAutoCreator;
constexpr Time kOpen = ProfileBuilder::kOpen;

} // namespace

ProfileFinisher::ProfileFinisher(ProfileBuilder&& builder)
    : m_profile(std::move(builder.m_profile))
    , m_tracks(std::move(builder.m_tracks))
    , m_measurements(std::move(builder.m_measurements))
    , m_intervals(std::move(builder.m_intervals))
    , m_marks(std::move(builder.m_marks))
    , m_args(std::move(builder.m_args))
    , m_wakes(std::move(builder.m_wakes))
    , m_flowBinder(std::move(builder.m_flowBinder))
    , m_triggers(std::move(builder.m_triggers))
    , m_createdOn(std::move(builder.m_createdOn))
    , m_mergedTracks(std::move(builder.m_mergedTracks))
    , m_counters(std::move(builder.m_counters))
    , m_labels(std::move(builder.m_labels))
    , m_spanFrom(builder.m_spanFrom)
    , m_spanTo(builder.m_spanTo)
    , m_progress(std::move(builder.m_progress))
    , m_scratch(std::move(builder.m_scratch))
    , m_scratchBytes(builder.m_scratchBytes)
{
    // Step 1, the format's finishing pass, is over (begun or not: reach).
    m_progress.reach(1);
}

ProfileFinisher::~ProfileFinisher() = default;

std::byte* ProfileFinisher::scratch(std::size_t bytes, const std::function<void(std::size_t)>& populated)
{
    if (m_scratchBytes < bytes) {
        m_scratch.reset();
        m_scratch.reset(new std::byte[bytes]);
        m_scratchBytes = bytes;
    }
    // Resident already as far as the read (ProfileBuilder::m_scratch) or
    // an earlier step got to it: asking again for those pages walks their
    // page tables, it does not fault.
    populateForWrite(m_scratch.get(), bytes, populated);
    return m_scratch.get();
}

void ProfileFinisher::releaseScratch()
{
    m_scratch.reset();
    m_scratchBytes = 0;
}

std::string ProfileFinisher::quotedName(MeasurementId id) const
{
    return Diagnostics::quoted(m_profile->m_strings.view(m_labels[m_measurements[id].label].name));
}

std::shared_ptr<const Profile> ProfileFinisher::run(const std::atomic<bool>* cancel)
{
    // Each step begins with a look at the cancel, and so do the long
    // parts' reports (BuildProgress::stopOn).
    m_progress.stopOn(cancel);
    // The names a user reads in the window's banner while a big file's
    // profile is built (LoadControl::building).
    m_progress.begin("ordering the tracks");
    sortTracks();
    m_progress.begin("ending what is still open");
    resolveSpan();
    m_progress.begin("nesting the calls");
    layoutIntervals(cancel);
    m_progress.begin("binding the flows");
    bindFlows();
    m_progress.begin("clamping to lifetimes");
    clampMeasurements();
    m_progress.begin("finding the creators");
    resolveCreators();
    m_progress.begin("numbering in creation order");
    orderMeasurements(cancel);
    m_progress.begin("listing the intervals");
    buildIntervalLists();
    m_progress.begin("naming the tracks");
    finishTracks();
    m_progress.begin("storing the measurements");
    storeMeasurements();
    m_progress.begin("sorting marks and wakes");
    sortEvents();
    m_progress.begin("laying out memory for the views");
    return handOver();
}

std::vector<TrackId> ProfileFinisher::trackOrder(std::span<const TrackInfo> tracks, std::span<const TrackId> merged)
{
    std::vector<TrackId> order(tracks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [tracks](TrackId a, TrackId b) {
        const TrackInfo& x = tracks[a];
        const TrackInfo& y = tracks[b];
        const bool xAsync = x.kind == TrackKind::Async;
        const bool yAsync = y.kind == TrackKind::Async;
        return std::tie(x.processSortIndex, x.pid, xAsync, x.threadSortIndex, x.tid, x.kind)
            < std::tie(y.processSortIndex, y.pid, yAsync, y.threadSortIndex, y.tid, y.kind);
    });
    std::erase_if(order, [merged](TrackId t) { return std::find(merged.begin(), merged.end(), t) != merged.end(); });
    return order;
}

// Step 1. Tracks are presented in a stable, meaningful order whatever order
// the file mentioned them in; ids are renumbered to match, everywhere the
// recording holds one. First, so that every later step (and its warnings)
// sees the final track ids. A track merged into another is gone: nothing
// refers to it any more.
void ProfileFinisher::sortTracks()
{
    const std::vector<TrackId> order = trackOrder(m_tracks, m_mergedTracks);
    std::vector<TrackId> newId(m_tracks.size(), kNone);
    std::vector<TrackInfo> sorted;
    sorted.reserve(m_tracks.size());
    for (TrackId i = 0; i < order.size(); ++i) {
        newId[order[i]] = i;
        sorted.push_back(m_tracks[order[i]]);
    }
    m_tracks = std::move(sorted);
    // On every core: a pass over all measurements, one of the serial
    // stretches between the last byte and the first laid-out track.
    parallelSlices(m_measurements.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            m_measurements[i].track = newId[m_measurements[i].track];
    });
    for (Mark& mark : m_marks) {
        if (mark.track != kNone)
            mark.track = newId[mark.track];
    }
    for (auto& [id, track] : m_createdOn)
        track = newId[track];
    m_flowBinder.renumberTracks(newId);
}

// Step 2. The profile spans everything it mentions. Whatever is still open
// (kOpen) ends there: before layout, which needs real ends to nest by, and
// before clampMeasurements, which compares finish times.
void ProfileFinisher::resolveSpan()
{
    struct Span {
        Time lo;
        Time hi;
        std::size_t open = 0; // times seen open: none, and nothing is left to end
        void see(Time t)
        {
            if (t == kOpen) {
                ++open;
                return;
            }
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    };
    // The two big arrays on every core (a minimum and a maximum are the
    // same in any order), the rest here.
    Span all{m_spanFrom, m_spanTo};
    const auto seeAll = [&all](std::size_t count, const auto& seeOne) {
        for (const Span& part : parallelSlices(count, [&seeOne](std::size_t from, std::size_t to) {
                 Span span{kTimeMax, kTimeMin};
                 for (std::size_t i = from; i < to; ++i)
                     seeOne(i, span);
                 return span;
             })) {
            all.lo = std::min(all.lo, part.lo);
            all.hi = std::max(all.hi, part.hi);
            all.open += part.open;
        }
    };
    seeAll(m_measurements.size(), [this](std::size_t i, Span& span) {
        span.see(m_measurements[i].created);
        span.see(m_measurements[i].finished);
    });
    seeAll(m_intervals.size(), [this](std::size_t i, Span& span) {
        span.see(m_intervals[i].start);
        span.see(m_intervals[i].end);
    });
    for (const Mark& mark : m_marks)
        all.see(mark.time);
    for (const CounterSeries& c : m_counters) {
        for (Time t : c.times)
            all.see(t);
    }
    if (m_profile->m_snapshotsTimed) {
        for (const Snapshot& s : m_profile->m_snapshots)
            all.see(s.time());
    }
    if (all.lo > all.hi)
        all.lo = all.hi = 0;
    const Time lo = all.lo;
    const Time hi = all.hi;
    // Every duration is a difference of two times in the span: a span that
    // does not fit in a Time would make them overflow.
    Time span = 0;
    if (__builtin_sub_overflow(hi, lo, &span))
        throw FormatError("the times in this file span more than 292 years (from " + std::to_string(lo) + " ns to "
                          + std::to_string(hi) + " ns)");
    m_profile->m_start = lo;
    m_profile->m_end = hi;

    // Most files close everything they open: then the two passes below,
    // over both big arrays again, would change nothing.
    if (all.open == 0)
        return;
    parallelSlices(m_intervals.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            if (m_intervals[i].end == kOpen)
                m_intervals[i].end = std::max(hi, m_intervals[i].start);
        }
    });
    parallelSlices(m_measurements.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            if (m_measurements[i].finished == kOpen)
                m_measurements[i].finished = hi;
        }
    });
}

// Step 3. Groups intervals by track, nests each track and lays it out by
// (depth, start), into the profile's interval array. Afterwards interval ids
// are final and `parent` holds real parents; per track, where each depth
// begins (m_depthOffsets); per measurement, its first interval, the end of
// its last, and its interval count (in intervalRef). Needs the final track
// ids (sortTracks) and no open ends (resolveSpan). Frees the recorded
// intervals: from here on only the laid-out ones exist.
void ProfileFinisher::layoutIntervals(const std::atomic<bool>* cancel)
{
    const std::size_t n = m_intervals.size();
    const std::size_t trackCount = m_tracks.size();
    // Where each track's intervals start if they are grouped by track (a
    // loader that lays out one thread after another): then the tracks are
    // sorted where they are, without a copy of them all (a tenth of a
    // second at 8 million).
    const TrackGrouping tracks(m_intervals, m_measurements, trackCount);
    const bool grouped = tracks.grouped();

    // Grouped by track in the scratch buffer, which orderMeasurements
    // takes over for its keys: its pages are then resident already.
    Interval* byTrack = nullptr;
    if (!grouped) {
        // Filling its memory is the first half (seconds at 50 M, as below).
        BuildProgress::Share grouping(m_progress, "grouping the intervals by track");
        byTrack = reinterpret_cast<Interval*>(scratch(n * sizeof(Interval), [&](std::size_t bytes) {
            grouping.at(bytes / sizeof(Interval), 2 * n);
        }));
        tracks.group(byTrack, [&](std::size_t copied) { grouping.at(n + copied, 2 * n); });
    }
    const auto slice = [&](std::size_t t) {
        const std::size_t size = tracks.count(t);
        if (!grouped)
            return std::span<Interval>(byTrack + tracks.begin(t), size);
        return size == 0 ? std::span<Interval>() : std::span<Interval>(m_intervals.data() + tracks.run(t), size);
    };

    // Fresh memory for the final arrays: seconds on the biggest files, on
    // a machine whose host backs the pages as they are first written.
    const std::size_t measurements = m_measurements.size();
    const std::size_t allocating = n * sizeof(Interval) + measurements * (sizeof(IntervalId) + sizeof(Time));
    BuildProgress::Share allocated(m_progress, "allocating memory");
    std::size_t before = 0; // the bytes of the arrays filled before this one
    auto fresh = [&](auto& array, std::size_t size, const auto& value) {
        assignFresh(array, size, value, [&](std::size_t bytes) { allocated.at(before + bytes, allocating); });
        before += size * sizeof(array[0]);
    };
    if (grouped) {
        // The builder's scratch, resident, would add to the peak beside
        // the recorded intervals and the final array: orderMeasurements
        // allocates its own.
        releaseScratch();
        fresh(m_profile->m_intervals, n, Interval());
    } else {
        // The recorded intervals, copied to byTrack, give the final array
        // their pages, as many as it needs: the same count of the same type.
        assignReusing(m_profile->m_intervals, n, Interval(), m_intervals,
                      [&](std::size_t bytes) { allocated.at(bytes, allocating); });
        before += n * sizeof(Interval);
    }
    m_depthOffsets.assign(trackCount, {});
    fresh(m_firstInterval, measurements, kNone);
    fresh(m_lastEnd, measurements, kTimeMin);
    // Tracks are independent: lay them out on every core, biggest first,
    // and report what they found in track order, as one thread would.
    std::vector<std::size_t> order(trackCount);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&tracks](std::size_t a, std::size_t b) { return tracks.count(a) > tracks.count(b); });
    std::vector<IntervalNesting::Log> overlaps(trackCount);
    BuildProgress::Counter laidOut(m_progress, trackCount, "tracks laid out");
    parallelFor(trackCount, [&](std::size_t k) {
        const std::size_t t = order[k];
        layoutTrack(t, slice(t), tracks.begin(t), overlaps[t], cancel);
        laidOut.done();
    });
    laidOut.finish();
    std::vector<Interval>().swap(m_intervals);
    for (const IntervalNesting::Log& log : overlaps) {
        std::uint64_t shown[2] = {0, 0};
        for (const IntervalNesting::Overlap& overlap : log.examples) {
            warnOverlap(overlap);
            ++shown[overlap.cut ? 1 : 0];
        }
        // Beyond the examples only the count is kept (as warnWith would).
        for (const bool cut : {false, true}) {
            for (std::uint64_t k = shown[cut]; k < log.count[cut]; ++k)
                diagnostics().warnWith(cut ? "call ends after its caller" : "overlapping intervals",
                                       [] { return std::string(); });
        }
    }
}

// One track's intervals, from the loader's order to (depth, start) order
// with parent indices, written to their final place. Runs on any thread:
// it touches only this track's slice and output.
void ProfileFinisher::layoutTrack(std::size_t t, std::span<Interval> slice, IntervalId begin, IntervalNesting::Log& overlaps,
                                 const std::atomic<bool>* cancel)
{
    throwIfCancelled(cancel);
    IntervalOrder::sort(slice, cancel);
    throwIfCancelled(cancel);
    std::vector<std::uint32_t> parent;
    std::vector<std::uint32_t> depth;
    assignFresh(parent, slice.size(), kNone);
    assignFresh(depth, slice.size(), 0);
    IntervalNesting nesting(m_measurements, parent, depth, overlaps);
    if (m_tracks[t].kind == TrackKind::Async && m_tracks[t].workerPool)
        nesting.pool(slice);
    else if (m_tracks[t].kind == TrackKind::Async)
        nesting.async(slice);
    else
        nesting.thread(slice);
    throwIfCancelled(cancel);

    // Counting sort by depth keeps start order within each depth.
    std::uint32_t depthCount = 0;
    for (std::uint32_t d : depth)
        depthCount = std::max(depthCount, d + 1);
    std::vector<IntervalId>& offsets = m_depthOffsets[t];
    offsets.assign(depthCount + 1, 0);
    for (std::uint32_t d : depth)
        ++offsets[d + 1];
    offsets[0] = begin;
    for (std::uint32_t d = 0; d < depthCount; ++d)
        offsets[d + 1] += offsets[d];
    std::vector<IntervalId> cursor(offsets.begin(), offsets.end() - 1);
    std::vector<std::uint32_t> newIndex;
    assignFresh(newIndex, slice.size());
    for (std::uint32_t i = 0; i < slice.size(); ++i)
        newIndex[i] = cursor[depth[i]]++;
    std::vector<Interval>& out = m_profile->m_intervals;
    for (std::uint32_t i = 0; i < slice.size(); ++i) {
        Interval iv = slice[i];
        iv.parent = parent[i] == kNone ? kNone : newIndex[parent[i]];
        out[newIndex[i]] = iv;
    }
    // A measurement's intervals are all on its track, so its first, last
    // and count are found here, on this track's thread: the earliest
    // start, on a tie the first in the final order, as one loop over all
    // intervals in id order would. The loop runs in start order, where
    // neighbours in time have ids near in the file, so that it sweeps the
    // per-measurement arrays once, not once per depth (in the final order
    // it was a fifth of the layout's time at 16 M intervals). The count is
    // kept in intervalRef (0 from addMeasurement) until buildIntervalLists
    // makes that the reference: it moves with the measurement when they
    // are ordered, at no cost in memory.
    for (std::uint32_t i = 0; i < slice.size(); ++i) {
        if (i + kPrefetchDistance < slice.size()) {
            const MeasurementId ahead = slice[i + kPrefetchDistance].measurement;
            __builtin_prefetch(&m_measurements[ahead]);
            __builtin_prefetch(&m_firstInterval[ahead]);
            __builtin_prefetch(&m_lastEnd[ahead]);
        }
        const Interval& iv = slice[i];
        IntervalId& first = m_firstInterval[iv.measurement];
        const IntervalId at = newIndex[i];
        if (first == kNone || iv.start < out[first].start || (iv.start == out[first].start && at < first))
            first = at;
        m_lastEnd[iv.measurement] = std::max(m_lastEnd[iv.measurement], iv.end);
        ++m_measurements[iv.measurement].intervalRef;
    }
}

void ProfileFinisher::warnOverlap(const IntervalNesting::Overlap& overlap)
{
    const std::string child = quotedName(overlap.child.measurement);
    const std::string parent = quotedName(overlap.parent.measurement);
    if (overlap.cut) {
        diagnostics().warnWith("call ends after its caller", [&] {
            return "call " + child + " starts inside " + parent + " but ends "
                + std::to_string(overlap.child.end - overlap.parent.end) + " ns after it; cut at its end";
        });
        return;
    }
    diagnostics().warnWith("overlapping intervals",
                           [&] { return child + " starts inside " + parent + " but ends after it; kept as its child"; });
}

// Step 4. Flow points become flows between intervals. Needs the laid-out
// intervals (interval ids are final, depths known) and measurements not yet
// renumbered, as the flow points that name a slice by its measurement
// expect: so before orderMeasurements.
void ProfileFinisher::bindFlows()
{
    if (m_flowBinder.empty())
        return;
    auto describe = [this](const FlowBinder::Point& p) {
        std::string text = "flow ";
        if (p.name != kEmptyString)
            text += Diagnostics::quoted(m_profile->m_strings.view(p.name)) + " ";
        text += "(event #" + std::to_string(p.order) + ") at " + std::to_string(p.time) + " ns";
        if (p.track < m_tracks.size())
            text += " on pid " + std::to_string(m_tracks[p.track].pid) + " / tid " + std::to_string(m_tracks[p.track].tid);
        return text;
    };
    std::vector<Flow> flows = m_flowBinder.bind(m_profile->m_intervals, m_depthOffsets, diagnostics(), describe);
    std::sort(flows.begin(), flows.end(),
              [](const Flow& a, const Flow& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); });
    std::vector<std::uint32_t> byTarget(flows.size());
    std::iota(byTarget.begin(), byTarget.end(), 0);
    std::sort(byTarget.begin(), byTarget.end(), [&flows](std::uint32_t a, std::uint32_t b) {
        return std::tie(flows[a].to, flows[a].from, a) < std::tie(flows[b].to, flows[b].from, b);
    });
    m_profile->m_flows = std::move(flows);
    m_profile->m_flowsByTarget = std::move(byTarget);
    m_profile->m_unboundFlowEnds = m_flowBinder.unboundCount();
}

// Step 5. A measurement cannot run before it exists nor after it finished;
// formats that carry both facts separately can contradict themselves. Needs
// each measurement's first interval and last end (layout) and no open
// finish (resolveSpan); resolveCreators and orderMeasurements need the
// repaired creation times. Each
// measurement is fixed on its own, on every core; the warnings are given
// afterwards in id order, as one loop would give them.
void ProfileFinisher::clampMeasurements()
{
    enum Fix : std::uint8_t { CreatedAtStart, FinishedAtCreation, FinishedAfterRunning };
    // Each fix's warning: kind, then what goes between the name and the ns.
    static constexpr std::array<std::array<const char*, 3>, 3> kWarnings{{
        {"started before created", " starts running ", " ns before it is created; creation moved to its start"},
        {"finished before created", " finishes ", " ns before it is created; moved to its creation"},
        {"ran after finished", " is still running ", " ns after it finished; finish moved"},
    }};
    struct Found {
        MeasurementId id;
        Fix fix;
        Time by; // ns the measurement was moved
    };
    const auto& intervals = m_profile->m_intervals;
    const std::vector<std::vector<Found>> found = parallelSlices(m_measurements.size(), [&](std::size_t from, std::size_t to) {
        std::vector<Found> out;
        for (MeasurementId id = MeasurementId(from); id < to; ++id) {
            if (id + kPrefetchDistance < to && m_firstInterval[id + kPrefetchDistance] != kNone)
                __builtin_prefetch(&intervals[m_firstInterval[id + kPrefetchDistance]]);
            Measurement& m = m_measurements[id];
            const bool ran = m_firstInterval[id] != kNone;
            if (ran && m.created > intervals[m_firstInterval[id]].start) {
                const Time firstStart = intervals[m_firstInterval[id]].start;
                out.push_back({id, CreatedAtStart, m.created - firstStart});
                m.created = firstStart;
            }
            if (m.finished < m.created) {
                out.push_back({id, FinishedAtCreation, m.created - m.finished});
                m.finished = m.created;
            }
            if ((m.flags & Call) && ran && m_lastEnd[id] < m.finished) {
                // Cut at its caller's end while nesting (warned there): it
                // ends there too, and is no longer open at the profile's end.
                m.finished = m_lastEnd[id];
                if (m.finalState() == FinalState::Unfinished)
                    m.state = std::uint32_t(FinalState::Ended);
            }
            if (ran && m.finished < m_lastEnd[id]) {
                out.push_back({id, FinishedAfterRunning, m_lastEnd[id] - m.finished});
                m.finished = m_lastEnd[id];
            }
        }
        return out;
    });
    for (const std::vector<Found>& slice : found) {
        for (const Found& f : slice) {
            const auto& text = kWarnings[f.fix]; // kind, then around the ns
            diagnostics().warnWith(text[0], [&] {
                return quotedName(f.id) + text[1] + std::to_string(f.by) + text[2];
            });
        }
    }
    // Nothing after needs the last ends: gone before orderMeasurements,
    // the peak of a load's memory, which would otherwise renumber them.
    std::vector<Time>().swap(m_lastEnd);
}

// Step 6. Creators the format left to derive (kAutoCreator, setCreatedOn):
// what ran innermost on the track when the measurement was created
// (semantics.md §2). Needs the laid-out intervals and their parents and the
// repaired creation times (clampMeasurements); a creator created after what
// it creates is cut, so that orderMeasurements can put creators first.
void ProfileFinisher::resolveCreators()
{
    const auto& intervals = m_profile->m_intervals;
    for (const auto& [id, track] : m_createdOn)
        m_measurements[id].creator = innermostRunningAt(intervals, m_depthOffsets[track], m_measurements[id].created);
    // Each measurement's creator on its own, on every core: it reads only
    // the laid-out intervals and creation times (which no longer change)
    // and writes only this measurement's creator. A creator created later
    // is none, warned about afterwards in id order. (Prefetching its parent
    // and creator kPrefetchDistance ahead, as the other loops do, gained
    // nothing here.)
    const std::vector<std::vector<std::pair<MeasurementId, MeasurementId>>> cut =
        parallelSlices(m_measurements.size(), [&](std::size_t from, std::size_t to) {
            std::vector<std::pair<MeasurementId, MeasurementId>> out;
            for (MeasurementId id = MeasurementId(from); id < to; ++id) {
                Measurement& m = m_measurements[id];
                if (m.creator == kAutoCreator) {
                    const IntervalId first = m_firstInterval[id];
                    if (first != kNone && m.created >= intervals[first].start) {
                        // Created as it started: whoever it interrupted created it.
                        const IntervalId p = intervals[first].parent;
                        m.creator = p == kNone ? kNone : intervals[p].measurement;
                    } else {
                        // Created before it ran: whoever was running at its creation.
                        m.creator = innermostRunningAt(intervals, m_depthOffsets[m.track], m.created);
                    }
                    if (m.creator == id)
                        m.creator = kNone;
                }
                if (m.creator != kNone && m_measurements[m.creator].created > m.created) {
                    out.emplace_back(id, m.creator);
                    m.creator = kNone;
                }
            }
            return out;
        });
    for (const auto& slice : cut) {
        for (const auto& pair : slice) {
            diagnostics().warnWith("created before its creator", [&] {
                return quotedName(pair.first) + " is created before its creator "
                    + quotedName(pair.second) + "; made a root";
            });
        }
    }
}

MeasurementId ProfileFinisher::innermostRunningAt(std::span<const Interval> intervals,
                                                  std::span<const IntervalId> depthOffsets, Time t)
{
    for (std::size_t d = depthOffsets.size(); d-- > 1;) {
        const Interval* first = intervals.data() + depthOffsets[d - 1];
        const Interval* last = intervals.data() + depthOffsets[d];
        const Interval* it = std::partition_point(first, last, [t](const Interval& iv) { return iv.end <= t; });
        if (it != last && it->start <= t && t < it->end)
            return it->measurement;
    }
    return kNone;
}

// Step 7. Measurements are numbered in creation order (CreationOrder),
// creators first: analyses rely on creator < id. Needs the final creators
// (resolveCreators); renumbers everything that names a measurement
// (intervals, triggers, wakes, the layout's per-measurement arrays), so
// that the steps after it see the final ids.
void ProfileFinisher::orderMeasurements(const std::atomic<bool>* cancel)
{
    const std::size_t count = m_measurements.size();
    // Element-wise loops over millions of entries run on every core.
    // Buffers are freed as soon as done with: this is the peak of a load's
    // memory.
    auto slicesOf = [cancel](std::size_t n, auto&& fn) {
        parallelSlices(n, [&](std::size_t from, std::size_t to) {
            throwIfCancelled(cancel);
            fn(from, to);
        });
    };
    std::vector<MeasurementId> newId = CreationOrder::newIds(
        m_measurements, m_firstInterval, scratch(count * CreationOrder::kScratchBytes), diagnostics(), m_progress);
    releaseScratch();
    if (newId.empty())
        return;
    // Everything that names a measurement is renamed before the
    // measurements move, which consumes newId.
    slicesOf(count, [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            MeasurementId& creator = m_measurements[i].creator;
            if (creator != kNone)
                creator = newId[creator];
        }
    });
    for (Profile::Trigger& t : m_triggers)
        t = {newId[t.measurement], newId[t.triggeredBy]};
    for (Wake& wake : m_wakes)
        wake.task = newId[wake.task];
    for (Profile::Args& a : m_args)
        a.measurement = newId[a.measurement];
    std::vector<Interval>& intervals = m_profile->m_intervals;
    slicesOf(intervals.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            intervals[i].measurement = newId[intervals[i].measurement];
    });
    // The measurements (and their first intervals) moved into their new
    // order in place: a copy in the new order beside them was the load's
    // peak.
    BuildProgress::Share moving(m_progress, "moving the measurements");
    permuteInPlace(
        std::span<MeasurementId>(newId),
        [cancel, &moving, count](std::size_t done) {
            throwIfCancelled(cancel);
            moving.at(done, 2 * count);
        },
        m_measurements, m_firstInterval);
}

// Step 8. A measurement of one interval refers to it; one of several to its
// list in m_intervalLists (a count, then the ids by start), lists in id
// order. Needs the final measurement ids (orderMeasurements) and the counts
// layout left in intervalRef, which this turns into the reference. Each
// part runs on every core and gives what one loop would.
void ProfileFinisher::buildIntervalLists()
{
    const auto& intervals = m_profile->m_intervals;
    const std::size_t count = m_measurements.size();
    const auto listSize = [](std::uint32_t c) -> std::size_t { return c > 1 ? c + 1 : 0; };
    std::vector<std::size_t> sliceBegin = parallelSlices(count, [&](std::size_t from, std::size_t to) {
        std::size_t size = 0;
        for (std::size_t id = from; id < to; ++id)
            size += listSize(m_measurements[id].intervalRef); // the count, until below
        return size;
    });
    std::size_t total = 1; // the shared empty list
    for (std::size_t& begin : sliceBegin)
        total += std::exchange(begin, total);
    std::vector<IntervalId>& lists = m_profile->m_intervalLists;
    assignFresh(lists, total);
    parallelSlices(count, [&](std::size_t from, std::size_t to) {
        std::size_t next = sliceBegin[from / kParallelSlice];
        for (std::size_t id = from; id < to; ++id) {
            Measurement& m = m_measurements[id];
            const std::uint32_t c = m.intervalRef;
            if (c == 1) {
                m.flags |= SingleInterval;
                m.intervalRef = m_firstInterval[id];
            } else if (c > 1) {
                m.intervalRef = std::uint32_t(next);
                next += listSize(c);
            }
        }
    });
    // Filled in any order: each list is sorted next.
    parallelSlices(intervals.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            if (i + kPrefetchDistance < to)
                __builtin_prefetch(&m_measurements[intervals[i + kPrefetchDistance].measurement]);
            const Measurement& m = m_measurements[intervals[i].measurement];
            if (m.flags & SingleInterval)
                continue;
            const IntervalId n = std::atomic_ref<IntervalId>(lists[m.intervalRef]).fetch_add(1, std::memory_order_relaxed);
            lists[m.intervalRef + 1 + n] = IntervalId(i);
        }
    });
    parallelSlices(count, [&](std::size_t from, std::size_t to) {
        for (std::size_t id = from; id < to; ++id) {
            const Measurement& m = m_measurements[id];
            if ((m.flags & SingleInterval) || m.intervalRef == 0)
                continue;
            IntervalId* first = lists.data() + m.intervalRef + 1;
            std::sort(first, first + lists[m.intervalRef], [&intervals](IntervalId a, IntervalId b) {
                return intervals[a].start != intervals[b].start ? intervals[a].start < intervals[b].start : a < b;
            });
        }
    });
}

// Step 9. The profile's tracks: what the format said of each, where its
// depths begin (layout) and the name it shows.
void ProfileFinisher::finishTracks()
{
    std::vector<Track>& tracks = m_profile->m_tracks;
    tracks.resize(m_tracks.size());
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        Track& track = tracks[t];
        static_cast<TrackInfo&>(track) = m_tracks[t];
        track.depthOffsets = std::move(m_depthOffsets[t]);
        track.begin = track.depthOffsets.front();
        track.end = track.depthOffsets.back();
        track.name = track.displayName != kEmptyString ? track.displayName
                                                       : m_profile->m_strings.intern(Profile::nameOf(track, m_profile->m_strings));
    }
    m_profile->indexTracks();
}

// Step 10. The profile keeps its measurements as it likes best
// (Profile::keepMeasurements). Needs the final interval lists
// (buildIntervalLists) and tracks (finishTracks).
void ProfileFinisher::storeMeasurements()
{
    m_profile->keepMeasurements(std::move(m_measurements), m_labels.size());
}

// Step 11. Marks by time, wakes by task then time, triggers and args by
// the measurement they belong to, counter points by time: the orders the
// views and analyses search them in. Wakes, triggers and args need their
// final ids (orderMeasurements).
void ProfileFinisher::sortEvents()
{
    // A measurement's last args replace those before (setArgs); empty ones
    // take no room.
    std::stable_sort(m_args.begin(), m_args.end(),
                     [](const Profile::Args& a, const Profile::Args& b) { return a.measurement < b.measurement; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        const bool last = i + 1 == m_args.size() || m_args[i + 1].measurement != m_args[i].measurement;
        if (last && m_args[i].json != kEmptyString)
            m_args[kept++] = m_args[i];
    }
    m_args.resize(kept);
    std::sort(m_triggers.begin(), m_triggers.end(), [](const auto& a, const auto& b) { return a.measurement < b.measurement; });
    std::stable_sort(m_marks.begin(), m_marks.end(), [](const Mark& a, const Mark& b) { return a.time < b.time; });
    std::stable_sort(m_wakes.begin(), m_wakes.end(),
                     [](const Wake& a, const Wake& b) { return std::tie(a.task, a.time) < std::tie(b.task, b.time); });
    for (CounterSeries& c : m_counters)
        c.sortByTime();
}

// Step 12. The rest of what was recorded moves into the profile, which is
// complete and from now on read-only. The recording's vectors grew by
// doubling; the profile keeps exact sizes.
std::shared_ptr<const Profile> ProfileFinisher::handOver()
{
    m_labels.shrink_to_fit();
    m_marks.shrink_to_fit();
    m_profile->m_labels = std::move(m_labels);
    m_profile->m_marks = std::move(m_marks);
    m_args.shrink_to_fit();
    m_profile->m_args = std::move(m_args);
    m_wakes.shrink_to_fit();
    m_profile->m_wakes = std::move(m_wakes);
    m_profile->m_counters = std::move(m_counters);
    m_profile->m_triggers = std::move(m_triggers);
    // What a paint and the analyses read at random, in huge pages.
    const Profile& p = *m_profile;
    collapseToHugePages(p.m_intervals.data(), p.m_intervals.size() * sizeof(Interval));
    collapseToHugePages(p.m_measurementLabels.data(), p.m_measurementLabels.size() * sizeof(p.m_measurementLabels[0]));
    collapseToHugePages(p.m_measurementLabelsWide.data(), p.m_measurementLabelsWide.size() * sizeof(LabelId));
    collapseToHugePages(p.m_measurementRefs.data(), p.m_measurementRefs.size() * sizeof(std::uint32_t));
    return std::shared_ptr<const Profile>(m_profile.release());
}

} // namespace runlane
