#include "framesformatter.h"

#include "compareformatter.h"
#include "timeformat.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>

namespace runlane {

std::string FramesFormatter::decimal(double value)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

std::string FramesFormatter::processName(const Profile& profile, std::int64_t pid)
{
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        const Track& track = profile.track(t);
        if (track.pid == pid && track.processName != kEmptyString)
            return std::string(profile.string(track.processName));
    }
    return "pid " + std::to_string(pid);
}

FrameSeries::Summary FramesFormatter::summary(const FrameSeries& frames, std::optional<TimeRange> range)
{
    return range ? frames.summary(range->from, range->to)
                 : frames.summary(std::numeric_limits<Time>::min(), std::numeric_limits<Time>::max());
}

std::string FramesFormatter::table(const Profile& profile, const FrameSeries& frames, std::optional<TimeRange> range)
{
    using F = CompareFormatter;
    if (frames.empty()) {
        return "No frames: the profile has no Enso RenderStats, no DrawFrame, PipelineReporter, "
               "BeginMainThreadFrame or BeginFrame events, and no fps counter.\n";
    }
    const Time origin = profile.startTime();
    const FrameSeries::Summary s = summary(frames, range);
    std::string out = "Frames from " + std::string(FrameSeries::sourceName(frames.source())) + " of "
        + processName(profile, frames.pid()) + ", "
        + (range ? "those starting " + TimeFormat::milliseconds(range->from - origin) + " to "
                       + TimeFormat::milliseconds(range->to - origin) + " ms from the profile's start"
                 : std::string("the whole profile"));
    if (frames.skipped() > 0)
        out += " (" + std::to_string(frames.skipped()) + " RenderStats without frame_time and fps skipped)";
    out += "\n\n";
    auto row = [&](const std::string& name, const std::string& value) {
        out += F::pad(name, 22) + F::pad(value, 12, true) + "\n";
    };
    const bool any = s.frames > 0;
    auto figure = [&](double value) { return any ? decimal(value) : std::string("-"); };
    row("frames", std::to_string(s.frames));
    row("fps min", figure(s.minFps));
    row("fps max", figure(s.maxFps));
    row("fps average", figure(s.averageFps));
    row("frame time p50 ms", figure(s.p50));
    row("frame time p90 ms", figure(s.p90));
    row("frame time p99 ms", figure(s.p99));
    row("janky > 16.7 ms", std::to_string(s.janky));
    row("janky > 33.3 ms", std::to_string(s.severeJanky));
    row("good (> 55 fps)", std::to_string(s.good));
    row("medium (> 25 fps)", std::to_string(s.medium));
    row("bad (<= 25 fps)", std::to_string(s.bad));
    return out;
}

std::string FramesFormatter::json(const Profile& profile, const FrameSeries& frames, std::optional<TimeRange> range)
{
    const Time origin = profile.startTime();
    const FrameSeries::Summary s = summary(frames, range);
    const TimeRange shown = range.value_or(TimeRange{profile.startTime(), profile.endTime()});
    const bool any = s.frames > 0;
    auto figure = [&](double value) { return any ? decimal(value) : std::string("null"); };
    const std::string process
        = frames.empty() ? "null" : nlohmann::json(processName(profile, frames.pid())).dump(-1, ' ', false,
                                                                                      nlohmann::json::error_handler_t::replace);
    return "{\"source\":\"" + std::string(FrameSeries::sourceName(frames.source())) + "\",\"process\":" + process
        + ",\"from_ms\":" + TimeFormat::milliseconds(shown.from - origin)
        + ",\"to_ms\":" + TimeFormat::milliseconds(shown.to - origin) + ",\"frames\":" + std::to_string(s.frames)
        + ",\"skipped\":" + std::to_string(frames.skipped()) + ",\n\"min_fps\":" + figure(s.minFps)
        + ",\"max_fps\":" + figure(s.maxFps) + ",\"average_fps\":" + figure(s.averageFps)
        + ",\n\"frame_time_ms\":{\"p50\":" + figure(s.p50) + ",\"p90\":" + figure(s.p90) + ",\"p99\":" + figure(s.p99)
        + "},\n\"janky\":{\"over_16.7_ms\":" + std::to_string(s.janky) + ",\"over_33.3_ms\":"
        + std::to_string(s.severeJanky) + "},\n\"quality\":{\"good\":" + std::to_string(s.good) + ",\"medium\":"
        + std::to_string(s.medium) + ",\"bad\":" + std::to_string(s.bad) + "}}\n";
}

} // namespace runlane
