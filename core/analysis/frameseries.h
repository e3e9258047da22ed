#pragma once

#include "profile.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace runlane {

// The rendered frames of a profile and their statistics (issue 43, frame
// statistics), from one source per profile so that no frame is counted
// twice; the first of these the profile holds:
//
// 1. Enso `RenderStats` marks (formats.md (n)): one per frame, at the
//    frame's start, with its `frame_time` (ms of work) and `fps` (1000 /
//    the time since the previous frame started). The frame is
//    [mark, mark + frame_time]. A mark without both numbers is skipped
//    (the Enso reader has warned of it).
// 2. Chrome and Perfetto frame events, each a frame's start: `DrawFrame`
//    (a frame the compositor drew), then `PipelineReporter` (one per frame
//    of the compositor's pipeline), `BeginMainThreadFrame`, `BeginFrame`;
//    instants (marks) or slices alike. A frame lasts until the next one
//    starts, and its fps is 1000 / that time in ms. A gap of a second or
//    more is idle time (Chrome draws nothing when nothing changes), not a
//    frame; the last start, with nothing after it, is no frame either.
// 3. A counter named `fps`: each point a frame of 1000 / fps ms.
//
// Several processes draw frames of their own (a browser and its
// renderers): the frames are those of the process with the most events of
// the chosen kind (the lowest pid on a tie).
class FrameSeries
{
public:
    enum class Source : std::uint8_t { None, RenderStats, DrawFrame, PipelineReporter, BeginMainThreadFrame, BeginFrame,
                                       FpsCounter };
    // Enso's colouring of frame blocks: fps > 55 good, > 25 medium, else bad.
    enum class Quality : std::uint8_t { Good, Medium, Bad };

    struct Frame {
        Time start = 0;
        Time end = 0;
        double fps = 0;
        double frameTime = 0; // ms
    };

    // The statistics of the frames that start in a range.
    struct Summary {
        std::uint64_t frames = 0;
        double minFps = 0; // 0 when there are no frames
        double maxFps = 0;
        double averageFps = 0; // the mean of the frames' fps
        double p50 = 0; // frame time, ms, nearest rank
        double p90 = 0;
        double p99 = 0;
        std::uint64_t janky = 0; // frame time over kJankMs
        std::uint64_t severeJanky = 0; // over kSevereJankMs
        std::uint64_t good = 0; // by quality()
        std::uint64_t medium = 0;
        std::uint64_t bad = 0;
    };

    static constexpr double kJankMs = 16.7; // a frame missed at 60 Hz
    static constexpr double kSevereJankMs = 33.3; // two missed
    static constexpr Time kIdleGap = 1'000'000'000; // ns: no frame spans this

    static FrameSeries of(const Profile& profile);
    static Quality quality(double fps);
    // "RenderStats", "DrawFrame", …, "fps counter"; "none".
    static const char* sourceName(Source source);

    Source source() const { return m_source; }
    // The process the frames are of.
    std::int64_t pid() const { return m_pid; }
    // By start.
    const std::vector<Frame>& frames() const { return m_frames; }
    bool empty() const { return m_frames.empty(); }
    // RenderStats marks without a numeric frame_time and fps.
    std::uint64_t skipped() const { return m_skipped; }
    // Indices [first, last) of the frames that overlap [from, to): two
    // binary searches.
    std::pair<std::size_t, std::size_t> overlapping(Time from, Time to) const;
    // The frames that start in [from, to).
    Summary summary(Time from, Time to) const;

private:
    void readRenderStats(const Profile& profile);
    void readEvents(Source source, const std::vector<std::pair<std::int64_t, Time>>& starts);
    void readCounter(const CounterSeries& series);
    void finish();

    Source m_source = Source::None;
    std::int64_t m_pid = 0;
    std::vector<Frame> m_frames;
    std::vector<Time> m_reach; // the latest end of the frames up to each one: sorted
    std::uint64_t m_skipped = 0;
};

} // namespace runlane
