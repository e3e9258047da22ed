#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// A pprof profile (google/pprof proto/profile.proto; formats.md (h)) as
// PprofDecoder reads it: the messages PprofBuilder needs, with references
// (ids, string indices) unresolved, because the string table and the
// locations may come after the samples that use them. Repeated parts are
// flattened into shared vectors so a profile of a million samples is a few
// vectors, not a million small ones. Strings point into the input bytes.
// `offset` is where each message starts, for errors found while resolving.
struct PprofFile {
    struct ValueType {
        std::int64_t type = 0; // string indices
        std::int64_t unit = 0;
    };
    struct Label {
        std::int64_t key = 0; // string indices; 0 = ""
        std::int64_t str = 0;
    };
    struct Sample {
        // location_id[first .. first + count) of locationIds, leaf first.
        std::uint32_t firstLocation = 0;
        std::uint32_t locationCount = 0;
        std::uint32_t firstValue = 0;
        std::uint32_t valueCount = 0;
        std::uint32_t firstLabel = 0;
        std::uint32_t labelCount = 0;
        std::int64_t offset = 0;
    };
    struct Line {
        std::uint64_t function = 0; // id; 0 = none
        std::int64_t line = 0;
    };
    struct Location {
        std::uint64_t id = 0;
        std::uint64_t mapping = 0; // id; 0 = none
        std::uint64_t address = 0;
        // Inlined frames: lines[first .. first + count), the last the caller.
        std::uint32_t firstLine = 0;
        std::uint32_t lineCount = 0;
        std::int64_t offset = 0;
    };
    struct Function {
        std::uint64_t id = 0;
        std::int64_t name = 0; // string indices
        std::int64_t systemName = 0;
        std::int64_t filename = 0;
        std::int64_t startLine = 0;
        std::int64_t offset = 0;
    };
    struct Mapping {
        std::uint64_t id = 0;
        std::int64_t filename = 0; // string index
        std::int64_t offset = 0;
    };

    std::vector<ValueType> sampleTypes;
    std::int64_t sampleTypesOffset = 0; // of the first, or 0
    std::vector<Sample> samples;
    std::vector<std::uint64_t> locationIds;
    std::vector<std::int64_t> values;
    std::vector<Label> labels;
    std::vector<Location> locations;
    std::vector<Line> lines;
    std::vector<Function> functions;
    std::vector<Mapping> mappings;
    std::vector<std::string_view> strings;
    std::int64_t defaultSampleType = 0; // string index; 0 = unset
    std::int64_t defaultSampleTypeOffset = 0;
};

} // namespace runlane
