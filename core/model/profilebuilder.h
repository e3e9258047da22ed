#pragma once

#include "aheadpopulator.h"
#include "buildprogress.h"
#include "flowbinder.h"
#include "previewcollector.h"
#include "profile.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Collects what a loader reads, in any order; build() turns it into an
// immutable Profile. Loaders only state facts (this measurement was created
// then, was active from a to b, finished so); the build (ProfileFinisher)
// derives the structure every format shares: interval nesting and depth,
// creators of synchronous calls, the (depth, start) layout, creation order,
// and the profile's time span.
class ProfileBuilder
{
    // Rewrites measurements before the build (merges calls into tasks).
    friend class OutermostTasks;
    // Takes the recording over for the build.
    friend class ProfileFinisher;

public:
    // Creator to derive at build time: the measurement that was running on the
    // same track when this one was created (semantics.md §2).
    static constexpr MeasurementId kAutoCreator = kNone - 1;
    // End of an interval or measurement still open when the profile ends.
    static constexpr Time kOpen = kTimeMax;

    explicit ProfileBuilder(std::string formatName, std::string sourcePath = {});
    ~ProfileBuilder();

    StringId intern(std::string_view text) { return m_profile->m_strings.intern(text); }
    StringId intern(std::string_view text, std::uint64_t textHash) { return m_profile->m_strings.intern(text, textHash); }
    // Room for about this many intervals and measurements, so that the
    // vectors do not grow (and copy) while a large file streams in. Only
    // address space until used. A hint: capped at what ids can number, and
    // room the system will not promise (a huge file on a small machine)
    // leaves the vectors to grow as they fill rather than fail the load.
    // From 16 MiB reserved on, their pages ahead of what is written are
    // made resident in idle time (AheadPopulator) until endOfFile, for a
    // streaming format that polls (pollPreview).
    void reserve(std::size_t count);
    std::string_view string(StringId id) const { return m_profile->m_strings.view(id); }
    LabelId label(StringId name, StringId file = kEmptyString, std::int32_t line = 0);
    LabelId label(std::string_view name, std::string_view file = {}, std::int32_t line = 0);
    const Label& labelOf(LabelId id) const { return m_labels[id]; }

    // See Profile::isIdle.
    void markIdle(LabelId label)
    {
        if (m_profile->m_idle.size() <= label)
            m_profile->m_idle.resize(label + 1, false);
        m_profile->m_idle[label] = true;
    }

    TrackId addTrack(const TrackInfo& info);
    TrackInfo& trackInfo(TrackId id) { return m_tracks[id]; }
    const TrackInfo& trackInfo(TrackId id) const { return m_tracks[id]; }
    // The name the built profile gives a track (Track::name): its display
    // name, else "process / thread", with " (samples)" for a Samples track.
    std::string trackName(const TrackInfo& track) const { return Profile::nameOf(track, m_profile->m_strings); }
    std::size_t trackCount() const { return m_tracks.size(); }

    // `creator` is an existing measurement, kNone (a root) or kAutoCreator.
    // `flags`: AsyncMeasurement, BornFinished.
    MeasurementId addMeasurement(TrackId track, LabelId label, Time created, MeasurementId creator,
                                 std::uint8_t flags = 0);
    // `order` breaks ties between intervals of a track that start and end at
    // the same time: the lower order is the outer one (usually the index of
    // the event that opened it).
    void addInterval(MeasurementId measurement, Time start, Time end, std::uint32_t order);
    void finish(MeasurementId measurement, Time at, FinalState state);
    // A synchronous call: created and started at `start`, completed at `end`.
    // On a thread, a call that starts inside an interval and ends after it is
    // cut at that interval's end, with a warning: a call returns before its
    // caller does.
    MeasurementId addCall(TrackId track, LabelId label, Time start, Time end, std::uint32_t order);

    const Measurement& measurement(MeasurementId id) const { return m_measurements[id]; }
    // The intervals so far, before the layout: `parent` still holds the
    // order addInterval was given.
    std::span<const Interval> intervalsSoFar() const { return m_intervals; }
    void relabel(MeasurementId measurement, LabelId label) { m_measurements[measurement].label = label; }
    // The format labels its tasks by kind only (Node's resource types): a
    // sampled profile added to it names the function that created each
    // (CreatingFunctions).
    void setTasksNameTheirCreator(bool name) { m_tasksNameTheirCreator = name; }
    bool tasksNameTheirCreator() const { return m_tasksNameTheirCreator; }
    std::size_t measurementCount() const { return m_measurements.size(); }
    std::size_t intervalCount() const { return m_intervals.size(); }

    void addMark(const Mark& mark) { m_marks.push_back(mark); }
    // The measurement's arguments, one JSON object (see Profile::argsOf);
    // a second call replaces the first.
    void setArgs(MeasurementId measurement, StringId json) { m_args.push_back({measurement, json}); }
    // Replaces the creator addMeasurement was given (a format that names it
    // only after the measurement exists).
    void setCreator(MeasurementId measurement, MeasurementId creator) { m_measurements[measurement].creator = creator; }
    // `measurement` was created at `created` on another track than its own
    // (a Python asyncio task, by a create_task call on the thread that made
    // it): its creator is what ran innermost on `track` then (semantics.md
    // §2), found once intervals are laid out.
    void setCreatedOn(MeasurementId measurement, Time created, TrackId track)
    {
        m_measurements[measurement].creator = kNone;
        m_measurements[measurement].created = created;
        m_createdOn.emplace_back(measurement, track);
    }
    // The format cannot tell who created `measurement` (see CreatorUnknown).
    void setCreatorUnknown(MeasurementId measurement)
    {
        m_measurements[measurement].creator = kNone;
        m_measurements[measurement].flags |= CreatorUnknown;
    }
    // `measurement` was triggered by `trigger` (see Profile::triggers).
    void addTrigger(MeasurementId measurement, MeasurementId trigger) { m_triggers.push_back({measurement, trigger}); }
    // A wake of an async measurement (see Profile::wakes).
    void addWake(const Wake& wake) { m_wakes.push_back(wake); }
    // A point a flow passes (FlowBinder): bound to its interval and chained
    // with the other points of its key at build time, after layout.
    void addFlowPoint(const FlowBinder::Point& point) { m_flowBinder.add(point); }
    // Returns the series' index; points are appended with addCounterPoint.
    std::size_t addCounter(StringId name, StringId key, std::int64_t pid);
    void addCounterPoint(std::size_t counter, Time t, double value);

    // The profile spans at least this instant, even if nothing built from
    // the file lies there (an ignored event, the last timestamp of a log).
    void extendSpan(Time t)
    {
        m_spanFrom = std::min(m_spanFrom, t);
        m_spanTo = std::max(m_spanTo, t);
    }

    void setUnit(ValueUnit unit) { m_profile->m_unit = unit; }
    void setPrefersAggregatedView(bool prefer) { m_profile->m_prefersAggregated = prefer; }
    void setHidesTasksThatNeverRan(bool hide) { m_profile->m_hidesTasksThatNeverRan = hide; }
    // The format's wake source (Profile::wakeSource): each reader of a
    // format with wakes sets it; a CPU profile added to a trace leaves it.
    void setWakeSource(WakeSource source) { m_profile->m_wakeSource = source; }
    void setCreatorUnknownReason(std::string reason) { m_profile->m_creatorUnknownReason = std::move(reason); }
    // See Profile::hasTimestamps: also makes the aggregated view preferred.
    void setHasNoTimestamps()
    {
        m_profile->m_hasTimestamps = false;
        m_profile->m_prefersAggregated = true;
    }
    // The file's variants and the one loaded (see Profile::variants).
    void setVariants(std::vector<std::string> names, std::size_t chosen)
    {
        m_profile->m_variants = std::move(names);
        m_profile->m_variant = chosen;
    }
    // The profile is not its whole file (see Profile::partial).
    void setPartial(const PartialLoad& partial) { m_profile->m_partial = partial; }
    const std::optional<PartialLoad>& partial() const { return m_profile->m_partial; }

    // Progressive loading (LoadControl::preview). The loader hands the
    // settings over; a format whose reader streams its events into the
    // builder starts the previews, then calls pollPreview once per event
    // and stops them before its own finishing pass (which adds what it
    // matched at the end, not what was read). While on, every completed
    // call goes to a PreviewCollector; every 4096th event the clock is read,
    // and a preview due is built from the collector and emitted on this
    // thread. Off (no settings, the CLI): one null test per call and poll.
    void setPreviewSettings(PreviewSettings settings);
    // False, and nothing collected, if the load wants no previews.
    bool startPreviews();
    void stopPreviews() { m_preview.reset(); }
    // The format read its whole file (`eventsRead` events) and begins its
    // own finishing pass, the build's first step. If previews were shown,
    // a last one shows everything read (the whole time axis) while the
    // rest of the build runs, seconds for the biggest files; then they
    // stop.
    void endOfFile(std::uint64_t eventsRead);
    // The format's hooks (PreviewSettings::completeUpTo, nameTrack).
    PreviewSettings* previewSettings() { return m_preview ? &m_preview->settings() : nullptr; }
    static constexpr std::uint64_t kPreviewPollStride = 4096;
    // `eventsRead`: the events handed to the builder so far.
    // Also where the pages ahead of the reserved arrays are asked for
    // (reserve): a streaming format calls it once per event, previews or
    // not.
    void pollPreview(std::uint64_t eventsRead)
    {
        if (eventsRead % kPreviewPollStride == 0 && eventsRead != 0 && (m_preview || m_ahead))
            onStride(eventsRead);
    }
    // A completed interval the format matched itself (Chrome's B/E pairs,
    // matched for good only at the end): shown in the previews only.
    void offerPreview(const PreviewItem& item)
    {
        if (m_preview)
            m_preview->offer(item);
    }
    std::string_view formatName() const { return m_profile->m_format; }
    std::size_t labelCount() const { return m_labels.size(); }
    // The span extendSpan was given so far (empty: first > second).
    std::pair<Time, Time> spanSoFar() const { return {m_spanFrom, m_spanTo}; }
    // A file read into this profile after its own (see Profile::addedFiles).
    void addAddedFile(AddedFile file) { m_profile->m_addedFiles.push_back(std::move(file)); }
    // Per track, its intervals so far: what a loader that adds to the
    // profile knows of its threads before the build.
    std::vector<std::size_t> intervalsPerTrack() const;
    // Snapshots of pre-aggregated metrics, in time order (see Profile).
    // Shared: the versions of a live recording hold the same ones.
    void addSnapshot(SnapshotList::Pointer snapshot) { m_profile->m_snapshots.push_back(std::move(snapshot)); }
    // The last one's rows, decoded (SnapshotList::newestRows).
    void setNewestSnapshotRows(SnapshotList::Rows rows) { m_profile->m_snapshots.setNewestRows(std::move(rows)); }
    void setSnapshotsTimed(bool timed) { m_profile->m_snapshotsTimed = timed; }
    Diagnostics& diagnostics() { return m_profile->m_diagnostics; }
    // The file being read ("" for none), for a format that names a track
    // after it.
    const std::string& sourcePath() const { return m_profile->m_sourcePath; }

    // Builds the profile (ProfileFinisher); the builder is spent
    // afterwards. Checks `cancel` between phases and throws LoadCancelled
    // when it is set.
    std::shared_ptr<const Profile> build(const std::atomic<bool>* cancel = nullptr);

    // The steps of a build after the read (LoadControl::building): the
    // format's finishing pass (endOfFile), then ProfileFinisher's.
    using BuildReport = std::function<void(int step, int steps, const char* what)>;
    static constexpr int kBuildSteps = 13;
    // `cancel`, if not null, stops the format's finishing pass as it tells
    // how far it is (BuildProgress::stopOn): the flag the build will watch.
    void setBuildReport(BuildReport report, const std::atomic<bool>* cancel = nullptr)
    {
        m_progress = BuildProgress(std::move(report), 0, kBuildSteps);
        m_progress.stopOn(cancel);
    }
    // The build's progress, from its first step (endOfFile begins it), for
    // a format's finishing pass to tell how far it is; ProfileFinisher
    // takes it over for the steps after.
    BuildProgress& buildProgress() { return m_progress; }

private:
    // addMeasurement's measurement with these flags, written where it
    // stays (see there).
    Measurement& pushMeasurement(TrackId track, LabelId label, Time created, MeasurementId creator, std::uint32_t flags);
    void onStride(std::uint64_t eventsRead);
    void previewIfDue(std::uint64_t eventsRead);
    void followArrays();
    void releaseAhead();
    void emitPreview(std::uint64_t eventsRead);

    std::unique_ptr<Profile> m_profile;
    std::unique_ptr<PreviewSettings> m_previewSettings; // until startPreviews
    std::unique_ptr<PreviewCollector> m_preview;
    BuildProgress m_progress{nullptr, 0, kBuildSteps};
    std::vector<TrackInfo> m_tracks;
    std::vector<Measurement> m_measurements;
    std::vector<Interval> m_intervals; // `parent` holds the order until layout
    std::vector<Mark> m_marks;
    std::vector<Profile::Args> m_args; // in the order given
    std::vector<Wake> m_wakes;
    FlowBinder m_flowBinder;
    std::vector<Profile::Trigger> m_triggers;
    std::vector<std::pair<MeasurementId, TrackId>> m_createdOn;
    std::vector<TrackId> m_mergedTracks; // OutermostTasks::mergeTrack
    bool m_tasksNameTheirCreator = false;
    std::vector<CounterSeries> m_counters;
    std::vector<Label> m_labels;
    struct LabelKeyHash {
        std::size_t operator()(const Label& l) const noexcept
        {
            return (std::size_t(l.name) * 0x9E3779B97F4A7C15ull) ^ (std::size_t(l.file) << 20) ^ std::size_t(l.line);
        }
    };
    struct LabelKeyEqual {
        bool operator()(const Label& a, const Label& b) const noexcept
        {
            return a.name == b.name && a.file == b.file && a.line == b.line;
        }
    };
    std::unordered_map<Label, LabelId, LabelKeyHash, LabelKeyEqual> m_labelIndex;
    // Labels that are a bare name (no file, no line; most of them), by
    // name: a vector lookup instead of a hash, and no node per label.
    std::vector<LabelId> m_bareLabel;
    Time m_spanFrom = kTimeMax;
    Time m_spanTo = kTimeMin;
    // With m_ahead: room for as many intervals as m_intervals has, for
    // ProfileFinisher to group them by track in (its scratch), made
    // resident as they come in the read's idle time (AheadPopulator's
    // mirror) rather than zeroed after the read.
    std::unique_ptr<std::byte[]> m_scratch;
    std::size_t m_scratchBytes = 0;
    // From a reservation big enough until the end of the read (reserve).
    // Declared last, so destroyed first: its thread stops before the
    // arrays it follows are freed.
    std::unique_ptr<AheadPopulator> m_ahead;
};

} // namespace runlane
