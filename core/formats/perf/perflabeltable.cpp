#include "perflabeltable.h"

#include "loaderror.h"

#include <cstring>

namespace runlane {

PerfLabelTable::PerfLabelTable() : m_slots(1024, kNone) { }

LabelId PerfLabelTable::find(std::string_view key, std::uint64_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = std::size_t(hash) & mask; m_slots[slot] != kNone; slot = (slot + 1) & mask) {
        const Entry& e = m_entries[m_slots[slot]];
        if (e.hash == hash && e.size == key.size() && std::memcmp(m_text.data() + e.text, key.data(), key.size()) == 0)
            return e.label;
    }
    return kNone;
}

void PerfLabelTable::add(std::string_view key, std::uint64_t hash, LabelId label)
{
    if (m_entries.size() + 1 >= kNone || key.size() >= kNone)
        throw FormatError("too many distinct frames");
    const std::size_t mask = m_slots.size() - 1;
    std::size_t slot = std::size_t(hash) & mask;
    while (m_slots[slot] != kNone)
        slot = (slot + 1) & mask;
    m_slots[slot] = std::uint32_t(m_entries.size());
    m_entries.push_back(Entry{hash, m_text.size(), std::uint32_t(key.size()), label});
    m_text.append(key);
    // At most half full: probes stay short.
    if (2 * m_entries.size() > m_slots.size())
        grow();
}

void PerfLabelTable::grow()
{
    std::vector<std::uint32_t> slots(2 * m_slots.size(), kNone);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < m_entries.size(); ++id) {
        std::size_t slot = std::size_t(m_entries[id].hash) & mask;
        while (slots[slot] != kNone)
            slot = (slot + 1) & mask;
        slots[slot] = id;
    }
    m_slots = std::move(slots);
}

} // namespace runlane
