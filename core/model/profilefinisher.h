#pragma once

#include "buildprogress.h"
#include "flowbinder.h"
#include "intervalnesting.h"
#include "profile.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace runlane {

class ProfileBuilder;

// The second half of a load, after the reader: turns what a ProfileBuilder
// recorded into an immutable Profile. run() calls one function per step, in
// the order below; each says what it needs from the steps before it.
//
// It takes the builder's arrays over: moved, never copied (on a 10 M-event
// trace each is hundreds of MB), and hands them to the Profile at the end.
// Steps that loop over millions of entries run on every core
// (parallelSlices) and give their warnings afterwards in the order one loop
// would, so that a profile and its diagnostics do not depend on the cores.
class ProfileFinisher
{
public:
    // The builder is spent afterwards.
    explicit ProfileFinisher(ProfileBuilder&& builder);
    ~ProfileFinisher();

    // Checks `cancel` between steps (and inside the long ones) and throws
    // LoadCancelled when it is set. Reports each step as it begins through
    // the builder's BuildProgress, as steps 2 to kSteps + 1 of the build.
    std::shared_ptr<const Profile> run(const std::atomic<bool>* cancel);
    static constexpr int kSteps = 12;

    // Pure parts of the steps, testable alone.
    //
    // The order tracks are presented in (old ids, new id = position): by
    // process, then thread; a thread's sampled stacks right after its traced
    // slices; a process's async tasks after all its threads. Tracks in
    // `merged` (OutermostTasks::mergeTrack) are left out.
    static std::vector<TrackId> trackOrder(std::span<const TrackInfo> tracks, std::span<const TrackId> merged);
    // The measurement of the deepest interval that runs at `t` (start <= t
    // < end) among one track's laid-out intervals, whose depths begin at
    // `depthOffsets` (Track::depthOffsets); kNone if none runs.
    static MeasurementId innermostRunningAt(std::span<const Interval> intervals, std::span<const IntervalId> depthOffsets,
                                            Time t);

private:
    // The steps, in the order run() calls them.
    void sortTracks();
    void resolveSpan();
    void layoutIntervals(const std::atomic<bool>* cancel);
    void bindFlows();
    void clampMeasurements();
    void resolveCreators();
    void orderMeasurements(const std::atomic<bool>* cancel);
    void buildIntervalLists();
    void finishTracks();
    void storeMeasurements();
    void sortEvents();
    std::shared_ptr<const Profile> handOver();

    // Overlaps found while nesting a track (on any thread) are logged and
    // reported afterwards in track order.
    void layoutTrack(std::size_t t, std::span<Interval> slice, IntervalId begin, IntervalNesting::Log& overlaps,
                     const std::atomic<bool>* cancel);
    void warnOverlap(const IntervalNesting::Overlap& overlap);
    // A measurement's name as its warnings quote it.
    std::string quotedName(MeasurementId id) const;
    Diagnostics& diagnostics() { return m_profile->m_diagnostics; }
    // A buffer of at least `bytes`, resident: layoutIntervals groups the
    // intervals by track in it, then orderMeasurements sorts its keys there,
    // so that the second finds its pages already faulted in.
    std::byte* scratch(std::size_t bytes, const std::function<void(std::size_t)>& populated = {});
    void releaseScratch();

    // Taken over from the builder.
    std::unique_ptr<Profile> m_profile;
    std::vector<TrackInfo> m_tracks;
    std::vector<Measurement> m_measurements;
    std::vector<Interval> m_intervals; // `parent` holds the loader's order until layout
    std::vector<Mark> m_marks;
    std::vector<Profile::Args> m_args;
    std::vector<Wake> m_wakes;
    FlowBinder m_flowBinder;
    std::vector<Profile::Trigger> m_triggers;
    std::vector<std::pair<MeasurementId, TrackId>> m_createdOn;
    std::vector<TrackId> m_mergedTracks;
    std::vector<CounterSeries> m_counters;
    std::vector<Label> m_labels;
    Time m_spanFrom;
    Time m_spanTo;
    // The steps as they begin, and the long ones as they go; the format's
    // finishing pass was the first.
    BuildProgress m_progress;

    // Filled by layout: per track, depth offsets relative to the whole array;
    // per measurement, its earliest interval and the end of its last one
    // (the last ends only until clampMeasurements).
    std::vector<std::vector<IntervalId>> m_depthOffsets;
    std::vector<IntervalId> m_firstInterval;
    std::vector<Time> m_lastEnd;

    std::unique_ptr<std::byte[]> m_scratch; // the builder's, if it had one
    std::size_t m_scratchBytes = 0;
};

} // namespace runlane
