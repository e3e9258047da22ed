#include "sampletree.h"

#include "loaderror.h"
#include "samplestacklayout.h"

#include <algorithm>

namespace runlane {

SampleTree::SampleTree(ProfileBuilder& builder) : m_builder(builder) { }

void SampleTree::addNode(std::int64_t id, LabelId label)
{
    if (!m_index.emplace(id, std::uint32_t(m_nodes.size())).second) {
        if (!m_duplicate)
            m_duplicate = id;
        return;
    }
    m_nodes.push_back(Node{id, label, kNone});
}

void SampleTree::setParent(std::int64_t id, std::int64_t parent)
{
    m_parentLinks.emplace_back(id, parent);
}

void SampleTree::addSample(Time time, std::int64_t node)
{
    m_samples.push_back(Sample{time, node});
}

void SampleTree::resolveParents()
{
    if (m_duplicate)
        throw FormatError("node id " + std::to_string(*m_duplicate) + " is given twice");
    for (const std::pair<std::int64_t, std::int64_t>& link : m_parentLinks) {
        // Named copies: a lambda cannot capture structured bindings (C++20, clang 14).
        const std::int64_t child = link.first;
        const std::int64_t parent = link.second;
        const auto c = m_index.find(child);
        const auto p = m_index.find(parent);
        if (c == m_index.end() || p == m_index.end()) {
            m_builder.diagnostics().warnWith("sample tree link to a missing node", [&] {
                return "node " + std::to_string(child) + " links to parent " + std::to_string(parent)
                    + ", and one of them is not in the profile; the link is ignored";
            });
            continue;
        }
        Node& node = m_nodes[c->second];
        if (node.parent != kNone && node.parent != p->second)
            throw FormatError("node " + std::to_string(child) + " has two parents, " + std::to_string(m_nodes[node.parent].id)
                              + " and " + std::to_string(parent));
        node.parent = p->second;
    }
    m_parentLinks.clear();
    m_parentLinks.shrink_to_fit();
    for (Node& node : m_nodes) {
        if (node.label == kTransparent && node.parent != kNone)
            node.label = m_builder.label("(root)");
    }
    // A cycle would make a stack endless: each walk from a node to its root
    // is bounded by the node count.
    std::vector<std::uint8_t> state(m_nodes.size(), 0); // 0 unseen, 1 on the walk, 2 reaches a root
    std::vector<std::uint32_t> walk;
    for (std::uint32_t start = 0; start < m_nodes.size(); ++start) {
        walk.clear();
        std::uint32_t n = start;
        while (n != kNone && state[n] == 0) {
            state[n] = 1;
            walk.push_back(n);
            n = m_nodes[n].parent;
        }
        if (n != kNone && state[n] == 1)
            throw FormatError("the parent links of the sample tree form a cycle through node " + std::to_string(m_nodes[n].id));
        for (const std::uint32_t w : walk)
            state[w] = 2;
    }
}

void SampleTree::stackOf(std::uint32_t index)
{
    m_stack.clear();
    for (std::uint32_t n = index; n != kNone; n = m_nodes[n].parent) {
        if (m_nodes[n].label != kTransparent)
            m_stack.push_back(m_nodes[n].label);
    }
    std::reverse(m_stack.begin(), m_stack.end());
}

void SampleTree::finish(TrackId track, Time end)
{
    resolveParents();
    if (m_samples.empty())
        return;
    // Samples come in time order from every producer we know; a file that
    // is not is put in order rather than drawn backwards.
    std::stable_sort(m_samples.begin(), m_samples.end(), [](const Sample& a, const Sample& b) { return a.time < b.time; });
    // Without an end, the last sample lasts the median gap between samples
    // (the sampling interval, in effect): a zero-length sample would draw
    // its whole stack as calls of no time.
    if (end == kNoEnd && m_samples.size() > 1) {
        std::vector<Time> gaps(m_samples.size() - 1);
        for (std::size_t i = 0; i + 1 < m_samples.size(); ++i)
            gaps[i] = m_samples[i + 1].time - m_samples[i].time;
        std::nth_element(gaps.begin(), gaps.begin() + std::ptrdiff_t(gaps.size() / 2), gaps.end());
        end = addClamped(m_samples.back().time, gaps[gaps.size() / 2]);
    }
    SampleStackLayout layout(m_builder, track, m_samples.front().time);
    std::int64_t lastNode = 0;
    bool haveStack = false;
    std::uint64_t unknown = 0;
    for (std::size_t i = 0; i < m_samples.size(); ++i) {
        const Sample& s = m_samples[i];
        const Time next = i + 1 < m_samples.size() ? m_samples[i + 1].time : std::max(end, s.time);
        const Time weight = end == kNoEnd ? 0 : next - s.time;
        if (!haveStack || s.node != lastNode) {
            const auto found = m_index.find(s.node);
            if (found != m_index.end()) {
                stackOf(found->second);
            } else {
                m_stack.clear(); // its time is shown with no stack
                unknown += s.node != kNoStack ? 1 : 0;
            }
            lastNode = s.node;
            haveStack = true;
        }
        layout.add(m_stack, weight);
    }
    layout.finish();
    if (unknown > 0)
        m_builder.diagnostics().warn("sample of a missing node",
                                     std::to_string(unknown) + " samples name a node the profile does not have; "
                                         "their time is shown with no stack");
}

} // namespace runlane
