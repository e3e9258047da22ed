#pragma once

#include "diagnostics.h"
#include "profiletypes.h"
#include "snapshot.h"
#include "snapshotlist.h"
#include "stringpool.h"

#include <compare>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runlane {

// What a loader knows about a track before the profile is built.
struct TrackInfo {
    TrackKind kind = TrackKind::Thread;
    // Shown as is when set; otherwise derived from the process and thread.
    StringId displayName = kEmptyString;
    StringId processName = kEmptyString;
    StringId threadName = kEmptyString;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    // Tracks are ordered by (processSortIndex, pid, kind, threadSortIndex, tid).
    std::int64_t processSortIndex = 0;
    std::int64_t threadSortIndex = 0;
    // An Async track whose tasks were polled by a pool of worker threads
    // the file does not name (tokio): no interval nests in another (a task
    // spawned from a poll runs on any worker, not inside that poll), so
    // each interval goes to the first row free at its start, and the rows
    // are as many as intervals ran at once.
    bool workerPool = false;
    // Tracks of one process with the same lane group share one heading in
    // the task lanes, this text (viztracer's asyncio tasks, a pseudo-thread
    // each: "MainProcess / asyncio tasks"); none: the track's own.
    StringId laneGroup = kEmptyString;
};

struct Track : TrackInfo {
    StringId name = kEmptyString; // display name, derived from the fields above
    IntervalId begin = 0; // this track's slice of the profile's interval array
    IntervalId end = 0;
    // depthOffsets[d] .. depthOffsets[d + 1] are the intervals at depth d.
    std::vector<IntervalId> depthOffsets;

    int depthCount() const { return depthOffsets.empty() ? 0 : int(depthOffsets.size()) - 1; }
};

// A counter: Chrome `C` events of one name (and id) give one series per key
// of their args; shown as "name key".
struct CounterSeries {
    StringId name = kEmptyString;
    StringId key = kEmptyString;
    std::int64_t pid = 0;
    std::vector<Time> times;
    std::vector<double> values;

    // Points are added in file order; stable, so equal times keep it.
    void sortByTime();
};

// A file read into the profile after its own (a CPU profile added to a
// trace: LoadControl::additions), and the thread its samples went to.
struct AddedFile {
    std::string path;
    std::string format; // InputFormat::name()
    std::int64_t pid = 0;
    std::int64_t tid = 0;
};

// What part of its file a profile holds when it is not all of it
// (Profile::partial): a preview shown while the file still loads, or what
// was read before the user stopped the load and kept it.
struct PartialLoad {
    enum class Kind : std::uint8_t {
        // A look at the file while it loads (LoadControl::preview): built
        // from what was read so far, without the intervals shorter than
        // `shortestKept`; replaced by the next preview and then the profile.
        Preview,
        // The load was stopped at `bytesRead` and what was read kept
        // (LoadControl::keepPartial): every event before the cut, exactly.
        Cut,
    };
    Kind kind = Kind::Cut;
    std::int64_t bytesRead = 0;
    std::int64_t totalBytes = -1; // -1: unknown (a pipe)
    std::uint64_t eventsRead = 0;
    // Times before this are complete: no event read later lies there. The
    // events so far were in time order up to it. kTimeMin: nothing is known
    // complete (the file's events are not in time order).
    Time completeUpTo = kTimeMin;
    // Preview only: intervals shorter than this were left out (0: none were).
    Time shortestKept = 0;
    // Preview only: whether it holds the tasks read so far (the format adds
    // them: PreviewSettings::addTasks; if not, only calls), and how many
    // tasks it left out, the shortest-lived (over PreviewSettings::taskBudget).
    bool holdsTasks = false;
    std::uint64_t tasksLeftOut = 0;
};

// An immutable, loaded profile (semantics.md §1). Built once by
// ProfileBuilder on the loader thread, then shared read-only by every
// analysis and view.
//
// Intervals of all tracks live in one flat array. Within a track they are
// ordered by (depth, start): each depth is a start-sorted run in which no two
// intervals overlap, so "intervals overlapping [a, b) at depth d" is a binary
// search that yields one contiguous range, O(log n), and painting touches only
// what it returns.
class Profile
{
public:
    std::string_view formatName() const { return m_format; }
    const std::string& sourcePath() const { return m_sourcePath; }
    ValueUnit unit() const { return m_unit; }

    Time startTime() const { return m_start; }
    Time endTime() const { return m_end; }
    Time duration() const { return m_end - m_start; }

    std::string_view string(StringId id) const { return m_strings.view(id); }
    const StringPool& strings() const { return m_strings; }

    std::size_t labelCount() const { return m_labels.size(); }
    const Label& label(LabelId id) const { return m_labels[id]; }
    // How a label's name is shown. An empty name (a blank frame of folded
    // stacks, `"name": ""` in a trace) reads kEmptyName everywhere a name is
    // shown or written for people and scripts (views, rank, CSV, JSON); the
    // label's name itself stays empty, so it never merges with a frame that
    // is really called "(empty)" and converts back to an empty name.
    static constexpr std::string_view kEmptyName = "(empty)";
    std::string_view labelName(LabelId id) const
    {
        const StringId name = m_labels[id].name;
        return name == kEmptyString ? kEmptyName : string(name);
    }
    // A sampling profiler's pseudo-frame for a thread with nothing to do
    // (V8's "(idle)"): shown, greyed, but not time the thread was busy.
    bool isIdle(LabelId id) const { return id < m_idle.size() && m_idle[id]; }
    bool hasIdleLabels() const { return !m_idle.empty(); }
    // "name (file:line)", or just the name when no position is known.
    std::string labelText(LabelId id) const;

    std::size_t trackCount() const { return m_tracks.size(); }
    const Track& track(TrackId id) const { return m_tracks[id]; }
    // The name a track is shown by (Track::name): its display name, else
    // "process / thread", with " (samples)" for a Samples track.
    static std::string nameOf(const TrackInfo& track, const StringPool& strings);
    // Between the process's and the thread's parts of a track's name (the
    // views cut the process's part first: the thread's tells tracks apart).
    static constexpr std::string_view kTrackNameSeparator = " / ";
    const std::vector<Track>& tracks() const { return m_tracks; }

    std::size_t intervalCount() const { return m_intervals.size(); }
    const Interval& interval(IntervalId id) const { return m_intervals[id]; }
    std::span<const Interval> intervals() const { return m_intervals; }
    std::span<const Interval> depthSlice(TrackId track, int depth) const;
    // Ids [first, last) of the intervals at `depth` that overlap [from, to).
    // An empty interval at `from` counts as overlapping so that zero-length
    // calls stay visible and selectable.
    std::pair<IntervalId, IntervalId> overlapping(TrackId track, int depth, Time from, Time to) const;
    // O(1) but at a block's track boundary (m_trackAtBlock): measurement()
    // asks it of every call it rebuilds.
    TrackId trackOf(IntervalId id) const
    {
        const std::size_t block = id >> kTrackBlockShift;
        if (block < m_trackAtBlock.size()) {
            // The first track that ends after the block's first id: the
            // answer unless another track begins within the block.
            const TrackId t = m_trackAtBlock[block];
            if (id < m_tracks[t].end)
                return t;
        }
        return trackOfSearched(id);
    }
    int depthOf(IntervalId id) const;

    std::size_t measurementCount() const { return m_measurementRefs.size(); }
    // By value (issue 45, 32 bytes per interval): a call that is just its
    // one interval, created as it starts and by what encloses it, finished
    // and completed as it ends, is kept as its label and that interval
    // (6 bytes) and rebuilt here from the interval. Every other measurement
    // is kept whole. Usually every call but those of tasks is such a call.
    Measurement measurement(MeasurementId id) const
    {
        const std::uint32_t ref = m_measurementRefs[id];
        return (ref & kKeptWhole) ? m_wholeMeasurements[ref & ~kKeptWhole] : plainCall(labelOf(id), ref);
    }
    // The measurements whose creator is `id`, by id. Without a walk over
    // every measurement (0.1 s at 5 M, rebuilding each): the plain calls
    // among them are the children of its intervals in the nesting, the
    // others are among those kept whole.
    std::vector<MeasurementId> createdBy(MeasurementId id) const;
    // measurement(id).label without rebuilding the rest.
    LabelId labelOf(MeasurementId id) const
    {
        return m_measurementLabelsWide.empty() ? LabelId(m_measurementLabels[id]) : m_measurementLabelsWide[id];
    }
    // Every measurement by id, each rebuilt as measurement() does.
    class Measurements
    {
    public:
        // Random access, for the binary searches over ids in creation
        // order; dereferenced it gives a Measurement by value.
        class iterator
        {
        public:
            using iterator_category = std::random_access_iterator_tag;
            using value_type = Measurement;
            using difference_type = std::ptrdiff_t;
            using reference = Measurement;
            using pointer = void;
            iterator() = default;
            iterator(const Profile* profile, MeasurementId id) : m_profile(profile), m_id(id) {}
            Measurement operator*() const { return m_profile->measurement(m_id); }
            Measurement operator[](difference_type n) const { return m_profile->measurement(MeasurementId(m_id + n)); }
            iterator& operator++()
            {
                ++m_id;
                return *this;
            }
            iterator operator++(int)
            {
                iterator old = *this;
                ++m_id;
                return old;
            }
            iterator& operator--()
            {
                --m_id;
                return *this;
            }
            iterator operator--(int)
            {
                iterator old = *this;
                --m_id;
                return old;
            }
            iterator& operator+=(difference_type n)
            {
                m_id = MeasurementId(m_id + n);
                return *this;
            }
            iterator& operator-=(difference_type n) { return *this += -n; }
            friend iterator operator+(iterator it, difference_type n) { return it += n; }
            friend iterator operator+(difference_type n, iterator it) { return it += n; }
            friend iterator operator-(iterator it, difference_type n) { return it -= n; }
            friend difference_type operator-(const iterator& a, const iterator& b)
            {
                return difference_type(a.m_id) - difference_type(b.m_id);
            }
            bool operator==(const iterator& other) const { return m_id == other.m_id; }
            auto operator<=>(const iterator& other) const { return m_id <=> other.m_id; }

        private:
            const Profile* m_profile = nullptr;
            MeasurementId m_id = 0;
        };
        explicit Measurements(const Profile& profile) : m_profile(&profile) {}
        std::size_t size() const { return m_profile->measurementCount(); }
        bool empty() const { return size() == 0; }
        Measurement operator[](std::size_t id) const { return m_profile->measurement(MeasurementId(id)); }
        Measurement front() const { return (*this)[0]; }
        Measurement back() const { return (*this)[size() - 1]; }
        iterator begin() const { return {m_profile, 0}; }
        iterator end() const { return {m_profile, MeasurementId(size())}; }

    private:
        const Profile* m_profile;
    };
    Measurements measurements() const { return Measurements(*this); }
    // The active intervals of a measurement, in time order.
    // Inline: the rank asks it of every measurement, twice.
    std::span<const IntervalId> intervalsOf(MeasurementId id) const
    {
        const std::uint32_t& ref = m_measurementRefs[id];
        if (!(ref & kKeptWhole))
            return std::span<const IntervalId>(&ref, 1);
        const Measurement& m = m_wholeMeasurements[ref & ~kKeptWhole];
        if (m.flags & SingleInterval)
            return std::span<const IntervalId>(&m.intervalRef, 1);
        const IntervalId* list = m_intervalLists.data() + m.intervalRef;
        return std::span<const IntervalId>(list + 1, *list);
    }

    // Pre-aggregated metrics (Chroprof): the rank comes from the last
    // snapshot and usage from the differences between snapshots.
    const SnapshotList& snapshots() const { return m_snapshots; }
    // False when the snapshots carry no times (a bare array of rows).
    bool snapshotsAreTimed() const { return m_snapshotsTimed; }
    // Sampled profiles and folded stacks read best as a flame graph.
    bool prefersAggregatedView() const { return m_prefersAggregated; }
    // False when the file gives no times at all (pprof: only totals per
    // stack). The intervals are then laid out as a flame graph (siblings
    // side by side, each as wide as its total), not a timeline: only the
    // aggregated views mean anything, and the viewer says so instead of
    // offering a timeline.
    bool hasTimestamps() const { return m_hasTimestamps; }

    // The variants the file holds (pprof sample types, perf events), of
    // which variant() was loaded; empty when the format has none. Another
    // one is loaded by naming it in LoadControl::variant.
    const std::vector<std::string>& variants() const { return m_variants; }
    std::size_t variant() const { return m_variant; }

    // The files added to sourcePath(), in the order they were read; empty
    // for a profile of one file.
    const std::vector<AddedFile>& addedFiles() const { return m_addedFiles; }
    // Set when the profile is not its whole file (PartialLoad): a preview
    // while it loads, or a load cut short and kept.
    const std::optional<PartialLoad>& partial() const { return m_partial; }
    // A preview: the next version of the load may hold what this one lacks.
    bool isPreview() const { return m_partial && m_partial->kind == PartialLoad::Kind::Preview; }
    // Flows between intervals ("because of whom", profiletypes.h), ordered
    // by (from, to). Those leaving or entering a range of interval ids (a
    // depth's visible run, or one interval) are found by binary search.
    const std::vector<Flow>& flows() const { return m_flows; }
    std::span<const Flow> flowsOutOf(IntervalId first, IntervalId last) const;
    std::span<const Flow> flowsOutOf(IntervalId id) const { return flowsOutOf(id, id + 1); }
    // Indices into flows() of the flows into [first, last), ordered by (to, from).
    std::span<const std::uint32_t> flowsInto(IntervalId first, IntervalId last) const;
    std::span<const std::uint32_t> flowsInto(IntervalId id) const { return flowsInto(id, id + 1); }
    // Trigger links ("triggered by", Node's triggerAsyncId): the task whose
    // work led to a task's creation, when the format says so and it is not
    // the creator. Ordered by the triggered task.
    struct Trigger {
        MeasurementId measurement;
        MeasurementId triggeredBy;
    };
    const std::vector<Trigger>& triggers() const { return m_triggers; }
    // True when the task lanes should start without the tasks that never
    // ran: a format whose tasks are mostly such (Node's promises).
    bool hidesTasksThatNeverRan() const { return m_hidesTasksThatNeverRan; }
    // Who wakes a paused task in this format (set by its reader); None for
    // a format that records no wakes.
    WakeSource wakeSource() const { return m_wakeSource; }
    // Why the format cannot tell who created a CreatorUnknown measurement,
    // as the details say it ("multi-threaded runtime").
    const std::string& creatorUnknownReason() const { return m_creatorUnknownReason; }
    // kNone when the format names none.
    MeasurementId triggeredBy(MeasurementId id) const;
    // Flow events of the file that connect nothing: no slice where they
    // bind, a start nothing ends, an end nothing started (counted by reason
    // in the diagnostics).
    std::uint64_t unboundFlowEnds() const { return m_unboundFlowEnds; }

    // A measurement's arguments as its file gives them (a Perfetto slice's
    // debug annotations), one JSON object; kEmptyString when it has none.
    // A side table, ordered by measurement: only the measurements that have
    // arguments take room (8 bytes each), none of the others.
    struct Args {
        MeasurementId measurement;
        StringId json;
    };
    StringId argsOf(MeasurementId id) const;
    const std::vector<Args>& args() const { return m_args; }

    const std::vector<Mark>& marks() const { return m_marks; }
    // Wakes of async tasks (tokio wakers), ordered by (task, time, order
    // in the file); empty for formats without them.
    const std::vector<Wake>& wakes() const { return m_wakes; }
    std::span<const Wake> wakesOf(MeasurementId task) const;
    const std::vector<CounterSeries>& counters() const { return m_counters; }
    const Diagnostics& diagnostics() const { return m_diagnostics; }

    // Bytes held by the model, excluding the label strings.
    std::size_t modelMemoryUsage() const;
    // Where those bytes go, one part per structure (by the vectors'
    // capacities, what the process holds): modelMemoryUsage() is their sum.
    // For the benchmarks' table of issue 45's bytes per interval.
    struct MemoryPart {
        const char* name;
        std::size_t bytes;
    };
    std::vector<MemoryPart> memoryBreakdown() const;
    // Bytes held by the interned strings.
    std::size_t stringMemoryUsage() const { return m_strings.memoryUsage(); }

private:
    friend class ProfileBuilder;
    friend class ProfileFinisher;

    // A measurement's reference (m_measurementRefs): the interval of a
    // plain call (measurement()) or, with kKeptWhole, its index in
    // m_wholeMeasurements.
    static constexpr std::uint32_t kKeptWhole = 1u << 31;
    // trackOf's table: the track of every 4,096th interval.
    static constexpr int kTrackBlockShift = 12;

    // The measurement of the interval `iv` is nested in: a plain call's creator.
    MeasurementId callerOf(const Interval& iv) const
    {
        return iv.parent == kNone ? kNone : m_intervals[iv.parent].measurement;
    }
    // The plain call of `label` that is the interval `id` (measurement()).
    // isPlainCall compares every field this sets.
    Measurement plainCall(LabelId label, IntervalId id) const
    {
        const Interval& iv = m_intervals[id];
        Measurement m;
        m.created = iv.start;
        m.finished = iv.end;
        m.label = label;
        m.creator = callerOf(iv);
        m.intervalRef = id;
        m.track = trackOf(id);
        m.state = std::uint32_t(FinalState::Completed);
        m.flags = SingleInterval | Call;
        return m;
    }
    // plainCall(m.label, m.intervalRef) == m, field by field: a measurement
    // built to be compared wrote its bit-fields to the stack bytewise and
    // read them back as a word, a store that could not be forwarded to the
    // load, at every measurement (storing a million measurements took
    // 12 ms, 6 ms with this).
    bool isPlainCall(const Measurement& m) const
    {
        const Interval& iv = m_intervals[m.intervalRef];
        return m.created == iv.start && m.finished == iv.end
            && m.creator == callerOf(iv)
            && m.state == std::uint32_t(FinalState::Completed) && m.flags == (SingleInterval | Call)
            && m.track == trackOf(m.intervalRef);
    }
    // Pure: a caller that reads only some fields of a rebuilt measurement
    // (its label, its times) pays nothing for the track it did not read.
    [[gnu::pure]] TrackId trackOfSearched(IntervalId id) const;
    // For ProfileFinisher, once the intervals and tracks are final: fills
    // trackOf's table, then takes the measurements over.
    void indexTracks();
    void keepMeasurements(std::vector<Measurement>&& measurements, std::size_t labelCount);

    std::string m_format;
    std::string m_sourcePath;
    ValueUnit m_unit = ValueUnit::Nanoseconds;
    Time m_start = 0;
    Time m_end = 0;
    StringPool m_strings;
    std::vector<Label> m_labels;
    std::vector<bool> m_idle; // by label; empty when no label is idle
    std::vector<Track> m_tracks;
    std::vector<Interval> m_intervals;
    // A measurement is kept as its label and reference, 6 bytes while the
    // labels fit in 16 bits (all but the rarest profiles), else 8.
    std::vector<std::uint32_t> m_measurementRefs; // by id
    std::vector<std::uint16_t> m_measurementLabels; // by id, unless wide
    std::vector<LabelId> m_measurementLabelsWide; // by id, when over 65,536 labels
    std::vector<Measurement> m_wholeMeasurements; // those not plain calls, by id
    std::vector<MeasurementId> m_wholeIds; // their ids, in the same order
    std::vector<TrackId> m_trackAtBlock; // trackOf(block << kTrackBlockShift)
    // Interval lists of measurements with other than one interval: a count
    // followed by that many ids. Entry 0 is the shared empty list.
    std::vector<IntervalId> m_intervalLists;
    std::vector<Mark> m_marks;
    std::vector<Args> m_args; // by measurement
    std::vector<Wake> m_wakes;
    std::vector<Flow> m_flows;
    std::vector<Trigger> m_triggers;
    bool m_hidesTasksThatNeverRan = false;
    WakeSource m_wakeSource = WakeSource::None;
    std::string m_creatorUnknownReason = "not recorded in the file";
    std::vector<std::uint32_t> m_flowsByTarget;
    std::uint64_t m_unboundFlowEnds = 0;
    std::vector<CounterSeries> m_counters;
    SnapshotList m_snapshots;
    bool m_snapshotsTimed = false;
    bool m_prefersAggregated = false;
    bool m_hasTimestamps = true;
    std::vector<std::string> m_variants;
    std::size_t m_variant = 0;
    std::vector<AddedFile> m_addedFiles;
    std::optional<PartialLoad> m_partial;
    Diagnostics m_diagnostics;
};

} // namespace runlane
