#pragma once

// The second half of a sort on two cores: each core sorts one half of the
// keys, then the two sorted halves are merged, also on both cores. The
// finisher numbers a load's measurements in creation order this way (50 M
// keys at the biggest files, issue 45).

#include "parallel.h"

#include <cstddef>

namespace runlane {

// Merges the sorted halves [keys, keys + half) and [keys + half, keys +
// count) into out[0..count): out[i] = project(the i-th smallest key), as
// one sort of all the keys would order them. Keys must be unique: the two
// ends then meet exactly. Two cores work at once, from both ends: the
// front takes the smaller key of the two halves into the first half of
// `out`, the back the larger one into the second.
template<typename Key, typename Less, typename Out, typename Project>
void mergeHalvesFromBothEnds(const Key* keys, std::size_t half, std::size_t count, Less less, Out* out, Project project)
{
    const std::size_t middle = count / 2;
    parallelFor(2, [&](std::size_t part) {
        if (part == 0) {
            std::size_t a = 0;
            std::size_t b = half;
            for (std::size_t i = 0; i < middle; ++i)
                out[i] = project((b == count || (a < half && less(keys[a], keys[b]))) ? keys[a++] : keys[b++]);
        } else {
            std::size_t a = half; // one past the next of the first half, from the back
            std::size_t b = count;
            for (std::size_t i = count; i-- > middle;)
                out[i] = project((a == 0 || (b > half && less(keys[a - 1], keys[b - 1]))) ? keys[--b] : keys[--a]);
        }
    });
}

} // namespace runlane
