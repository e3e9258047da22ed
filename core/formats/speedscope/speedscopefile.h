#pragma once

#include "numberparse.h"

#include <cstdint>
#include <string>
#include <vector>

namespace runlane {

// A speedscope file as SpeedscopeJsonReader reads it (formats.md (c)):
// the shared frames and each profile's raw events or samples. Values stay
// exact decimals until the profile's unit, which may come later, is known.
struct SpeedscopeFile {
    struct Frame {
        std::string name;
        std::string file;
        std::int64_t line = 0;
    };
    struct Event {
        bool open; // "O", else "C"
        std::uint32_t frame;
        Decimal at;
    };
    struct Profile {
        std::string type; // "evented" or "sampled"
        std::string name;
        std::string unit;
        bool hasStart = false;
        bool hasEnd = false;
        Decimal startValue;
        Decimal endValue;
        std::vector<Event> events;
        // Samples, flattened: sample k is frames[sampleStart[k] .. sampleStart[k + 1]).
        std::vector<std::uint32_t> sampleFrames;
        std::vector<std::uint32_t> sampleStart{0};
        std::vector<Decimal> weights;
    };

    std::vector<Frame> frames;
    std::vector<Profile> profiles;
};

} // namespace runlane
