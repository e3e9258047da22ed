#pragma once

#include "loaderror.h"
#include "profilebuilder.h"
#include "sampletree.h"

#include <string_view>

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
class SampleClock
{
public:
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

private:
    Diagnostics* m_diagnostics;
    std::int64_t m_clock;
    Time m_last = 0;
    bool m_started = false;
    std::uint64_t m_backwards = 0;
};

} // namespace v8samples

} // namespace runlane
