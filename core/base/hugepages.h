#pragma once

// Huge pages for the big arrays the views read at random. A paint of the
// whole of a 50 M-event profile binary-searches each pixel column of each
// row in a gigabyte of intervals: with 4 KiB pages nearly every step is a
// TLB miss as well as a cache miss, and the first repaint after a pause
// took 50-80 ms (issue 45). MADV_COLLAPSE (Linux 6.1) backs an array's
// whole 2 MiB pages with huge pages at once, whatever the system's
// transparent-huge-page setting; elsewhere, on an older kernel, or without
// free huge pages, the call fails and the pages stay as they were.

#include "freshmemory.h"

#include <cstddef>

namespace runlane {

// Collapses the whole 2 MiB pages of [data, data + bytes) into huge pages;
// only arrays large enough for their pages to overflow the TLB's reach.
inline void collapseToHugePages(const void* data, std::size_t bytes)
{
    constexpr std::size_t kWorthIt = std::size_t(32) << 20;
    constexpr int kCollapse = 25; // MADV_COLLAPSE, which older headers lack
    if (bytes >= kWorthIt)
        adviseWholePages(data, bytes, kHugePageBytes, kCollapse);
}

} // namespace runlane
