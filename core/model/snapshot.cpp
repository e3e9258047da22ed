#include "snapshot.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace runlane {

namespace {

// The stored columns, in their order: exec first (the usage chart reads it
// alone), then the other times, then the counts.
constexpr Time AggregateRow::*kTimeColumns[] = {&AggregateRow::exec, &AggregateRow::childrenExec, &AggregateRow::wall,
                                                &AggregateRow::execMax};
constexpr std::uint64_t AggregateRow::*kCountColumns[] = {&AggregateRow::calls, &AggregateRow::stillborn,
                                                          &AggregateRow::zombieEvents};
constexpr int kTimeColumnCount = int(std::size(kTimeColumns));

const AggregateRow kZero;

// Differences wrap around 2^64, so any two values have one, and zigzag
// keeps a small one small whatever its sign (a counter reset).
std::uint64_t zigzag(std::uint64_t d) { return (d << 1) ^ std::uint64_t(std::int64_t(d) >> 63); }
std::uint64_t unzigzag(std::uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

void putVarint(std::vector<std::uint8_t>& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(std::uint8_t(v | 0x80));
        v >>= 7;
    }
    out.push_back(std::uint8_t(v));
}

// Reads what putVarint wrote (the bytes are this class's own, not input).
inline const std::uint8_t* getVarint(const std::uint8_t* p, std::uint64_t& v)
{
    if (*p < 0x80) { // most differences fit in a byte or two
        v = *p;
        return p + 1;
    }
    std::uint64_t b = *p++;
    v = b & 0x7f;
    for (int shift = 7; b & 0x80; shift += 7) {
        b = *p++;
        v |= (b & 0x7f) << shift;
    }
    return p;
}

// Appends one column's differences from each row's base; false (nothing
// appended) when none differs.
template<typename T, typename Base>
bool encodeColumn(std::vector<std::uint8_t>& out, std::span<const AggregateRow> rows, T AggregateRow::*field, Base&& base)
{
    bool changed = false;
    for (std::size_t i = 0; i < rows.size() && !changed; ++i)
        changed = rows[i].*field != base(i).*field;
    if (!changed)
        return false;
    for (std::size_t i = 0; i < rows.size(); ++i)
        putVarint(out, zigzag(std::uint64_t(rows[i].*field) - std::uint64_t(base(i).*field)));
    return true;
}

template<typename T, typename Base>
const std::uint8_t* decodeColumn(const std::uint8_t* p, bool stored, T AggregateRow::*field,
                                 std::vector<AggregateRow>& out, Base&& base)
{
    if (!stored) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].*field = base(i).*field;
        return p;
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::uint64_t z = 0;
        p = getVarint(p, z);
        out[i].*field = T(std::uint64_t(base(i).*field) + unzigzag(z));
    }
    return p;
}

template<typename Base>
void decodeColumns(const std::uint8_t* p, std::uint8_t columns, std::vector<AggregateRow>& out, Base&& base)
{
    for (int c = 0; c < kTimeColumnCount; ++c)
        p = decodeColumn(p, columns & (1u << c), kTimeColumns[c], out, base);
    for (int c = 0; c < int(std::size(kCountColumns)); ++c)
        p = decodeColumn(p, columns & (1u << (kTimeColumnCount + c)), kCountColumns[c], out, base);
}

} // namespace

Snapshot::Snapshot(Time time, std::span<const AggregateRow> rows, const Snapshot* previous,
                   std::span<const AggregateRow> previousRows)
    : m_time(time), m_rowCount(std::uint32_t(rows.size()))
{
    if (rows.size() > UINT32_MAX)
        throw std::length_error("Snapshot: more than 2^32 rows");
    if (previous && previousRows.size() != previous->rowCount())
        throw std::logic_error("Snapshot: the previous rows are not the previous snapshot's");
    m_chain = previous && previous->m_chain + 1 < kKeyframeInterval ? previous->m_chain + 1 : 0;

    // Each row's base: the same proc's row before (SameProcs: the row at the
    // same index), none (zero) in a keyframe or for a proc new in the top-k.
    std::vector<std::uint32_t> baseIndex; // OtherProcs: index + 1, 0 for none
    if (m_chain == 0) {
        m_kind = Kind::Keyframe;
    } else if (rows.size() == previousRows.size()
               && std::equal(rows.begin(), rows.end(), previousRows.begin(),
                             [](const AggregateRow& a, const AggregateRow& b) { return a.label == b.label; })) {
        m_kind = Kind::SameProcs;
    } else {
        m_kind = Kind::OtherProcs;
        // The rows before by label (sorted, not indexed: labels are ids
        // of a profile, but a snapshot must not assume how large).
        std::vector<std::pair<LabelId, std::uint32_t>> before;
        before.reserve(previousRows.size());
        for (std::size_t i = 0; i < previousRows.size(); ++i)
            before.push_back({previousRows[i].label, std::uint32_t(i + 1)});
        std::sort(before.begin(), before.end());
        baseIndex.reserve(rows.size());
        for (const AggregateRow& r : rows) {
            const auto it = std::lower_bound(before.begin(), before.end(), std::pair<LabelId, std::uint32_t>{r.label, 0});
            baseIndex.push_back(it != before.end() && it->first == r.label ? it->second : 0);
        }
    }

    // Built in a buffer kept per thread, then copied at its exact size: a
    // recording holds thousands of these.
    thread_local std::vector<std::uint8_t> bytes;
    bytes.clear();
    if (m_kind != Kind::SameProcs) {
        LabelId before = 0;
        for (const AggregateRow& r : rows) {
            putVarint(bytes, zigzag(std::uint64_t(r.label) - std::uint64_t(before)));
            before = r.label;
        }
    }
    for (const std::uint32_t b : baseIndex)
        putVarint(bytes, b);
    auto encodeAll = [&](auto&& base) {
        for (int c = 0; c < kTimeColumnCount; ++c) {
            if (encodeColumn(bytes, rows, kTimeColumns[c], base))
                m_columns |= std::uint8_t(1u << c);
        }
        for (int c = 0; c < int(std::size(kCountColumns)); ++c) {
            if (encodeColumn(bytes, rows, kCountColumns[c], base))
                m_columns |= std::uint8_t(1u << (kTimeColumnCount + c));
        }
    };
    switch (m_kind) {
    case Kind::Keyframe:
        encodeAll([](std::size_t) -> const AggregateRow& { return kZero; });
        break;
    case Kind::SameProcs:
        encodeAll([&](std::size_t i) -> const AggregateRow& { return previousRows[i]; });
        break;
    case Kind::OtherProcs:
        encodeAll([&](std::size_t i) -> const AggregateRow& {
            return baseIndex[i] ? previousRows[baseIndex[i] - 1] : kZero;
        });
        break;
    }
    m_size = bytes.size();
    m_bytes = std::make_unique_for_overwrite<std::uint8_t[]>(m_size);
    if (m_size > 0)
        std::memcpy(m_bytes.get(), bytes.data(), m_size);
}

// The label column (Keyframe, OtherProcs) into `labels`; returns what follows.
const std::uint8_t* Snapshot::decodeLabels(const std::uint8_t* p, LabelId* labels) const
{
    LabelId label = 0;
    for (std::uint32_t i = 0; i < m_rowCount; ++i) {
        std::uint64_t z = 0;
        p = getVarint(p, z);
        label = LabelId(std::uint64_t(label) + unzigzag(z));
        labels[i] = label;
    }
    return p;
}

const std::uint8_t* Snapshot::decodeBases(const std::uint8_t* p, std::vector<std::uint32_t>& baseIndex) const
{
    baseIndex.resize(m_rowCount);
    for (std::uint32_t& b : baseIndex) {
        std::uint64_t v = 0;
        p = getVarint(p, v);
        b = std::uint32_t(v);
    }
    return p;
}

void Snapshot::decode(std::span<const AggregateRow> previousRows, std::vector<AggregateRow>& out) const
{
    out.resize(m_rowCount);
    const std::uint8_t* p = m_bytes.get();
    if (m_kind == Kind::SameProcs) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].label = previousRows[i].label;
        decodeColumns(p, m_columns, out, [&](std::size_t i) -> const AggregateRow& { return previousRows[i]; });
        return;
    }
    thread_local std::vector<LabelId> labels;
    labels.resize(m_rowCount);
    p = decodeLabels(p, labels.data());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].label = labels[i];
    if (m_kind == Kind::Keyframe) {
        decodeColumns(p, m_columns, out, [](std::size_t) -> const AggregateRow& { return kZero; });
        return;
    }
    std::vector<std::uint32_t> baseIndex;
    p = decodeBases(p, baseIndex);
    decodeColumns(p, m_columns, out, [&](std::size_t i) -> const AggregateRow& {
        return baseIndex[i] ? previousRows[baseIndex[i] - 1] : kZero;
    });
}

void Snapshot::decodeExec(std::vector<LabelId>& labels, std::vector<Time>& exec) const
{
    const std::uint8_t* p = m_bytes.get();
    const bool stored = m_columns & 1u; // exec is column 0
    auto add = [&](std::size_t i, Time base) {
        std::uint64_t z = 0;
        if (stored)
            p = getVarint(p, z);
        exec[i] = Time(std::uint64_t(base) + unzigzag(z));
    };
    if (m_kind == Kind::SameProcs) {
        if (stored) {
            for (std::size_t i = 0; i < m_rowCount; ++i)
                add(i, exec[i]);
        }
        return;
    }
    labels.resize(m_rowCount);
    p = decodeLabels(p, labels.data());
    if (m_kind == Kind::Keyframe) {
        exec.resize(m_rowCount);
        for (std::size_t i = 0; i < m_rowCount; ++i)
            add(i, 0);
        return;
    }
    std::vector<std::uint32_t> baseIndex;
    p = decodeBases(p, baseIndex);
    const std::vector<Time> before = exec;
    exec.resize(m_rowCount);
    for (std::size_t i = 0; i < m_rowCount; ++i)
        add(i, baseIndex[i] ? before[baseIndex[i] - 1] : 0);
}

} // namespace runlane
