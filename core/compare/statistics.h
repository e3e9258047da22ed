#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace runlane {

// The statistics a comparison of runs needs, exact and reproducible: the
// same input gives the same figures on every machine (no library random
// numbers, whose sequences differ between standard libraries).
class Statistics
{
public:
    struct Summary {
        std::size_t n = 0;
        double mean = 0;
        double median = 0;
        double stddev = 0; // sample standard deviation (n - 1); 0 for n < 2
        double min = 0;
        double max = 0;
    };
    static Summary summarise(const std::vector<double>& values);
    // delta as a fraction of base; from a base of 0, ±infinity ("new" or
    // "gone" where a change is shown), or 0 for no change.
    static double relativeChange(double delta, double base);
    static double median(std::vector<double> values);

    struct MannWhitney {
        double u = 0; // of the first sample: pairs (a, b) with a > b, ties half
        double p = 1; // two-sided
        bool exact = false; // from the permutation distribution, ties included
    };
    // Two-sided Mann–Whitney U test. Exact (every split of the pooled
    // ranks, so ties are exact too) for at most kExactMaxValues values in
    // at most kExactSplits splits; otherwise the normal approximation with
    // tie correction and continuity correction. p = 1 when either sample is
    // empty.
    static MannWhitney mannWhitney(const std::vector<double>& a, const std::vector<double>& b);
    static constexpr double kExactSplits = 200'000;
    static constexpr std::size_t kExactMaxValues = 60;

    struct Interval {
        double low = 0;
        double high = 0;
    };
    // Percentile bootstrap interval of median(b) - median(a): each resample
    // draws |a| values from a and |b| from b with replacement. `seed` fixes
    // the sequence, so a report is the same every time it is computed.
    // Up to kExactBootstrapValues per side (runs, usually), or one value
    // against up to kExactSingleSideValues, the resamples' law is computed
    // exactly, the limit of infinitely many resamples, so
    // the seed does not matter there. Above kBootstrapMaxValues values in
    // all (each call of a label) the interval is asymptotic instead: the
    // medians' standard errors from their order-statistic intervals.
    static Interval bootstrapMedianDelta(const std::vector<double>& a, const std::vector<double>& b,
                                         std::uint64_t seed, int resamples = 2000, double level = 0.95);

    // Percentile bootstrap interval of the nearest-rank q-quantile of b
    // minus that of a (the rank's p50, p90, p99; q = 1 is the max): the
    // exact law of a resample's quantile, the k-th smallest of n draws
    // (k = ceil(q n)), so no seed and no Monte Carlo error. Each law is
    // kept where it has mass (beyond, under 1e-18 in all).
    static Interval bootstrapQuantileDelta(const std::vector<double>& a, const std::vector<double>& b, double q,
                                           double level = 0.95);

    // Welch's interval of scaleB Σb - scaleA Σa, the change of two totals
    // of independent values with the counts as observed: variance
    // scale² n s² per side, Student's t with Welch–Satterthwaite degrees of
    // freedom. A side of one value has no spread to estimate and counts as
    // fixed; with no spread at all the interval is the change itself.
    static Interval welchSumDelta(const std::vector<double>& a, double scaleA, const std::vector<double>& b,
                                  double scaleB, double level = 0.95);

    static constexpr std::size_t kBootstrapMaxValues = 400;
    static constexpr std::size_t kExactBootstrapValues = 12;
    // With one value on a side the law is exact up to this many on the other.
    static constexpr std::size_t kExactSingleSideValues = 64;

    // The standard normal distribution's upper tail, P(Z > z).
    static double normalUpperTail(double z);
    // Student's t with `df` degrees of freedom (any df > 0): the t whose
    // upper tail is `tail`.
    static double studentUpperQuantile(double tail, double df);
    // The regularized incomplete beta function I_x(a, b), a, b > 0.
    static double regularizedBeta(double x, double a, double b);
};

} // namespace runlane
