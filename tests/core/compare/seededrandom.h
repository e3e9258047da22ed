#pragma once

// The compare tests' random numbers: SplitMix64 and Box–Muller, written
// out rather than taken from <random>, whose distributions differ between
// standard libraries: the same seed gives the same runs on every machine.

#include <cmath>
#include <cstdint>

namespace runlane::test {

class SeededRandom
{
public:
    explicit SeededRandom(std::uint64_t state)
        : m_state(state)
    {
    }

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return (double(next() >> 11) + 0.5) / double(1ULL << 53); }
    std::uint64_t below(std::uint64_t n) { return next() % n; }
    bool chance(double p) { return uniform() < p; }
    double normal() { return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }

private:
    std::uint64_t m_state;
};

} // namespace runlane::test
