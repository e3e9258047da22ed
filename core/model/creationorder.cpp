#include "creationorder.h"

#include "cancellableless.h"
#include "creationtree.h"
#include "freshmemory.h"
#include "mergehalves.h"
#include "parallel.h"
#include "radixsort.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <new>
#include <tuple>
#include <type_traits>

namespace runlane {

namespace {

// Every core's slices of [0, n), each begun with a look at the cancel.
template<typename Fn>
auto slicesOf(std::size_t n, BuildProgress& progress, Fn&& fn)
{
    return parallelSlices(n, [&](std::size_t from, std::size_t to) {
        progress.stopIfCancelled();
        return fn(from, to);
    });
}

} // namespace

std::vector<MeasurementId> CreationOrder::newIds(std::span<Measurement> measurements,
                                                 std::span<const IntervalId> firstInterval, std::byte* scratch,
                                                 Diagnostics& diagnostics, BuildProgress& progress)
{
    const std::size_t count = measurements.size();
    // The scratch holds the radix sort's two arrays; the depths are found
    // in the second, which the sort needs only once they are in the keys.
    static_assert(2 * sizeof(RadixItem) == kScratchBytes);
    auto* const items = reinterpret_cast<RadixItem*>(scratch);
    auto* const depths = reinterpret_cast<std::uint32_t*>(items + count);
    slicesOf(count, progress, [&](std::size_t from, std::size_t to) { std::fill(depths + from, depths + to, kNone); });
    progress.within("the creators' depths");
    CreationTree::depths(measurements, diagnostics, [depths](MeasurementId id) -> std::uint32_t& { return depths[id]; });
    std::vector<MeasurementId> newId;
    if (!byRadix(measurements, firstInterval, depths, items, progress, newId))
        byComparison(measurements, firstInterval, std::vector<std::uint32_t>(depths, depths + count), scratch, progress,
                     newId);
    return newId;
}

// The key is the time since the earliest creation above the depth. It
// does not fit if the times span more than 2^(64 - depth bits) ns (584
// years, less the deeper creation goes), which only a hostile file states.
// Items whose 64 bits are equal (few) are ordered by the rest of the key
// after the sort.
bool CreationOrder::byRadix(std::span<const Measurement> measurements, std::span<const IntervalId> firstInterval,
                            const std::uint32_t* depths, RadixItem* items, BuildProgress& progress,
                            std::vector<MeasurementId>& newId)
{
    const std::size_t count = measurements.size();
    struct Range {
        Time first = kTimeMax;
        Time last = kTimeMin;
        std::uint32_t depth = 0;
    };
    Range all;
    for (const Range& r : slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
             Range range;
             for (std::size_t id = from; id < to; ++id) {
                 range.first = std::min(range.first, measurements[id].created);
                 range.last = std::max(range.last, measurements[id].created);
                 range.depth = std::max(range.depth, depths[id]);
             }
             return range;
         })) {
        all = {std::min(all.first, r.first), std::max(all.last, r.last), std::max(all.depth, r.depth)};
    }
    const auto spanNs = count == 0 ? std::uint64_t(0) : std::uint64_t(all.last) - std::uint64_t(all.first);
    const int depthBits = std::bit_width(all.depth);
    if (std::bit_width(spanNs) + depthBits > 64)
        return false;
    slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
        for (std::size_t id = from; id < to; ++id) {
            const std::uint64_t since = std::uint64_t(measurements[id].created) - std::uint64_t(all.first);
            items[id] = RadixItem::of(depthBits == 0 ? since : since << depthBits | depths[id], MeasurementId(id));
        }
    });
    const auto before = [firstInterval](const RadixItem& a, const RadixItem& b) {
        return std::tie(firstInterval[a.id], a.id) < std::tie(firstInterval[b.id], b.id);
    };
    // In order already (a loader that adds them as they are created):
    // nothing to move.
    const std::vector<char> inOrder = slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
        for (std::size_t id = from; id < to && id + 1 < count; ++id) {
            const std::uint64_t a = items[id].key();
            const std::uint64_t b = items[id + 1].key();
            if (a > b || (a == b && !before(items[id], items[id + 1])))
                return char(0);
        }
        return char(1);
    });
    if (std::all_of(inOrder.begin(), inOrder.end(), [](char ok) { return ok != 0; }))
        return true;
    // Told as the passes done, exactly.
    BuildProgress::Share sorting(progress, "sorting");
    const std::span<RadixItem> sorted
        = radixSort(std::span(items, count), std::span(items + count, count), [&](std::size_t done, std::size_t passes) {
              progress.stopIfCancelled();
              sorting.at(done, passes);
          });
    for (std::size_t i = 0; i < count;) {
        std::size_t j = i + 1;
        while (j < count && sorted[j].key() == sorted[i].key())
            ++j;
        if (j - i > 1)
            std::sort(sorted.begin() + std::ptrdiff_t(i), sorted.begin() + std::ptrdiff_t(j), before);
        i = j;
    }
    progress.within("renumbering");
    assignFresh(newId, count);
    slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            newId[sorted[i].id] = MeasurementId(i);
    });
    return true;
}

void CreationOrder::byComparison(std::span<const Measurement> measurements, std::span<const IntervalId> firstInterval,
                                 const std::vector<std::uint32_t>& depths, std::byte* scratch, BuildProgress& progress,
                                 std::vector<MeasurementId>& newId)
{
    struct Key {
        Time created;
        std::uint32_t depth;
        IntervalId first;
        MeasurementId id;
        bool operator<(const Key& o) const
        {
            return std::tie(created, depth, first, id) < std::tie(o.created, o.depth, o.first, o.id);
        }
    };
    static_assert(sizeof(Key) <= kScratchBytes && std::is_trivially_destructible_v<Key>);
    const std::size_t count = measurements.size();
    Key* const keys = reinterpret_cast<Key*>(scratch);
    slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
        for (std::size_t id = from; id < to; ++id)
            ::new (keys + id) Key{measurements[id].created, depths[id], firstInterval[id], MeasurementId(id)};
    });
    if (std::is_sorted(keys, keys + count))
        return;
    // Both halves sorted at once, then merged into the new order (keys are
    // unique: the same order as one sort, whatever the algorithm). A merge
    // sort: sample layouts add calls as they return, children before their
    // caller, and on that order introsort fell back to heapsort. Its
    // buffer, half of a half, stays below the load's peak memory. Told as
    // the share of the comparisons a merge sort makes (h log2 h for each
    // half of h, an estimate: fewer when the keys are partly in order).
    const std::size_t half = count / 2;
    BuildProgress::Share sorting(progress, "sorting");
    std::atomic<std::uint64_t> ticks{0};
    const std::uint64_t comparisons = std::uint64_t(double(count) * std::log2(std::max<double>(2, double(half))));
    const std::function<void()> tick = [&] { sorting.at(++ticks * kComparisonsPerCheck, comparisons); };
    const std::atomic<bool>* const cancel = progress.cancel();
    parallelFor(2, [keys, count, half, cancel, &tick](std::size_t part) {
        const CancellableLess less(cancel, std::less<Key>(), &tick);
        if (part == 0)
            std::stable_sort(keys, keys + half, less);
        else
            std::stable_sort(keys + half, keys + count, less);
    });
    progress.within("merging");
    std::vector<MeasurementId> order; // new position -> old id
    assignFresh(order, count);
    mergeHalvesFromBothEnds(keys, half, count, std::less<Key>(), order.data(), [](const Key& key) { return key.id; });
    progress.within("renumbering");
    assignFresh(newId, count);
    slicesOf(count, progress, [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            newId[order[i]] = MeasurementId(i);
    });
}

} // namespace runlane
