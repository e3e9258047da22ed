#include "perfscriptbuilder.h"

#include "diagnostics.h"
#include "loaderror.h"
#include "samplestacklayout.h"
#include "texthash.h"

#include <algorithm>
#include <limits>

namespace runlane {

PerfScriptBuilder::PerfScriptBuilder(ProfileBuilder& builder, std::string variant)
    : m_builder(builder), m_variant(std::move(variant))
{
}

std::size_t PerfScriptBuilder::eventOf(std::string_view event)
{
    // Files mostly hold one event: the last one is the first guess.
    if (m_lastEvent < m_events.size() && m_events[m_lastEvent] == event)
        return m_lastEvent;
    const auto found = std::find(m_events.begin(), m_events.end(), event);
    m_lastEvent = std::size_t(found - m_events.begin());
    if (found == m_events.end()) {
        m_events.emplace_back(event);
        m_eventSamples.push_back(0);
        if (m_chosen == std::string::npos && (m_variant.empty() || m_variant == event))
            m_chosen = m_lastEvent;
    }
    return m_lastEvent;
}

PerfScriptBuilder::Thread& PerfScriptBuilder::threadOf(const PerfScriptLine::Header& header)
{
    // Without a pid (perf script's default fields) the tid alone names
    // the thread.
    const std::pair<std::int64_t, std::int64_t> key{header.hasPid ? header.pid : kTimeMin, header.tid};
    const auto [it, added] = m_threadIndex.try_emplace(key, m_threads.size());
    if (added) {
        Thread thread;
        thread.hasPid = header.hasPid;
        thread.pid = header.pid;
        thread.tid = header.tid;
        thread.comm = std::string(header.comm);
        m_threads.push_back(std::move(thread));
        if (header.hasPid)
            m_processNames.try_emplace(header.pid, header.comm);
    }
    m_current = it->second;
    Thread& thread = m_threads[m_current];
    // A thread is named after it starts (prctl, exec): its last comm is
    // the name it is known by.
    if (thread.comm != header.comm)
        thread.comm = std::string(header.comm);
    return thread;
}

bool PerfScriptBuilder::beginSample(const PerfScriptLine::Header& header, std::int64_t offset)
{
    const std::size_t event = eventOf(header.event);
    ++m_eventSamples[event];
    if (event != m_chosen)
        return false;
    const Timing timing = header.hasTime ? Timing::Timed : Timing::Untimed;
    if (m_timing == Timing::Unknown) {
        m_timing = timing;
        m_periods = header.hasPeriod;
    } else if (timing != m_timing) {
        throw FormatError(header.hasTime ? "a sample with a timestamp after samples without one"
                                         : "a sample without a timestamp after samples with one",
                          -1, offset);
    }
    if (header.hasTime) {
        m_value = header.time;
    } else if (header.hasPeriod) {
        if (header.period > std::uint64_t(kTimeMax / kTicksPerUnit))
            throw FormatError("a period of " + std::to_string(header.period) + " is beyond range", -1, offset);
        m_value = Time(header.period) * kTicksPerUnit;
    } else {
        m_value = kTicksPerUnit;
    }
    threadOf(header);
    m_frames.clear();
    m_lines.clear();
    return true;
}

LabelId PerfScriptBuilder::labelOf(const PerfScriptLine::Frame& frame)
{
    const bool knownDso = frame.hasDso && !frame.dso.empty() && frame.dso != "[unknown]";
    const bool unknownSymbol = frame.symbol == "[unknown]";
    // The key of the cache: what the label is made of.
    m_key.assign(frame.symbol);
    m_key += '\x1f';
    m_key += knownDso ? frame.dso : std::string_view();
    if (unknownSymbol && !knownDso) {
        m_key += '\x1f';
        m_key += frame.address;
    }
    const std::uint64_t hash = hashText(m_key);
    if (const LabelId known = m_labels.find(m_key, hash); known != kNone)
        return known;
    LabelId label = 0;
    if (!unknownSymbol)
        label = m_builder.label(frame.symbol, knownDso ? frame.dso : std::string_view());
    else if (knownDso)
        label = m_builder.label("[unknown] (" + std::string(frame.dso) + ")");
    else
        label = m_builder.label("0x" + std::string(frame.address));
    m_labels.add(m_key, hash, label);
    return label;
}

void PerfScriptBuilder::addFrameLine(std::string_view line, std::int64_t offset)
{
    if (m_lines.text.size() + line.size() > std::numeric_limits<std::uint32_t>::max())
        throw FormatError("a sample of more than 4 GiB of frames", -1, offset);
    m_lines.lines.push_back(Line{std::uint32_t(m_lines.text.size()), std::uint32_t(line.size()), offset});
    m_lines.text.append(line);
}

// The stack of the sample's frame lines: the same nodes as the previous
// sample's as far as the lines are the same, then one node per line, taken
// apart, from the first that differs.
std::uint32_t PerfScriptBuilder::resolveLines(Thread& thread)
{
    const Lines& previous = thread.previous;
    const std::size_t n = m_lines.lines.size();
    const std::size_t m = previous.lines.size();
    std::size_t depth = 0;
    std::uint32_t node = kNone;
    for (; depth < n && depth < m && m_lines.line(n - 1 - depth) == previous.line(m - 1 - depth); ++depth) {
        node = previous.nodes[depth];
        m_lines.nodes.push_back(node);
    }
    m_newFrames += n - depth;
    for (; depth < n; ++depth) {
        const Line& line = m_lines.lines[n - 1 - depth];
        if (!PerfScriptLine::parseFrame(m_lines.line(n - 1 - depth), m_frame))
            throw FormatError("expected a frame line (address symbol (dso)) or a blank line, found '"
                                  + PerfScriptLine::excerpt(m_lines.line(n - 1 - depth)) + "'",
                              -1, line.offset);
        node = m_stacks.add(node, labelOf(m_frame));
        m_lines.nodes.push_back(node);
    }
    std::swap(thread.previous, m_lines);
    m_lines.clear();
    return node;
}

void PerfScriptBuilder::endSample()
{
    Thread& thread = m_threads[m_current];
    std::uint32_t node = kNone;
    if (!m_lines.lines.empty()) {
        node = resolveLines(thread);
    } else {
        // The ip of the header line, or no frames at all.
        for (auto it = m_frames.rbegin(); it != m_frames.rend(); ++it)
            node = m_stacks.add(node, *it);
        m_newFrames += m_frames.size();
        thread.previous.clear();
    }
    thread.samples.push_back(Sample{m_value, node});
    m_frames.clear();
}

void PerfScriptBuilder::dropSample()
{
    m_frames.clear();
    m_lines.clear();
}

void PerfScriptBuilder::reportOtherEvents()
{
    std::uint64_t other = 0;
    std::string which;
    for (std::size_t e = 0; e < m_events.size(); ++e) {
        if (e == m_chosen)
            continue;
        other += m_eventSamples[e];
        m_builder.diagnostics().skipped(m_events[e] + " samples", m_eventSamples[e]);
        which += (which.empty() ? "" : ", ") + m_events[e] + " (" + std::to_string(m_eventSamples[e]) + ")";
    }
    if (other > 0)
        m_builder.diagnostics().warn("other events", std::to_string(other) + " samples of other events are not loaded: "
                                                         + which + "; choose an event to load its samples");
}

void PerfScriptBuilder::layoutTimed(Thread& thread, TrackId track)
{
    std::vector<Sample>& samples = thread.samples;
    // perf script writes samples in time order; one that is not (files
    // put together by hand) is put in order, and said.
    const auto byTime = [](const Sample& a, const Sample& b) { return a.value < b.value; };
    if (!std::is_sorted(samples.begin(), samples.end(), byTime)) {
        m_builder.diagnostics().warn("samples out of order", "the samples of thread " + std::to_string(thread.tid)
                                                                 + " are not in time order; they are sorted");
        std::stable_sort(samples.begin(), samples.end(), byTime);
    }
    std::vector<Time> gaps;
    gaps.reserve(samples.size());
    for (std::size_t i = 1; i < samples.size(); ++i)
        gaps.push_back(samples[i].value - samples[i - 1].value);
    Time median = 0;
    if (!gaps.empty()) {
        const auto middle = gaps.begin() + std::ptrdiff_t((gaps.size() - 1) / 2);
        std::nth_element(gaps.begin(), middle, gaps.end());
        median = *middle;
    }
    const bool cutsGaps = median > 0 && median <= kTimeMax / kOffCpuFactor;
    SampleStackLayout layout(m_builder, track, samples.front().value);
    std::vector<LabelId>& stack = m_rootFirst;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        m_stacks.path(samples[i].stack, stack);
        if (i + 1 == samples.size()) {
            layout.add(stack, median);
            break;
        }
        const Time gap = samples[i + 1].value - samples[i].value;
        if (cutsGaps && gap > kOffCpuFactor * median) {
            layout.add(stack, median);
            layout.skipTo(samples[i + 1].value);
        } else {
            layout.add(stack, gap);
        }
    }
    layout.finish();
}

void PerfScriptBuilder::layoutUntimed(const Thread& thread, TrackId track)
{
    SampleStackLayout layout(m_builder, track, 0);
    for (const Sample& sample : thread.samples) {
        m_stacks.path(sample.stack, m_rootFirst);
        layout.add(m_rootFirst, sample.value);
    }
    layout.finish();
}

void PerfScriptBuilder::finish()
{
    if (!m_variant.empty() && m_chosen == std::string::npos) {
        std::string names;
        for (const std::string& e : m_events)
            names += (names.empty() ? "" : ", ") + e;
        throw UnknownVariantError("no event '" + m_variant + "' in this file; "
                                      + (names.empty() ? std::string("it holds no samples") : "its events are: " + names),
                                  m_events);
    }
    if (m_events.empty())
        return;
    m_builder.setVariants(m_events, m_chosen);
    reportOtherEvents();
    if (m_timing == Timing::Untimed) {
        m_builder.setUnit(m_periods ? ValueUnit::None : ValueUnit::Samples);
        m_builder.setPrefersAggregatedView(true);
    } else {
        m_builder.setUnit(ValueUnit::Nanoseconds);
    }
    // Room for the calls, so that millions of them are not copied as the
    // vectors grow.
    m_builder.reserve(std::size_t(m_newFrames + m_newFrames / 8));
    for (Thread& thread : m_threads) {
        if (thread.samples.empty())
            continue; // its only sample was cut off
        TrackInfo info;
        info.kind = TrackKind::Thread;
        info.tid = thread.tid;
        // Without a pid, a thread is shown as a process of its own (the
        // main thread of a process has pid = tid).
        info.pid = thread.hasPid ? thread.pid : thread.tid;
        info.threadName = m_builder.intern(thread.comm);
        info.processName = thread.hasPid ? m_builder.intern(m_processNames[thread.pid]) : info.threadName;
        // Threads often share a comm (a process's workers, forks): the tid
        // tells their tracks apart.
        info.displayName = m_builder.intern(std::string(m_builder.string(info.processName))
                                            + std::string(Profile::kTrackNameSeparator) + thread.comm + " (tid "
                                            + std::to_string(thread.tid) + ")");
        const TrackId track = m_builder.addTrack(info);
        if (m_timing == Timing::Timed)
            layoutTimed(thread, track);
        else
            layoutUntimed(thread, track);
        thread.samples = {};
        thread.previous = {};
    }
}

} // namespace runlane
