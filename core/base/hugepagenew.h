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

// Hands the pages of one big block to another, for a step that frees an
// array and at once allocates one as big: the new array then starts on
// memory that is resident already instead of fresh memory the kernel
// zeroes and, on a virtual machine, the host backs again (the 50 M load's
// final interval array, 1 GB, took about a second of that). Moves the
// whole 2 MiB pages of [from, from + bytes) to the same offsets of `to`,
// both blocks of kHugeAllocation or more from operator new that glibc
// mapped on their own, and returns how many bytes were moved (whole 2 MiB
// pages, at most `bytes`). 0 when nothing was: another system, another
// allocator (AddressSanitizer's), blocks from glibc's heaps (`to` is then
// left as it was), or a kernel that refused (`to`'s whole pages may then
// read as zeros: it is meant for a block just allocated). What `to` held
// there is replaced by `from`'s contents; `from`'s moved range is left
// unmapped, so that the caller frees `from` next and reads nothing of it
// before.
std::size_t movePages(void* to, void* from, std::size_t bytes);

} // namespace runlane
