#pragma once

#include <cstddef>

namespace runlane {

// From this size on, a block from `operator new` has its whole 2 MiB pages
// advised as huge pages before it is touched (hugepagenew.cpp): the arrays
// of a load, not the small objects around them.
inline constexpr std::size_t kHugeAllocation = std::size_t(4) << 20;

// Whether this build's operator new does so (not under AddressSanitizer,
// only on Linux).
bool bigAllocationsAdviseHugePages();

// From now on the calling thread advises nothing, and no thread advises
// glibc's main heap (the calling thread's blocks come from it). For the
// window's GUI thread: madvise takes the address space's lock for writing,
// so it waits for every other thread's page faults. While a load filled
// its arrays, the GUI thread, growing the heap for a repaint, waited there
// 60-70 ms at a time, several times in a row, and a wheel notch took
// 122-365 ms to show. The GUI's own blocks are small and not worth it.
void stopHugePageAdvice();

} // namespace runlane
