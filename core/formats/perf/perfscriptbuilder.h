#pragma once

#include "perflabeltable.h"
#include "perfscriptline.h"
#include "perfstacktable.h"
#include "profilebuilder.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of `perf script` text: the samples of one event (a variant;
// the first in the file unless LoadControl::variant names another) on one
// Thread track per (pid, tid), or per tid where perf wrote no pid. The
// process name is the comm of the pid's first sample, the thread name the
// thread's last comm (threads are named after they start), and the tid
// tells apart threads of one name: "firefox / gdbus (tid 7567)".
//
// Timed samples (the usual output) are laid out per thread from its first
// sample's timestamp, in ns: a sample lasts until the next sample of the
// same thread, and the last one of a thread lasts the thread's median gap
// between samples (the lower middle one; 0 for a thread of one sample).
// A gap of more than kOffCpuFactor × that median means the thread was off
// the CPU: the sample then lasts the median and nothing runs until the
// next one, rather than its stack being stretched over the idle time.
// Without timestamps (perf script -F without time) the samples are laid
// end to end, each weighing its period (unit None: a count of the event)
// or, without periods, 1 sample; the aggregated view suits these best.
//
// A frame's label is (symbol, dso): the symbol without its "+0x…" offset,
// the dso as perf wrote it as the file, so `foo (libc.so.6)` and `foo
// (app)` are two labels. Kernel frames keep theirs too: a dso in brackets
// ([kernel.kallsyms], [vdso], a module) is no file, and says the frame
// ran in the kernel. A frame perf could not symbolise is "[unknown] (dso)",
// or its address ("0x7f01…") when the dso is unknown too; its file is then
// empty, as the name says all that is known.
class PerfScriptBuilder
{
public:
    static constexpr Time kOffCpuFactor = 10;

    // `variant`: the event to load, empty for the first one.
    PerfScriptBuilder(ProfileBuilder& builder, std::string variant);

    // True if the sample is of the event loaded: its frames follow, leaf
    // first. `offset` is the header's, for errors.
    bool beginSample(const PerfScriptLine::Header& header, std::int64_t offset);
    // The sampled ip on the header line (output without callchains).
    void addFrame(const PerfScriptLine::Frame& frame) { m_frames.push_back(labelOf(frame)); }
    // A frame line, as it is: taken apart when the sample ends, and only
    // if it differs from the line at the same depth of the thread's
    // previous sample (most do not: a program returns and calls a few
    // frames between samples). `offset` is the line's, for errors.
    void addFrameLine(std::string_view line, std::int64_t offset);
    void endSample();
    // The sample begun is incomplete (the file ends inside it).
    void dropSample();
    void finish();

private:
    // The time of a timed sample, the weight of an untimed one; its stack
    // (a node of m_stacks, kNone for no frames).
    struct Sample {
        Time value = 0;
        std::uint32_t stack = kNone;
    };
    // A frame line in a text buffer.
    struct Line {
        std::uint32_t begin = 0;
        std::uint32_t size = 0;
        std::int64_t offset = 0; // in the file
    };
    // The frame lines of a sample and their nodes in m_stacks.
    struct Lines {
        std::string text;
        std::vector<Line> lines; // leaf first
        std::vector<std::uint32_t> nodes; // root first
        std::string_view line(std::size_t i) const { return {text.data() + lines[i].begin, lines[i].size}; }
        void clear()
        {
            text.clear();
            lines.clear();
            nodes.clear();
        }
    };
    struct Thread {
        bool hasPid = false;
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        std::string comm; // the last one
        std::vector<Sample> samples;
        Lines previous; // the frames of its last sample
    };
    struct ThreadKeyHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const noexcept
        {
            return std::size_t(std::uint64_t(k.first) * 0x9E3779B97F4A7C15ull) ^ std::size_t(k.second);
        }
    };
    std::size_t eventOf(std::string_view event);
    Thread& threadOf(const PerfScriptLine::Header& header);
    LabelId labelOf(const PerfScriptLine::Frame& frame);
    std::uint32_t resolveLines(Thread& thread);
    void reportOtherEvents();
    void layoutTimed(Thread& thread, TrackId track);
    void layoutUntimed(const Thread& thread, TrackId track);

    ProfileBuilder& m_builder;
    std::string m_variant;
    std::vector<std::string> m_events; // in order of first appearance
    std::vector<std::uint64_t> m_eventSamples;
    std::size_t m_lastEvent = 0;
    std::size_t m_chosen = std::string::npos;
    enum class Timing { Unknown, Timed, Untimed };
    Timing m_timing = Timing::Unknown;
    bool m_periods = false;

    std::vector<Thread> m_threads;
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, ThreadKeyHash> m_threadIndex;
    std::size_t m_current = 0; // the thread of the sample begun
    std::unordered_map<std::int64_t, std::string> m_processNames; // comm of a pid's first sample
    Time m_value = 0; // of the sample begun

    PerfLabelTable m_labels;
    std::string m_key;
    std::vector<LabelId> m_frames; // of the sample begun, leaf first, without lines
    Lines m_lines; // of the sample begun
    PerfScriptLine::Frame m_frame;
    std::vector<LabelId> m_rootFirst;
    PerfStackTable m_stacks;
    // Frames that differ from the sample before on their thread: about
    // the calls the layout makes, to reserve room for them.
    std::uint64_t m_newFrames = 0;
};

} // namespace runlane
