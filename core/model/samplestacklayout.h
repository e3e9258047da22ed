#pragma once

#include "profilebuilder.h"

#include <span>
#include <vector>

namespace runlane {

// Lays stack samples end to end on a track: each sample lasts its weight,
// and a frame that consecutive samples share (the same frames from the root
// down to it) is one interval. Sorted input (as flamegraph.pl writes it)
// gives each call path once; input in time order gives a flame chart.
class SampleStackLayout
{
public:
    SampleStackLayout(ProfileBuilder& builder, TrackId track, Time start);
    // `stack` is root first.
    void add(std::span<const LabelId> stack, Time weight);
    // Nothing ran from the end of the last sample until `t` (a thread off
    // the CPU): closes every open frame there and goes on at `t`, so that
    // no stack is stretched over the gap. `t` before the end of the last
    // sample is a FormatError.
    void skipTo(Time t);
    // Closes what is open; returns the end of the last sample.
    Time finish();

private:
    struct Open {
        LabelId label;
        Time start;
        std::uint32_t order;
    };
    void closeTo(std::size_t depth);

    ProfileBuilder& m_builder;
    TrackId m_track;
    Time m_now;
    std::uint32_t m_order = 0;
    std::vector<Open> m_open;
};

} // namespace runlane
