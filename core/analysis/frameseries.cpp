#include "frameseries.h"

#include "nearestrank.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

namespace runlane {

namespace {

// The Chrome and Perfetto frame events, in the order a profile's source is
// chosen from (FrameSeries::Source's order).
constexpr std::array<std::string_view, 4> kFrameEvents{"DrawFrame", "PipelineReporter", "BeginMainThreadFrame",
                                                      "BeginFrame"};

// The process with the most of `items` (the lowest pid on a tie).
template <typename Items, typename PidOf>
std::int64_t busiestProcess(const Items& items, PidOf pidOf)
{
    std::map<std::int64_t, std::uint64_t> counts;
    for (const auto& item : items)
        ++counts[pidOf(item)];
    std::int64_t best = 0;
    std::uint64_t most = 0;
    for (const auto& [pid, count] : counts) {
        if (count > most) {
            best = pid;
            most = count;
        }
    }
    return best;
}

std::optional<double> jsonNumber(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

} // namespace

FrameSeries::Quality FrameSeries::quality(double fps)
{
    if (fps > 55)
        return Quality::Good;
    return fps > 25 ? Quality::Medium : Quality::Bad;
}

const char* FrameSeries::sourceName(Source source)
{
    switch (source) {
    case Source::None:
        return "none";
    case Source::RenderStats:
        return "RenderStats";
    case Source::DrawFrame:
    case Source::PipelineReporter:
    case Source::BeginMainThreadFrame:
    case Source::BeginFrame:
        return kFrameEvents[std::size_t(source) - std::size_t(Source::DrawFrame)].data();
    case Source::FpsCounter:
        return "fps counter";
    }
    return "none";
}

FrameSeries FrameSeries::of(const Profile& profile)
{
    FrameSeries result;
    result.readRenderStats(profile);
    if (result.m_source != Source::None) {
        result.finish();
        return result;
    }
    // Each kind's starts, (pid, time): marks and slices alike.
    std::array<std::vector<std::pair<std::int64_t, Time>>, kFrameEvents.size()> starts;
    auto kindOf = [](std::string_view name) {
        return std::size_t(std::find(kFrameEvents.begin(), kFrameEvents.end(), name) - kFrameEvents.begin());
    };
    for (const Mark& mark : profile.marks()) {
        if (const std::size_t kind = kindOf(profile.string(mark.name)); kind < kFrameEvents.size())
            starts[kind].emplace_back(mark.pid, mark.time);
    }
    std::vector<std::uint8_t> labelKind(profile.labelCount());
    bool anyFrameLabel = false;
    for (LabelId l = 0; l < profile.labelCount(); ++l) {
        labelKind[l] = std::uint8_t(kindOf(profile.string(profile.label(l).name)));
        anyFrameLabel = anyFrameLabel || labelKind[l] < kFrameEvents.size();
    }
    // A measurement's label alone is two bytes; the whole of it is rebuilt
    // (Profile::measurement): only for those named as frames. A profile
    // with no such name is not walked at all (0.29 s at 16 M measurements).
    for (MeasurementId m = 0; anyFrameLabel && m < profile.measurementCount(); ++m) {
        if (const std::size_t kind = labelKind[profile.labelOf(m)]; kind < kFrameEvents.size()) {
            const Measurement& measurement = profile.measurement(m);
            starts[kind].emplace_back(profile.track(measurement.track).pid, measurement.created);
        }
    }
    for (std::size_t kind = 0; kind < starts.size(); ++kind) {
        if (!starts[kind].empty()) {
            result.readEvents(Source(std::size_t(Source::DrawFrame) + kind), starts[kind]);
            result.finish();
            return result;
        }
    }
    const CounterSeries* fps = nullptr;
    for (const CounterSeries& series : profile.counters()) {
        if (profile.string(series.name) == "fps" && (!fps || series.times.size() > fps->times.size()))
            fps = &series;
    }
    if (fps)
        result.readCounter(*fps);
    result.finish();
    return result;
}

void FrameSeries::readRenderStats(const Profile& profile)
{
    std::vector<const Mark*> marks;
    for (const Mark& mark : profile.marks()) {
        if (profile.string(mark.name) == "RenderStats")
            marks.push_back(&mark);
    }
    if (marks.empty())
        return;
    m_source = Source::RenderStats;
    m_pid = busiestProcess(marks, [](const Mark* m) { return m->pid; });
    for (const Mark* mark : marks) {
        if (mark->pid != m_pid)
            continue;
        const std::string_view text = profile.string(mark->detail);
        const nlohmann::json payload = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
        const std::optional<double> frameTime = payload.is_object() ? jsonNumber(payload, "frame_time") : std::nullopt;
        const std::optional<double> fps = payload.is_object() ? jsonNumber(payload, "fps") : std::nullopt;
        if (!frameTime || !fps || *frameTime < 0 || !std::isfinite(*frameTime) || !std::isfinite(*fps)) {
            ++m_skipped;
            continue;
        }
        // Rounded to the nanosecond: the block's length, not the statistics'.
        const Time length = Time(std::llround(*frameTime * 1e6));
        m_frames.push_back(Frame{mark->time, mark->time + length, *fps, *frameTime});
    }
}

void FrameSeries::readEvents(Source source, const std::vector<std::pair<std::int64_t, Time>>& starts)
{
    m_source = source;
    m_pid = busiestProcess(starts, [](const std::pair<std::int64_t, Time>& s) { return s.first; });
    std::vector<Time> times;
    for (const auto& [pid, time] : starts) {
        if (pid == m_pid)
            times.push_back(time);
    }
    std::sort(times.begin(), times.end());
    for (std::size_t k = 0; k + 1 < times.size(); ++k) {
        const Time gap = times[k + 1] - times[k];
        // Two events at one time are one frame's; a long gap is idle.
        if (gap <= 0 || gap >= kIdleGap)
            continue;
        const double ms = double(gap) / 1e6;
        m_frames.push_back(Frame{times[k], times[k + 1], 1000 / ms, ms});
    }
}

void FrameSeries::readCounter(const CounterSeries& series)
{
    m_source = Source::FpsCounter;
    m_pid = series.pid;
    for (std::size_t k = 0; k < series.times.size(); ++k) {
        const double fps = series.values[k];
        if (!(fps > 0) || !std::isfinite(fps))
            continue;
        const double ms = 1000 / fps;
        m_frames.push_back(Frame{series.times[k], series.times[k] + Time(std::llround(ms * 1e6)), fps, ms});
    }
}

void FrameSeries::finish()
{
    std::stable_sort(m_frames.begin(), m_frames.end(), [](const Frame& a, const Frame& b) { return a.start < b.start; });
    m_reach.resize(m_frames.size());
    Time reach = std::numeric_limits<Time>::min();
    for (std::size_t k = 0; k < m_frames.size(); ++k) {
        reach = std::max(reach, m_frames[k].end);
        m_reach[k] = reach;
    }
}

std::pair<std::size_t, std::size_t> FrameSeries::overlapping(Time from, Time to) const
{
    // The first frame that may reach past `from` (a frame of no length at
    // `from` counts), up to the first starting at or after `to`.
    const auto first = std::lower_bound(m_reach.begin(), m_reach.end(), from) - m_reach.begin();
    const auto last = std::lower_bound(m_frames.begin(), m_frames.end(), to,
                                       [](const Frame& f, Time t) { return f.start < t; })
        - m_frames.begin();
    return {std::size_t(first), std::size_t(std::max(first, last))};
}

FrameSeries::Summary FrameSeries::summary(Time from, Time to) const
{
    Summary s;
    auto startsBefore = [](const Frame& f, Time t) { return f.start < t; };
    const auto begin = std::lower_bound(m_frames.begin(), m_frames.end(), from, startsBefore);
    const auto end = std::lower_bound(begin, m_frames.end(), to, startsBefore);
    if (begin == end)
        return s;
    std::vector<double> times;
    double fpsSum = 0;
    s.minFps = begin->fps;
    s.maxFps = begin->fps;
    for (auto it = begin; it != end; ++it) {
        ++s.frames;
        s.minFps = std::min(s.minFps, it->fps);
        s.maxFps = std::max(s.maxFps, it->fps);
        fpsSum += it->fps;
        times.push_back(it->frameTime);
        s.janky += it->frameTime > kJankMs ? 1 : 0;
        s.severeJanky += it->frameTime > kSevereJankMs ? 1 : 0;
        switch (quality(it->fps)) {
        case Quality::Good:
            ++s.good;
            break;
        case Quality::Medium:
            ++s.medium;
            break;
        case Quality::Bad:
            ++s.bad;
            break;
        }
    }
    s.averageFps = fpsSum / double(s.frames);
    std::sort(times.begin(), times.end());
    s.p50 = times[nearestRank(times.size(), 0.5)];
    s.p90 = times[nearestRank(times.size(), 0.9)];
    s.p99 = times[nearestRank(times.size(), 0.99)];
    return s;
}

} // namespace runlane
