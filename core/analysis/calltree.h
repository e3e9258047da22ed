#pragma once

#include "profile.h"

#include <span>
#include <vector>

namespace runlane {

// The aggregated flame graph (semantics.md §7): per track, the intervals
// merged by call path (the labels from the root down), each path once, with
// its total (the sum of its intervals' lengths), self time and count.
//
// Its layout has the shape of a profile's: per track and depth, a run of
// disjoint spans sorted by start, where a span's start and end are offsets
// on a shared axis (heaviest child first, children within their parent),
// `measurement` names the node and `parent` the parent's span. So the icicle
// paints and hit-tests it with the same code as the timeline.
class CallTree
{
public:
    struct Node {
        LabelId label = 0;
        std::uint32_t parent = kNone;
        Time total = 0;
        Time self = 0;
        std::uint32_t count = 0; // intervals merged into it
        TrackId track = 0;
    };

    explicit CallTree(const Profile& profile);

    std::size_t nodeCount() const { return m_nodes.size(); }
    const Node& node(std::uint32_t id) const { return m_nodes[id]; }
    // The axis runs from 0 to the largest track's total.
    Time axisEnd() const { return m_axisEnd; }

    std::size_t trackCount() const { return m_depthOffsets.size(); }
    int depthCount(TrackId track) const { return int(m_depthOffsets[track].size()) - 1; }
    std::span<const Interval> depthSlice(TrackId track, int depth) const;
    std::span<const Interval> spans() const { return m_spans; }
    // The span of an interval of the profile: where its call path is drawn.
    std::uint32_t spanOfNode(std::uint32_t node) const { return m_spanOfNode[node]; }

private:
    std::vector<Node> m_nodes;
    std::vector<Interval> m_spans;
    std::vector<std::vector<std::uint32_t>> m_depthOffsets;
    std::vector<std::uint32_t> m_spanOfNode;
    Time m_axisEnd = 0;
};

} // namespace runlane
