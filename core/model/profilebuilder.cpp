#include "profilebuilder.h"

#include "cancellableless.h"
#include "loaderror.h"
#include "parallel.h"

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <numeric>
#include <utility>

namespace runlane {

namespace {

std::string quoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text.substr(0, 80));
    if (text.size() > 80)
        out += "...";
    out += '\'';
    return out;
}

} // namespace

ProfileBuilder::ProfileBuilder(std::string formatName, std::string sourcePath)
    : m_profile(std::make_unique<Profile>())
{
    m_profile->m_format = std::move(formatName);
    m_profile->m_sourcePath = std::move(sourcePath);
}

ProfileBuilder::~ProfileBuilder() = default;

LabelId ProfileBuilder::label(StringId name, StringId file, std::int32_t line)
{
    if (file == kEmptyString && line == 0) {
        if (name >= m_bareLabel.size())
            m_bareLabel.resize(std::max<std::size_t>(name + 1, m_bareLabel.size() * 2), kNone);
        LabelId& bare = m_bareLabel[name];
        if (bare == kNone) {
            bare = LabelId(m_labels.size());
            m_labels.push_back(Label{name, file, line});
        }
        return bare;
    }
    const Label key{name, file, line};
    auto it = m_labelIndex.find(key);
    if (it != m_labelIndex.end())
        return it->second;
    const auto id = LabelId(m_labels.size());
    m_labels.push_back(key);
    m_labelIndex.emplace(key, id);
    return id;
}

LabelId ProfileBuilder::label(std::string_view name, std::string_view file, std::int32_t line)
{
    return label(intern(name), intern(file), line);
}

TrackId ProfileBuilder::addTrack(const TrackInfo& info)
{
    if (m_tracks.size() >= kMaxTracks)
        throw FormatError("more than " + std::to_string(kMaxTracks) + " threads or processes");
    m_tracks.push_back(info);
    return TrackId(m_tracks.size() - 1);
}

void ProfileBuilder::reserve(std::size_t count)
{
    m_measurements.reserve(count);
    m_intervals.reserve(count);
}

MeasurementId ProfileBuilder::addMeasurement(TrackId track, LabelId label, Time created, MeasurementId creator,
                                             std::uint8_t flags)
{
    if (m_measurements.size() >= kAutoCreator - 1)
        throw FormatError("too many measurements");
    Measurement m;
    m.created = created;
    m.finished = kOpen;
    m.label = label;
    m.creator = (creator == kNone || creator == kAutoCreator || creator < m_measurements.size()) ? creator : kNone;
    m.track = track;
    m.state = std::uint32_t(FinalState::Unfinished);
    m.flags = flags & (AsyncMeasurement | BornFinished | CreatorUnknown);
    m_measurements.push_back(m);
    return MeasurementId(m_measurements.size() - 1);
}

void ProfileBuilder::addInterval(MeasurementId measurement, Time start, Time end, std::uint32_t order)
{
    if (end < start) {
        diagnostics().warnWith("negative duration", [&] {
            return "interval of " + quoted(string(m_labels[m_measurements[measurement].label].name)) + " ends "
                + std::to_string(start - end) + " ns before it starts; made zero-length";
        });
        end = start;
    }
    m_intervals.push_back(Interval{start, end, measurement, order});
}

void ProfileBuilder::finish(MeasurementId measurement, Time at, FinalState state)
{
    Measurement& m = m_measurements[measurement];
    m.finished = at;
    m.state = std::uint32_t(state);
}

MeasurementId ProfileBuilder::addCall(TrackId track, LabelId label, Time start, Time end, std::uint32_t order)
{
    const MeasurementId id = addMeasurement(track, label, start, kAutoCreator);
    m_measurements[id].flags |= Call;
    addInterval(id, start, end, order);
    if (end != kOpen)
        finish(id, end, FinalState::Completed);
    return id;
}

std::size_t ProfileBuilder::addCounter(StringId name, StringId key, std::int64_t pid)
{
    CounterSeries series;
    series.name = name;
    series.key = key;
    series.pid = pid;
    m_counters.push_back(std::move(series));
    return m_counters.size() - 1;
}

void ProfileBuilder::addCounterPoint(std::size_t counter, Time t, double value)
{
    m_counters[counter].times.push_back(t);
    m_counters[counter].values.push_back(value);
}

std::vector<std::size_t> ProfileBuilder::intervalsPerTrack() const
{
    std::vector<std::size_t> counts(m_tracks.size(), 0);
    for (const Interval& iv : m_intervals)
        ++counts[m_measurements[iv.measurement].track];
    return counts;
}

void ProfileBuilder::checkCancel(const std::atomic<bool>* cancel) const
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw LoadCancelled();
}

std::shared_ptr<const Profile> ProfileBuilder::build(const std::atomic<bool>* cancel)
{
    checkCancel(cancel);
    sortTracks();
    resolveSpan();
    layoutIntervals(cancel);
    checkCancel(cancel);
    bindFlows();
    checkCancel(cancel);
    clampMeasurements();
    checkCancel(cancel);
    resolveCreators();
    checkCancel(cancel);
    orderMeasurements(cancel);
    checkCancel(cancel);
    buildIntervalLists();
    finishTracks();

    std::stable_sort(m_marks.begin(), m_marks.end(), [](const Mark& a, const Mark& b) { return a.time < b.time; });
    std::stable_sort(m_wakes.begin(), m_wakes.end(),
                     [](const Wake& a, const Wake& b) { return std::tie(a.task, a.time) < std::tie(b.task, b.time); });
    for (CounterSeries& c : m_counters)
        c.sortByTime();

    // The builder's vectors grew by doubling; the profile keeps exact sizes.
    m_labels.shrink_to_fit();
    m_measurements.shrink_to_fit();
    m_marks.shrink_to_fit();
    m_profile->m_labels = std::move(m_labels);
    m_profile->m_measurements = std::move(m_measurements);
    m_profile->m_marks = std::move(m_marks);
    m_wakes.shrink_to_fit();
    m_profile->m_wakes = std::move(m_wakes);
    m_profile->m_counters = std::move(m_counters);
    return std::shared_ptr<const Profile>(m_profile.release());
}

// Tracks are presented in a stable, meaningful order whatever order the file
// mentioned them in; ids are renumbered to match.
void ProfileBuilder::sortTracks()
{
    std::vector<TrackId> order(m_tracks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](TrackId a, TrackId b) {
        const TrackInfo& x = m_tracks[a];
        const TrackInfo& y = m_tracks[b];
        // A thread's sampled stacks right after its traced slices; the
        // process's async tasks after all its threads.
        const bool xAsync = x.kind == TrackKind::Async;
        const bool yAsync = y.kind == TrackKind::Async;
        return std::tie(x.processSortIndex, x.pid, xAsync, x.threadSortIndex, x.tid, x.kind)
            < std::tie(y.processSortIndex, y.pid, yAsync, y.threadSortIndex, y.tid, y.kind);
    });
    // A track merged into another (OutermostTasks::mergeTrack) is gone:
    // nothing refers to it any more.
    std::erase_if(order, [this](TrackId t) { return std::find(m_mergedTracks.begin(), m_mergedTracks.end(), t) != m_mergedTracks.end(); });
    std::vector<TrackId> newId(m_tracks.size(), kNone);
    std::vector<TrackInfo> sorted;
    sorted.reserve(m_tracks.size());
    for (TrackId i = 0; i < order.size(); ++i) {
        newId[order[i]] = i;
        sorted.push_back(m_tracks[order[i]]);
    }
    m_tracks = std::move(sorted);
    for (Measurement& m : m_measurements)
        m.track = newId[m.track];
    for (Mark& mark : m_marks) {
        if (mark.track != kNone)
            mark.track = newId[mark.track];
    }
    for (auto& [id, track] : m_createdOn)
        track = newId[track];
    m_flowBinder.renumberTracks(newId);
}

// The profile spans everything it mentions. Whatever is still open ends there.
void ProfileBuilder::resolveSpan()
{
    Time lo = m_spanFrom;
    Time hi = m_spanTo;
    auto see = [&lo, &hi](Time t) {
        if (t == kOpen)
            return;
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    };
    for (const Measurement& m : m_measurements) {
        see(m.created);
        see(m.finished);
    }
    for (const Interval& iv : m_intervals) {
        see(iv.start);
        see(iv.end);
    }
    for (const Mark& mark : m_marks)
        see(mark.time);
    for (const CounterSeries& c : m_counters) {
        for (Time t : c.times)
            see(t);
    }
    if (m_profile->m_snapshotsTimed) {
        for (const Snapshot& s : m_profile->m_snapshots)
            see(s.time());
    }
    if (lo > hi)
        lo = hi = 0;
    // Every duration is a difference of two times in the span: a span that
    // does not fit in a Time would make them overflow.
    Time span = 0;
    if (__builtin_sub_overflow(hi, lo, &span))
        throw FormatError("the times in this file span more than 292 years (from " + std::to_string(lo) + " ns to "
                          + std::to_string(hi) + " ns)");
    m_profile->m_start = lo;
    m_profile->m_end = hi;

    for (Interval& iv : m_intervals) {
        if (iv.end == kOpen)
            iv.end = std::max(hi, iv.start);
    }
    for (Measurement& m : m_measurements) {
        if (m.finished == kOpen)
            m.finished = hi;
    }
}

void ProfileBuilder::warnOverlap(const IntervalNesting::Overlap& overlap)
{
    const std::string child = quoted(string(m_labels[m_measurements[overlap.child.measurement].label].name));
    const std::string parent = quoted(string(m_labels[m_measurements[overlap.parent.measurement].label].name));
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

// Groups intervals by track, nests each track and lays it out by (depth,
// start). Afterwards interval ids are final and `parent` holds real parents.
// One track's intervals, from the loader's order to (depth, start) order
// with parent indices, written to their final place. Runs on any thread:
// it touches only this track's slice and output.
void ProfileBuilder::layoutTrack(std::size_t t, std::span<Interval> slice, IntervalId begin, IntervalNesting::Log& overlaps,
                                 const std::atomic<bool>* cancel)
{
    checkCancel(cancel);
    std::sort(slice.begin(), slice.end(), CancellableLess(cancel, [](const Interval& a, const Interval& b) {
                  if (a.start != b.start)
                      return a.start < b.start;
                  if (a.end != b.end)
                      return a.end > b.end;
                  return a.parent < b.parent; // the order given by the loader
              }));
    checkCancel(cancel);
    std::vector<std::uint32_t> parent(slice.size(), kNone);
    std::vector<std::uint32_t> depth(slice.size(), 0);
    IntervalNesting nesting(m_measurements, parent, depth, overlaps);
    if (m_tracks[t].kind == TrackKind::Async && m_tracks[t].workerPool)
        nesting.pool(slice);
    else if (m_tracks[t].kind == TrackKind::Async)
        nesting.async(slice);
    else
        nesting.thread(slice);
    checkCancel(cancel);

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
    std::vector<std::uint32_t> newIndex(slice.size());
    for (std::uint32_t i = 0; i < slice.size(); ++i)
        newIndex[i] = cursor[depth[i]]++;
    std::vector<Interval>& out = m_profile->m_intervals;
    for (std::uint32_t i = 0; i < slice.size(); ++i) {
        Interval iv = slice[i];
        iv.parent = parent[i] == kNone ? kNone : newIndex[parent[i]];
        out[newIndex[i]] = iv;
    }
    // A measurement's intervals are all on its track, so its first, last
    // and count are found here, on this track's thread, in id order as one
    // loop over all intervals would. The count is kept in intervalRef (0
    // from addMeasurement) until buildIntervalLists makes that the
    // reference: it moves with the measurement when they are ordered, at no
    // cost in memory.
    for (IntervalId i = begin; i < begin + slice.size(); ++i) {
        const Interval& iv = out[i];
        IntervalId& first = m_firstInterval[iv.measurement];
        if (first == kNone || iv.start < out[first].start)
            first = i;
        m_lastEnd[iv.measurement] = std::max(m_lastEnd[iv.measurement], iv.end);
        ++m_measurements[iv.measurement].intervalRef;
    }
}

void ProfileBuilder::layoutIntervals(const std::atomic<bool>* cancel)
{
    const std::size_t n = m_intervals.size();
    const std::size_t trackCount = m_tracks.size();
    std::vector<IntervalId> begin(trackCount + 1, 0);
    // Where each track's intervals start in m_intervals if they are
    // grouped by track (a loader that lays out one thread after another):
    // then the tracks are sorted where they are, without a copy of them
    // all (a tenth of a second at 8 million).
    constexpr IntervalId kUnseen = kNone;
    std::vector<IntervalId> run(trackCount, kUnseen);
    bool grouped = true;
    TrackId current = kNone;
    for (IntervalId i = 0; i < n; ++i) {
        const TrackId t = m_measurements[m_intervals[i].measurement].track;
        ++begin[t + 1];
        if (t != current) {
            grouped = grouped && run[t] == kUnseen;
            run[t] = i;
            current = t;
        }
    }
    for (std::size_t t = 0; t < trackCount; ++t)
        begin[t + 1] += begin[t];

    std::vector<Interval> byTrack;
    if (!grouped) {
        byTrack.resize(n);
        std::vector<IntervalId> cursor(begin.begin(), begin.end() - 1);
        for (const Interval& iv : m_intervals)
            byTrack[cursor[m_measurements[iv.measurement].track]++] = iv;
        std::vector<Interval>().swap(m_intervals);
    }
    const auto slice = [&](std::size_t t) {
        const std::size_t size = begin[t + 1] - begin[t];
        if (!grouped)
            return std::span<Interval>(byTrack.data() + begin[t], size);
        return size == 0 ? std::span<Interval>() : std::span<Interval>(m_intervals.data() + run[t], size);
    };

    m_profile->m_intervals.resize(n);
    m_depthOffsets.assign(trackCount, {});
    m_firstInterval.assign(m_measurements.size(), kNone);
    m_lastEnd.assign(m_measurements.size(), kTimeMin);
    // Tracks are independent: lay them out on every core, biggest first,
    // and report what they found in track order, as one thread would.
    std::vector<std::size_t> order(trackCount);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&begin](std::size_t a, std::size_t b) { return begin[a + 1] - begin[a] > begin[b + 1] - begin[b]; });
    std::vector<IntervalNesting::Log> overlaps(trackCount);
    parallelFor(trackCount, [&](std::size_t k) {
        const std::size_t t = order[k];
        layoutTrack(t, slice(t), begin[t], overlaps[t], cancel);
    });
    std::vector<Interval>().swap(m_intervals);
    std::vector<Interval>().swap(byTrack);
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

// Interval ids are final once laid out; measurements are not yet renumbered,
// as the flow points that name a slice by its measurement expect.
void ProfileBuilder::bindFlows()
{
    if (m_flowBinder.empty())
        return;
    auto describe = [this](const FlowBinder::Point& p) {
        std::string text = "flow ";
        if (p.name != kEmptyString)
            text += quoted(string(p.name)) + " ";
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

// A measurement cannot run before it exists nor after it finished; formats
// that carry both facts separately can contradict themselves. Each
// measurement is fixed on its own, on every core; the warnings are given
// afterwards in id order, as one loop would give them.
void ProfileBuilder::clampMeasurements()
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
                return quoted(string(m_labels[m_measurements[f.id].label].name)) + text[1] + std::to_string(f.by) + text[2];
            });
        }
    }
}

MeasurementId ProfileBuilder::innermostRunningAt(TrackId track, Time t) const
{
    const auto& intervals = m_profile->m_intervals;
    const std::vector<IntervalId>& offsets = m_depthOffsets[track];
    for (std::size_t d = offsets.size() - 1; d-- > 0;) {
        const Interval* first = intervals.data() + offsets[d];
        const Interval* last = intervals.data() + offsets[d + 1];
        const Interval* it = std::partition_point(first, last, [t](const Interval& iv) { return iv.end <= t; });
        if (it != last && it->start <= t && t < it->end)
            return it->measurement;
    }
    return kNone;
}

void ProfileBuilder::resolveCreators()
{
    const auto& intervals = m_profile->m_intervals;
    for (const auto& [id, track] : m_createdOn)
        m_measurements[id].creator = innermostRunningAt(track, m_measurements[id].created);
    // Each measurement's creator on its own, on every core: it reads only
    // the laid-out intervals and creation times (which no longer change)
    // and writes only this measurement's creator. A creator created later
    // is none, warned about afterwards in id order.
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
                        m.creator = innermostRunningAt(m.track, m.created);
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
                return quoted(string(m_labels[m_measurements[pair.first].label].name)) + " is created before its creator "
                    + quoted(string(m_labels[m_measurements[pair.second].label].name)) + "; made a root";
            });
        }
    }
}

// Depth of each measurement in the creation tree. Cycles cannot come from
// well-formed input but a hostile file can state them; they are cut.
std::vector<std::uint32_t> ProfileBuilder::creationDepths()
{
    constexpr std::uint32_t kUnknown = kNone;
    constexpr std::uint32_t kOnPath = kNone - 1;
    std::vector<std::uint32_t> depth(m_measurements.size(), kUnknown);
    std::vector<MeasurementId> path;
    for (MeasurementId id = 0; id < m_measurements.size(); ++id) {
        if (depth[id] != kUnknown)
            continue;
        path.clear();
        MeasurementId cur = id;
        std::uint32_t base = 0;
        for (;;) {
            depth[cur] = kOnPath;
            path.push_back(cur);
            const MeasurementId creator = m_measurements[cur].creator;
            if (creator == kNone) {
                base = 0;
                break;
            }
            if (depth[creator] == kOnPath) {
                diagnostics().warn("creation cycle", "measurements create each other in a cycle; cycle cut");
                m_measurements[cur].creator = kNone;
                base = 0;
                break;
            }
            if (depth[creator] != kUnknown) {
                base = depth[creator] + 1;
                break;
            }
            cur = creator;
        }
        // path.back() sits at `base`; each earlier entry one deeper.
        for (std::size_t k = path.size(); k-- > 0;)
            depth[path[k]] = base + std::uint32_t(path.size() - 1 - k);
    }
    return depth;
}

// Measurements are numbered in creation order, creators first: a creator is
// created no later than what it creates, and on equal times it is shallower
// in the creation tree. Analyses rely on creator < id.
void ProfileBuilder::orderMeasurements(const std::atomic<bool>* cancel)
{
    struct Key {
        Time created;
        std::uint32_t depth;
        IntervalId first;
        MeasurementId id;
        bool operator<(const Key& o) const
        {
            return std::tie(created, depth, first, id) < std::tie(o.created, o.depth, o.first, o.id);
        }
    };
    const std::size_t count = m_measurements.size();
    // Element-wise loops over millions of entries run on every core.
    // Buffers are freed as soon as done with: this is the peak of a load's
    // memory.
    auto slicesOf = [this, cancel](std::size_t n, auto&& fn) {
        parallelSlices(n, [&](std::size_t from, std::size_t to) {
            checkCancel(cancel);
            fn(from, to);
        });
    };
    std::vector<Key> keys(count);
    {
        const std::vector<std::uint32_t> depth = creationDepths();
        slicesOf(count, [&](std::size_t from, std::size_t to) {
            for (std::size_t id = from; id < to; ++id)
                keys[id] = Key{m_measurements[id].created, depth[id], m_firstInterval[id], MeasurementId(id)};
        });
    }
    if (std::is_sorted(keys.begin(), keys.end()))
        return;
    // Both halves sorted at once, then merged into the new order (keys are
    // unique: the same order as one sort, whatever the algorithm). A merge
    // sort: sample layouts add calls as they return, children before their
    // caller, and on that order introsort fell back to heapsort (the
    // biggest cost of a 5M-sample perf load's build; a third faster now).
    // Its buffer, half of a half, stays below the load's peak memory.
    const std::size_t half = count / 2;
    parallelFor(2, [&keys, half, cancel](std::size_t part) {
        const CancellableLess less(cancel, std::less<Key>());
        if (part == 0)
            std::stable_sort(keys.begin(), keys.begin() + std::ptrdiff_t(half), less);
        else
            std::stable_sort(keys.begin() + std::ptrdiff_t(half), keys.end(), less);
    });
    checkCancel(cancel);
    std::vector<MeasurementId> order(count); // new position -> old id
    {
        std::size_t a = 0;
        std::size_t b = half;
        for (std::size_t i = 0; i < count; ++i)
            order[i] = (b == count || (a < half && keys[a] < keys[b])) ? keys[a++].id : keys[b++].id;
        std::vector<Key>().swap(keys);
    }

    std::vector<MeasurementId> newId(count);
    slicesOf(count, [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            newId[order[i]] = MeasurementId(i);
    });
    {
        std::vector<Measurement> sorted(count);
        slicesOf(count, [&](std::size_t from, std::size_t to) {
            for (std::size_t i = from; i < to; ++i) {
                sorted[i] = m_measurements[order[i]];
                if (sorted[i].creator != kNone)
                    sorted[i].creator = newId[sorted[i].creator];
            }
        });
        m_measurements = std::move(sorted);
    }
    {
        std::vector<IntervalId> first(count);
        std::vector<Time> lastEnd(count);
        slicesOf(count, [&](std::size_t from, std::size_t to) {
            for (std::size_t i = from; i < to; ++i) {
                first[i] = m_firstInterval[order[i]];
                lastEnd[i] = m_lastEnd[order[i]];
            }
        });
        m_firstInterval = std::move(first);
        m_lastEnd = std::move(lastEnd);
    }
    std::vector<MeasurementId>().swap(order);
    for (Profile::Trigger& t : m_triggers)
        t = {newId[t.measurement], newId[t.triggeredBy]};
    std::sort(m_triggers.begin(), m_triggers.end(), [](const auto& a, const auto& b) { return a.measurement < b.measurement; });
    m_profile->m_triggers = std::move(m_triggers);
    for (Wake& wake : m_wakes)
        wake.task = newId[wake.task];
    std::vector<Interval>& intervals = m_profile->m_intervals;
    slicesOf(intervals.size(), [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            intervals[i].measurement = newId[intervals[i].measurement];
    });
}

// A measurement of one interval refers to it; one of several to its list in
// m_intervalLists (a count, then the ids by start), lists in id order. Each
// step runs on every core and gives what one loop would.
void ProfileBuilder::buildIntervalLists()
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
    lists.assign(total, 0);
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

void ProfileBuilder::finishTracks()
{
    std::vector<Track>& tracks = m_profile->m_tracks;
    tracks.resize(m_tracks.size());
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        Track& track = tracks[t];
        static_cast<TrackInfo&>(track) = m_tracks[t];
        track.depthOffsets = std::move(m_depthOffsets[t]);
        track.begin = track.depthOffsets.front();
        track.end = track.depthOffsets.back();
        track.name = track.displayName != kEmptyString ? track.displayName : intern(trackName(track));
    }
}

} // namespace runlane
