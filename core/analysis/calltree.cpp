#include "calltree.h"

#include <algorithm>
#include <unordered_map>

namespace runlane {

CallTree::CallTree(const Profile& profile) : m_depthOffsets(profile.trackCount())
{
    std::vector<std::vector<Interval>> perDepth;
    std::vector<std::uint32_t> nodeOf;
    std::unordered_map<std::uint64_t, std::uint32_t> childOf; // (parent node + 1, label) -> node
    std::vector<std::uint32_t> depthOfNode;
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        const Track& track = profile.track(t);
        const std::size_t firstNode = m_nodes.size();
        // Merge by call path. Rows are processed shallow first, so a parent
        // interval always has its node before its children ask for it.
        nodeOf.assign(track.end - track.begin, kNone);
        childOf.clear();
        for (int d = 0; d < track.depthCount(); ++d) {
            const auto [first, last] = std::pair(track.depthOffsets[d], track.depthOffsets[d + 1]);
            for (IntervalId id = first; id < last; ++id) {
                const Interval& iv = profile.interval(id);
                const std::uint32_t parentNode = iv.parent == kNone ? kNone : nodeOf[iv.parent - track.begin];
                const LabelId label = profile.labelOf(iv.measurement);
                const std::uint64_t key = (std::uint64_t(parentNode + 1) << 32) | label;
                auto [it, inserted] = childOf.emplace(key, std::uint32_t(m_nodes.size()));
                if (inserted) {
                    Node node;
                    node.label = label;
                    node.parent = parentNode;
                    node.track = t;
                    m_nodes.push_back(node);
                }
                // Totals are sums of durations: overlapping async tasks of a
                // profile that spans centuries add up beyond 64 bits.
                Node& node = m_nodes[it->second];
                node.total = addClamped(node.total, iv.end - iv.start);
                ++node.count;
                nodeOf[id - track.begin] = it->second;
            }
        }

        // Children lists, heaviest first (ties by label, for a stable picture).
        const std::size_t nodes = m_nodes.size() - firstNode;
        std::vector<std::vector<std::uint32_t>> children(nodes + 1); // last = the roots
        for (std::uint32_t n = std::uint32_t(firstNode); n < m_nodes.size(); ++n) {
            const std::uint32_t parent = m_nodes[n].parent;
            children[parent == kNone ? nodes : parent - firstNode].push_back(n);
        }
        for (auto& list : children) {
            std::sort(list.begin(), list.end(), [this](std::uint32_t a, std::uint32_t b) {
                return m_nodes[a].total != m_nodes[b].total ? m_nodes[a].total > m_nodes[b].total
                                                            : m_nodes[a].label < m_nodes[b].label;
            });
        }
        for (std::uint32_t n = std::uint32_t(firstNode); n < m_nodes.size(); ++n) {
            Time childTotal = 0;
            for (const std::uint32_t c : children[n - firstNode])
                childTotal = addClamped(childTotal, m_nodes[c].total);
            m_nodes[n].self = std::max<Time>(0, m_nodes[n].total - childTotal);
        }

        // Lay out depth first: a node spans [x, x + total); its children
        // follow each other from its start, clipped to it.
        perDepth.clear();
        depthOfNode.assign(nodes, 0);
        struct Item {
            std::uint32_t node;
            Time x;
            Time limit;
            int depth;
        };
        std::vector<Item> stack;
        Time rootX = 0;
        for (const std::uint32_t root : children[nodes]) {
            stack.push_back(Item{root, rootX, kTimeMax, 0});
            rootX = addClamped(rootX, m_nodes[root].total);
        }
        std::reverse(stack.begin(), stack.end());
        std::vector<std::uint32_t> indexInDepth(nodes, 0);
        while (!stack.empty()) {
            const Item item = stack.back();
            stack.pop_back();
            const Node& node = m_nodes[item.node];
            const Time end = std::min(item.limit, addClamped(item.x, node.total));
            if (perDepth.size() <= std::size_t(item.depth))
                perDepth.resize(std::size_t(item.depth) + 1);
            indexInDepth[item.node - firstNode] = std::uint32_t(perDepth[std::size_t(item.depth)].size());
            depthOfNode[item.node - firstNode] = std::uint32_t(item.depth);
            perDepth[std::size_t(item.depth)].push_back(Interval{item.x, end, item.node, node.parent});
            Time x = item.x;
            const auto& kids = children[item.node - firstNode];
            // Pushed last-first, so the heaviest child is laid out first and
            // every depth's spans come out in increasing x.
            const std::size_t base = stack.size();
            for (const std::uint32_t c : kids) {
                stack.push_back(Item{c, x, end, item.depth + 1});
                x = std::min(end, addClamped(x, m_nodes[c].total));
            }
            std::reverse(stack.begin() + std::ptrdiff_t(base), stack.end());
        }
        m_axisEnd = std::max(m_axisEnd, rootX);

        // Concatenate the depths; parents become span ids.
        std::vector<std::uint32_t>& offsets = m_depthOffsets[t];
        offsets.assign(1, std::uint32_t(m_spans.size()));
        for (const auto& depth : perDepth) {
            m_spans.insert(m_spans.end(), depth.begin(), depth.end());
            offsets.push_back(std::uint32_t(m_spans.size()));
        }
        m_spanOfNode.resize(m_nodes.size(), kNone);
        for (std::uint32_t n = std::uint32_t(firstNode); n < m_nodes.size(); ++n)
            m_spanOfNode[n] = offsets[depthOfNode[n - firstNode]] + indexInDepth[n - firstNode];
        for (std::uint32_t s = offsets.front(); s < offsets.back(); ++s) {
            Interval& span = m_spans[s];
            span.parent = span.parent == kNone ? kNone : m_spanOfNode[span.parent];
        }
    }
}

std::span<const Interval> CallTree::depthSlice(TrackId track, int depth) const
{
    const auto& offsets = m_depthOffsets[track];
    if (depth < 0 || depth + 1 >= int(offsets.size()))
        return {};
    return std::span<const Interval>(m_spans.data() + offsets[depth], offsets[depth + 1] - offsets[depth]);
}

} // namespace runlane
