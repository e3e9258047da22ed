#include "perfstacktable.h"

#include "loaderror.h"

#include <algorithm>

namespace runlane {

std::uint32_t PerfStackTable::add(std::uint32_t parent, LabelId label)
{
    if (m_nodes.size() + 1 >= kNone)
        throw FormatError("too many frames: more than 4 billion that differ from the sample before");
    m_nodes.push_back(Node{parent, label});
    return std::uint32_t(m_nodes.size() - 1);
}

void PerfStackTable::path(std::uint32_t node, std::vector<LabelId>& rootFirst) const
{
    rootFirst.clear();
    for (; node != kNone; node = m_nodes[node].parent)
        rootFirst.push_back(m_nodes[node].label);
    std::reverse(rootFirst.begin(), rootFirst.end());
}

} // namespace runlane
