#pragma once

#include "pproffile.h"
#include "profilebuilder.h"

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of pprof: one sample type (the file's variants) of a decoded
// profile into the model. pprof has no timestamps, so like folded stacks the
// samples are laid end to end with their value as weight, in call path
// order so that each path is one interval: aggregated views only. Samples
// that carry a `thread` label go to one track per thread.
class PprofBuilder
{
public:
    // `variant`: the sample type asked for ("cpu (nanoseconds)" or "cpu"),
    // empty for the default. `inputSize` bounds how many frames the stacks
    // may expand to, so a small hostile file cannot ask for gigabytes.
    PprofBuilder(const PprofFile& file, ProfileBuilder& builder, std::string_view variant, std::size_t inputSize);
    void build();

private:
    // A call tree per track: a sample's stack is a path from the track's
    // root, its value the path's last node's self weight.
    struct Node {
        LabelId label = kNone;
        std::uint32_t parent = kNone;
        Time self = 0;
    };
    struct Track {
        std::string_view name;
        std::uint32_t root = 0;
    };

    std::string_view string(std::int64_t index, std::int64_t offset, const std::string& what) const;
    std::size_t chooseVariant(const std::vector<std::string>& names);
    void setUnit(std::size_t variant);
    void indexIds();
    void addSample(const PprofFile::Sample& sample, std::size_t number);
    std::uint32_t trackOf(const PprofFile::Sample& sample);
    // The frames of a location, leaf (innermost inlined) first.
    std::pair<std::uint32_t, std::uint32_t> framesOf(std::uint64_t locationId, const PprofFile::Sample& sample);
    LabelId functionLabel(const PprofFile::Line& line, const PprofFile::Location& location);
    LabelId addressLabel(const PprofFile::Location& location);
    std::uint32_t child(std::uint32_t parent, LabelId label);
    void layOut();

    const PprofFile& m_file;
    ProfileBuilder& m_builder;
    std::string m_variant;
    std::uint64_t m_frameBudget = 0;
    std::uint64_t m_frames = 0;
    ValueUnit m_unit = ValueUnit::Samples;
    Time m_scale = kTicksPerUnit;
    std::size_t m_valueIndex = 0;

    std::unordered_map<std::uint64_t, std::uint32_t> m_locationById;
    std::unordered_map<std::uint64_t, std::uint32_t> m_functionById;
    std::unordered_map<std::uint64_t, std::uint32_t> m_mappingById;
    // Per location, its frames in m_locationFrames (first, count); count
    // kNone until first used.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_locationSpan;
    std::vector<LabelId> m_locationFrames;
    // Label names, to order siblings by name; address frames' names are
    // made here and kept in m_madeNames.
    std::vector<std::string_view> m_labelName;
    std::deque<std::string> m_madeNames;

    std::vector<Node> m_nodes;
    std::unordered_map<std::uint64_t, std::uint32_t> m_children; // (parent, label) -> node
    std::vector<Track> m_tracks;
    std::unordered_map<std::string_view, std::uint32_t> m_trackByThread;
    std::uint32_t m_unthreaded = kNone;
    std::vector<LabelId> m_stack; // root first
};

} // namespace runlane
