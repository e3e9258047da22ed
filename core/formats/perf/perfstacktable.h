#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <vector>

namespace runlane {

// The call stacks of a thread's samples as a tree of frames: a node is a
// frame under its parent (kNone for a root frame) and a stack is its leaf
// node. A sample then costs one number instead of its frames, so a reader
// can keep millions of samples until it knows the typical interval of
// their thread, and a sample that shares its first frames with the one
// before (as consecutive samples do) adds nodes only for the rest. Nodes
// are not looked up, only added: equal stacks reached another way are two
// paths, which costs a few bytes and saves a hash lookup per frame.
class PerfStackTable
{
public:
    // A node for `label` under `parent`.
    std::uint32_t add(std::uint32_t parent, LabelId label);
    // The labels from the root down to `node` (none for kNone).
    void path(std::uint32_t node, std::vector<LabelId>& rootFirst) const;
    std::size_t size() const { return m_nodes.size(); }

private:
    struct Node {
        std::uint32_t parent = kNone;
        LabelId label = 0;
    };
    std::vector<Node> m_nodes;
};

} // namespace runlane
