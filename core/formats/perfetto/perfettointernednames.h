#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace runlane {

// The event names a sequence interned, by iid. Writers give iids out from 1
// upwards, so most are found by index in a vector (a hash lookup for each
// event was the largest lookup of a Perfetto read); an iid far beyond the
// names interned so far goes to a map, so that a hostile file's big iid
// allocates no more than its input holds.
class PerfettoInternedNames
{
public:
    void set(std::uint64_t iid, StringId name)
    {
        if (iid < m_dense.size() || iid <= 2 * m_count + 1024) {
            if (iid >= m_dense.size())
                m_dense.resize(std::size_t(iid) + 1, kUnset);
            m_count += m_dense[std::size_t(iid)] == kUnset ? 1 : 0;
            m_dense[std::size_t(iid)] = name;
            return;
        }
        m_count += m_sparse.insert_or_assign(iid, name).second ? 1 : 0;
    }
    std::optional<StringId> find(std::uint64_t iid) const
    {
        if (iid < m_dense.size()) {
            const StringId name = m_dense[std::size_t(iid)];
            return name == kUnset ? std::nullopt : std::optional<StringId>(name);
        }
        const auto found = m_sparse.find(iid);
        return found != m_sparse.end() ? std::optional<StringId>(found->second) : std::nullopt;
    }
    // The vector's length, for tests: what the iids set so far cost.
    std::size_t denseSize() const { return m_dense.size(); }
    void clear()
    {
        m_dense.clear();
        m_sparse.clear();
        m_count = 0;
    }

private:
    static constexpr StringId kUnset = kNone;
    std::vector<StringId> m_dense;
    std::unordered_map<std::uint64_t, StringId> m_sparse;
    std::uint64_t m_count = 0; // names set, dense and sparse
};

} // namespace runlane
