#pragma once

#include "loaderror.h"
#include "profilebuilder.h"
#include "sampletree.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// What V8's CPU profiles (formats.md (f)) mean, shared by the readers of
// `.cpuprofile` files and of the samples inside Chrome traces.
namespace v8samples {

// A call frame's label: DevTools' "(anonymous)" for a function without a
// name, the script's URL as the file, and the line 1-based (V8 counts from
// 0; -1 is unknown). "(root)" is a pseudo-frame above everything and is
// left out of stacks; "(idle)" is the thread with nothing to do.
inline LabelId frameLabel(ProfileBuilder& builder, std::string_view function, std::string_view url, std::int64_t line0)
{
    if (function == "(root)" && url.empty())
        return SampleTree::kTransparent;
    const std::int32_t line = line0 >= 0 && line0 < INT32_MAX ? std::int32_t(line0 + 1) : 0;
    const LabelId label = builder.label(function.empty() ? std::string_view("(anonymous)") : function, url, line);
    if (function == "(idle)" && url.empty())
        builder.markIdle(label);
    return label;
}

// Sample times from V8's deltas: microseconds since the previous sample
// (the first since the profile's start). V8 sometimes writes a negative
// delta; the sample is then held at the previous one's time (counted in a
// warning) while the running sum keeps the true clock, so that later
// samples stay aligned with a trace of the same run.
//
// A sample lasts until the next one; the clock also says how long the last
// one lasts (lastSampleEnd), which no delta gives: the median interval of
// the profile (the median of its positive sample-to-sample gaps: DevTools
// gives the mean, which one long pause inflates), never past the profile's
// endTime. endTime alone is no measure: it is when profiling was stopped,
// seconds after the last sample if the program went idle, and the last
// sample would then take all that time. A lone sample, or samples that all
// share one time, have no interval: the last one lasts 0, as in speedscope
// (DevTools' mean is 0/0 there).
class SampleClock
{
public:
    // An endTime more than this many median intervals after the last
    // sample is worth a warning: the time it leaves out is not a rounding.
    static constexpr Time kFarEnd = 10;

    // Times in nanoseconds (the file's microseconds, converted exactly).
    SampleClock(Diagnostics& diagnostics, Time start) : m_diagnostics(&diagnostics), m_clock(start) { }

    // The next sample's time, `delta` after the previous sample's true time.
    Time next(Time delta)
    {
        if (__builtin_add_overflow(m_clock, delta, &m_clock))
            throw FormatError("sample times run out of range");
        return at(m_clock);
    }
    // The next sample's time when the file gives it whole (the legacy
    // `timestamps`).
    Time at(Time time)
    {
        m_clock = time;
        Time t = time;
        if (m_started && t < m_last) {
            ++m_backwards;
            t = m_last;
        }
        Time gap = 0;
        if (m_started && t > m_last)
            m_gaps.push_back(__builtin_sub_overflow(t, m_last, &gap) ? kTimeMax : gap);
        m_started = true;
        m_last = t;
        return t;
    }
    // Says how many samples were held back, once all are read.
    void finish()
    {
        if (m_backwards > 0)
            m_diagnostics->warn("negative sample time delta",
                               std::to_string(m_backwards)
                                   + " samples have a time before the previous sample's (a negative timeDelta); "
                                     "each is placed at the previous sample's time");
    }
    // The median of the positive gaps between samples so far, 0 if there
    // is none; of an even count, the mean of the middle two (rounded down).
    Time medianInterval()
    {
        if (m_gaps.empty())
            return 0;
        const auto mid = m_gaps.begin() + std::ptrdiff_t(m_gaps.size() / 2);
        std::nth_element(m_gaps.begin(), mid, m_gaps.end());
        const Time upper = *mid;
        if (m_gaps.size() % 2 == 1)
            return upper;
        const Time lower = *std::max_element(m_gaps.begin(), mid);
        return lower + (upper - lower) / 2;
    }
    // When the last sample ends (see the class comment), for
    // SampleTree::finish: its time plus the median interval, or plus the gap
    // to `endTime` when that is shorter (0 if endTime is before it). Warns
    // when endTime lies more than kFarEnd intervals after it; `whose` names
    // the profile in that warning ("" for the file's only one). kNoEnd
    // without samples.
    Time lastSampleEnd(std::optional<Time> endTime, const std::string& whose)
    {
        if (!m_started)
            return SampleTree::kNoEnd;
        const Time median = medianInterval();
        Time length = median;
        if (endTime) {
            Time gap = 0;
            if (__builtin_sub_overflow(*endTime, m_last, &gap))
                gap = *endTime > m_last ? kTimeMax : 0;
            gap = std::max<Time>(gap, 0);
            length = std::min(length, gap);
            Time far = 0;
            if (median > 0 && !__builtin_mul_overflow(median, kFarEnd, &far) && gap > far) {
                m_diagnostics->warnWith("CPU profile ends long after its last sample", [&] {
                    const Time rest = gap % median;
                    const Time intervals = gap / median + (rest >= median - rest ? 1 : 0); // rounded, without overflow
                    return (whose.empty() ? std::string() : whose + ": ") + "the profile's endTime lies " + millis(gap)
                        + " after the last sample (" + std::to_string(intervals)
                        + " intervals); the last sample was given the median interval, " + millis(median);
                });
            }
        }
        return addClamped(m_last, length);
    }

    // Nanoseconds (not negative) as milliseconds to the microsecond, V8's
    // own unit, rounded: "7.118 ms". In integers, exact at any size.
    static std::string millis(Time ns)
    {
        const Time us = ns / 1000 + (ns % 1000 >= 500 ? 1 : 0);
        char text[48];
        std::snprintf(text, sizeof text, "%lld.%03lld ms", static_cast<long long>(us / 1000), static_cast<long long>(us % 1000));
        return text;
    }

private:
    Diagnostics* m_diagnostics;
    std::int64_t m_clock;
    Time m_last = 0;
    bool m_started = false;
    std::uint64_t m_backwards = 0;
    std::vector<Time> m_gaps; // between consecutive samples, the positive ones
};

} // namespace v8samples

} // namespace runlane
