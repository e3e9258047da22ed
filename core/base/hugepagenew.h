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

} // namespace runlane
