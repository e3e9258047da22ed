#include "aggregatedsource.h"

#include "valueformat.h"

#include <cstdio>

namespace runlane {

AggregatedSource::AggregatedSource(const Profile& profile, const CallTree& tree) : m_profile(profile), m_tree(tree) { }

int AggregatedSource::depthOf(std::uint32_t id) const
{
    int depth = 0;
    for (std::uint32_t node = m_tree.node(span(id).measurement).parent; node != kNone; node = m_tree.node(node).parent)
        ++depth;
    return depth;
}

std::string AggregatedSource::describe(std::uint32_t id) const
{
    const CallTree::Node& node = m_tree.node(span(id).measurement);
    const ValueUnit unit = m_profile.unit();
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * double(node.total) / double(std::max<Time>(1, m_tree.axisEnd())));
    std::string text = m_profile.labelText(node.label);
    // Appended piece by piece: g++ 12 at -O3 warns of "literal" + std::string
    // with a false -Wrestrict (GCC bug 105329).
    text += "\ntotal ";
    text += ValueFormat::text(node.total, unit);
    text += " (";
    text += share;
    text += "), self ";
    text += ValueFormat::text(node.self, unit);
    text += '\n';
    text += std::to_string(node.count);
    text += node.count == 1 ? " interval" : " intervals";
    text += " on this path, depth ";
    text += std::to_string(depthOf(id));
    return text;
}

} // namespace runlane
