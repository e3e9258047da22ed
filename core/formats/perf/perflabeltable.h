#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// Labels by the text they are made of ("symbol\x1fdso"): looked up for
// every frame line that differs from the sample before, so open addressing
// over one hash per text rather than a node-based map.
class PerfLabelTable
{
public:
    PerfLabelTable();
    // kNone if the text has no label yet.
    LabelId find(std::string_view key, std::uint64_t hash) const;
    void add(std::string_view key, std::uint64_t hash, LabelId label);

private:
    struct Entry {
        std::uint64_t hash = 0;
        std::size_t text = 0; // offset in m_text
        std::uint32_t size = 0;
        LabelId label = 0;
    };
    void grow();

    std::vector<Entry> m_entries;
    std::vector<std::uint32_t> m_slots; // entry indices, kNone where free
    std::string m_text;
};

} // namespace runlane
