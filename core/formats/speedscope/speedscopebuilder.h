#pragma once

#include "profilebuilder.h"
#include "speedscopefile.h"

#include <vector>

namespace runlane {

// Format side of speedscope files: every profile becomes a track. Evented
// profiles give their frames' open/close intervals; sampled profiles lay their
// samples end to end, each as long as its weight, and a frame of consecutive
// samples that share the stack up to it is one interval (speedscope's "time
// order" view). Sampled profiles read best as a flame graph.
class SpeedscopeBuilder
{
public:
    SpeedscopeBuilder(const SpeedscopeFile& file, ProfileBuilder& builder);
    // Throws FormatError for references to frames that do not exist.
    void build();

private:
    Time value(const Decimal& d, const std::string& what) const;
    LabelId labelOf(std::uint32_t frame, std::size_t profile);
    void evented(const SpeedscopeFile::Profile& p, TrackId track, std::size_t index);
    void sampled(const SpeedscopeFile::Profile& p, TrackId track, std::size_t index);

    const SpeedscopeFile& m_file;
    ProfileBuilder& m_builder;
    std::vector<LabelId> m_labels; // per frame, kNone until used
    int m_scale = 0; // 10^m_scale ticks per value of the profiles' unit
    std::uint32_t m_order = 0;
};

} // namespace runlane
