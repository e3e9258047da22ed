#include "intervalorder.h"

#include "cancellableless.h"
#include "loaderror.h"
#include "radixsort.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace runlane {

void IntervalOrder::sort(std::span<Interval> intervals, const std::atomic<bool>* cancel)
{
    if (intervals.size() <= kRadixMost)
        byRadix(intervals, cancel);
    else
        // A lambda, not `before` itself: a function pointer is called, not
        // inlined, at every comparison (a 5 M load's layout took 0.26-0.28 s
        // of CPU instead of 0.18-0.20).
        std::sort(intervals.begin(), intervals.end(),
                  CancellableLess(cancel, [](const Interval& a, const Interval& b) { return before(a, b); }));
}

void IntervalOrder::byRadix(std::span<Interval> intervals, const std::atomic<bool>* cancel)
{
    const std::size_t n = intervals.size();
    if (n < 2)
        return;
    // One allocation: the radix sort's two arrays, then, once the order is
    // read off them, the intervals in that order over both (24 bytes an
    // interval, as the two arrays' 12 each), and the order after them.
    static_assert(2 * sizeof(RadixItem) == sizeof(Interval) && alignof(Interval) <= 16);
    const std::unique_ptr<std::byte[]> scratch(new std::byte[n * (sizeof(Interval) + sizeof(IntervalId))]);
    const std::span<RadixItem> items(reinterpret_cast<RadixItem*>(scratch.get()), n);
    const std::span<RadixItem> buffer(items.data() + n, n);
    auto* const order = reinterpret_cast<IntervalId*>(scratch.get() + n * sizeof(Interval));
    // The start with its sign bit flipped orders as the start does; radixSort
    // passes only over the bits in which the keys differ.
    constexpr std::uint64_t kSign = std::uint64_t(1) << 63;
    for (std::size_t i = 0; i < n; ++i)
        items[i] = RadixItem::of(std::uint64_t(intervals[i].start) ^ kSign, IntervalId(i));
    // On this thread: the finisher lays out tracks on every core already.
    const std::span<RadixItem> sorted = radixSort(items, buffer, [cancel](std::size_t, std::size_t) { throwIfCancelled(cancel); }, 1);
    for (std::size_t k = 0; k < n;) {
        std::size_t end = k + 1;
        while (end < n && sorted[end].key() == sorted[k].key())
            ++end;
        if (end - k > 1) {
            std::sort(sorted.begin() + std::ptrdiff_t(k), sorted.begin() + std::ptrdiff_t(end),
                      [intervals](const RadixItem& a, const RadixItem& b) { return before(intervals[a.id], intervals[b.id]); });
        }
        k = end;
    }
    for (std::size_t k = 0; k < n; ++k)
        order[k] = sorted[k].id;
    auto* const moved = reinterpret_cast<Interval*>(scratch.get());
    for (std::size_t k = 0; k < n; ++k)
        moved[k] = intervals[order[k]];
    std::memcpy(intervals.data(), moved, n * sizeof(Interval));
}

} // namespace runlane
