#pragma once

#include <vector>

namespace runlane {

// How large a change must be to stand out of one label's own noise:
// rustc-perf's rule, Q3 + 3 × IQR of the absolute relative changes between
// consecutive runs, |x[i] - x[i-1]| / x[i-1], over a window of past runs.
// A label that jitters by 10 % from run to run gets a threshold well above
// 10 %; a rock-steady one a threshold of a fraction of a percent.
class NoiseThreshold
{
public:
    // Where there is no change to learn from (fewer than two runs, or
    // only zeros): 0.2 %.
    static constexpr double kDefault = 0.002;
    static constexpr double kIqrFactor = 3.0;

    // The relative changes between consecutive values; a pair whose first
    // value is 0 has none (the label was absent or took no time).
    static std::vector<double> changes(const std::vector<double>& series);
    // The threshold (a fraction: 0.05 is 5 %) of a series in run order.
    static double of(const std::vector<double>& series);
    // The p-quantile of `values` (0 <= p <= 1), by linear interpolation
    // between order statistics: h = (n - 1) p, Q = x[⌊h⌋] + (h - ⌊h⌋)
    // (x[⌊h⌋ + 1] - x[⌊h⌋]) on the sorted values (Hyndman & Fan's type 7,
    // the default of R, NumPy and spreadsheets), so that a threshold can
    // be checked by hand. 0 for no values.
    static double quantile(std::vector<double> values, double p);
};

} // namespace runlane
