#include "profilebuilder.h"

#include "loaderror.h"
#include "profilefinisher.h"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace runlane {

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
    count = std::min<std::size_t>(count, kAutoCreator);
    try {
        m_measurements.reserve(count);
        m_intervals.reserve(count);
    } catch (const std::bad_alloc&) {
        // Nothing reserved that failed; what was stays.
    } catch (const std::length_error&) {
    }
    constexpr std::size_t kAheadFrom = std::size_t(16) << 20;
    if (!m_ahead && AheadPopulator::supported()
        && m_measurements.capacity() * sizeof(Measurement) + m_intervals.capacity() * sizeof(Interval) >= kAheadFrom) {
        try {
            m_ahead = std::make_unique<AheadPopulator>(3);
        } catch (const std::exception&) {
            return; // no thread to spare: the writes fault as before
        }
        try {
            // Only address space until the populator makes it resident.
            m_scratch.reset(new std::byte[m_intervals.capacity() * sizeof(Interval)]);
            m_scratchBytes = m_intervals.capacity() * sizeof(Interval);
        } catch (const std::bad_alloc&) {
            // Room the system will not promise: the finisher allocates its own.
        }
        followArrays();
    }
}

void ProfileBuilder::followArrays()
{
    m_ahead->follow(0, m_measurements.data(), m_measurements.size() * sizeof(Measurement),
                    m_measurements.capacity() * sizeof(Measurement));
    m_ahead->follow(1, m_intervals.data(), m_intervals.size() * sizeof(Interval),
                    m_intervals.capacity() * sizeof(Interval));
    m_ahead->mirror(2, m_scratch.get(), std::min(m_intervals.size() * sizeof(Interval), m_scratchBytes), m_scratchBytes);
}

// The arrays' ends as they are now, so that nothing written is given back.
void ProfileBuilder::releaseAhead()
{
    if (!m_ahead)
        return;
    followArrays();
    m_ahead->release();
    m_ahead.reset();
}

MeasurementId ProfileBuilder::addMeasurement(TrackId track, LabelId label, Time created, MeasurementId creator,
                                             std::uint8_t flags)
{
    const MeasurementId id = MeasurementId(m_measurements.size());
    pushMeasurement(track, label, created, creator, flags & (AsyncMeasurement | BornFinished | CreatorUnknown));
    return id;
}

Measurement& ProfileBuilder::pushMeasurement(TrackId track, LabelId label, Time created, MeasurementId creator,
                                             std::uint32_t flags)
{
    if (m_measurements.size() >= kAutoCreator - 1)
        throw FormatError("too many measurements");
    const std::size_t id = m_measurements.size();
    // Written where it stays, once: a copy built beside wrote its
    // bit-fields a byte at a time and was read back whole to be pushed, a
    // load that waited for those stores (perf: 20 ms of the building
    // thread's samples in a million events' read, 3 ms now).
    Measurement& m = m_measurements.emplace_back();
    m.created = created;
    m.finished = kOpen;
    m.label = label;
    m.creator = (creator == kNone || creator == kAutoCreator || creator < id) ? creator : kNone;
    m.track = track;
    m.state = std::uint32_t(FinalState::Unfinished);
    m.flags = flags;
    return m;
}

void ProfileBuilder::addInterval(MeasurementId measurement, Time start, Time end, std::uint32_t order)
{
    if (end < start) {
        diagnostics().warnWith("negative duration", [&] {
            return "interval of " + Diagnostics::quoted(string(m_labels[m_measurements[measurement].label].name))
                + " ends " + std::to_string(start - end) + " ns before it starts; made zero-length";
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
    const MeasurementId id = MeasurementId(m_measurements.size());
    Measurement& m = pushMeasurement(track, label, start, kAutoCreator, Call);
    if (end != kOpen) {
        m.finished = end;
        m.state = std::uint32_t(FinalState::Completed);
    }
    addInterval(id, start, end, order);
    if (m_preview)
        m_preview->offer(PreviewItem{start, std::max(start, end), track, label, order});
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

void ProfileBuilder::setPreviewSettings(PreviewSettings settings)
{
    m_previewSettings = settings.emit ? std::make_unique<PreviewSettings>(std::move(settings)) : nullptr;
}

bool ProfileBuilder::startPreviews()
{
    if (!m_previewSettings)
        return false;
    m_preview = std::make_unique<PreviewCollector>(std::move(*m_previewSettings));
    m_previewSettings.reset();
    return true;
}

static_assert(ProfileBuilder::kBuildSteps == 1 + ProfileFinisher::kSteps);

void ProfileBuilder::onStride(std::uint64_t eventsRead)
{
    if (m_ahead)
        followArrays();
    if (m_preview)
        previewIfDue(eventsRead);
}

void ProfileBuilder::previewIfDue(std::uint64_t eventsRead)
{
    if (m_preview->due(std::chrono::steady_clock::now()))
        emitPreview(eventsRead);
}

void ProfileBuilder::endOfFile(std::uint64_t eventsRead)
{
    if (m_preview && m_preview->anyDue())
        emitPreview(eventsRead);
    stopPreviews();
    releaseAhead();
    m_progress.begin("finishing the events read");
}

void ProfileBuilder::emitPreview(std::uint64_t eventsRead)
{
    const PreviewSettings& settings = m_preview->settings();
    PartialLoad partial;
    partial.kind = PartialLoad::Kind::Preview;
    if (settings.bytes)
        std::tie(partial.bytesRead, partial.totalBytes) = settings.bytes();
    partial.eventsRead = eventsRead;
    partial.completeUpTo = settings.completeUpTo ? settings.completeUpTo() : kTimeMin;
    partial.shortestKept = m_preview->threshold();
    settings.emit(m_preview->build(*this, partial));
}

std::shared_ptr<const Profile> ProfileBuilder::build(const std::atomic<bool>* cancel)
{
    releaseAhead(); // a format that never said endOfFile
    return ProfileFinisher(std::move(*this)).run(cancel);
}

} // namespace runlane
