#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace runlane {

class Snapshot;
struct AggregateRow;

// A profile's metric snapshots, in time order. Each snapshot is its own
// immutable object, so that the successive profiles of a live recording
// (LiveRecording) share the snapshots they have in common: a new version
// costs a pointer per snapshot, not a copy of every row received so far.
class SnapshotList
{
public:
    using Pointer = std::shared_ptr<const Snapshot>;

    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Snapshot;
        using difference_type = std::ptrdiff_t;
        using pointer = const Snapshot*;
        using reference = const Snapshot&;

        const_iterator() = default;
        explicit const_iterator(std::vector<Pointer>::const_iterator it) : m_it(it) { }
        reference operator*() const { return **m_it; }
        pointer operator->() const { return m_it->get(); }
        const_iterator& operator++()
        {
            ++m_it;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator old = *this;
            ++m_it;
            return old;
        }
        const_iterator& operator--()
        {
            --m_it;
            return *this;
        }
        const_iterator& operator+=(difference_type n)
        {
            m_it += n;
            return *this;
        }
        const_iterator operator+(difference_type n) const { return const_iterator(m_it + n); }
        difference_type operator-(const const_iterator& other) const { return m_it - other.m_it; }
        reference operator[](difference_type n) const { return *m_it[n]; }
        bool operator==(const const_iterator& other) const { return m_it == other.m_it; }
        bool operator!=(const const_iterator& other) const { return m_it != other.m_it; }
        bool operator<(const const_iterator& other) const { return m_it < other.m_it; }

    private:
        std::vector<Pointer>::const_iterator m_it;
    };

    const_iterator begin() const { return const_iterator(m_items.begin()); }
    const_iterator end() const { return const_iterator(m_items.end()); }
    std::size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    const Snapshot& operator[](std::size_t i) const { return *m_items[i]; }
    const Snapshot& front() const { return *m_items.front(); }
    const Snapshot& back() const { return *m_items.back(); }
    const std::vector<Pointer>& pointers() const { return m_items; }

    void push_back(Pointer snapshot)
    {
        m_items.push_back(std::move(snapshot));
        m_newestRows.reset();
    }
    void reserve(std::size_t n) { m_items.reserve(n); }

    // The last snapshot's rows, decoded, when whoever stored it still had
    // them (a live recording): the rank of each new version reads them
    // instead of decoding up to a block of snapshots. Null otherwise.
    using Rows = std::shared_ptr<const std::vector<AggregateRow>>;
    const Rows& newestRows() const { return m_newestRows; }
    void setNewestRows(Rows rows) { m_newestRows = std::move(rows); }

private:
    std::vector<Pointer> m_items;
    Rows m_newestRows;
};

} // namespace runlane
