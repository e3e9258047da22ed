#pragma once

#include <cstddef>

namespace runlane {

// How many items ahead a loop over one array asks for the entry of
// another array it reads at random (__builtin_prefetch), so that the cache
// miss overlaps the work on the items before. The build's loops read
// intervals and measurements in one of hundreds of (track, depth) runs,
// or calls numbered as they end, which no hardware prefetcher follows.
// 16 gained 5-8 ms at 1 M events where 8 gained less (issue 45); a
// loop whose item takes much longer (a parsed event) wants fewer.
inline constexpr std::size_t kPrefetchDistance = 16;

} // namespace runlane
