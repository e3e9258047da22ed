#include "noisethreshold.h"

#include <algorithm>
#include <cmath>

namespace runlane {

std::vector<double> NoiseThreshold::changes(const std::vector<double>& series)
{
    std::vector<double> out;
    for (std::size_t i = 1; i < series.size(); ++i) {
        if (series[i - 1] != 0)
            out.push_back(std::fabs(series[i] - series[i - 1]) / std::fabs(series[i - 1]));
    }
    return out;
}

double NoiseThreshold::quantile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double h = double(values.size() - 1) * p;
    const auto low = std::size_t(std::floor(h));
    if (low + 1 >= values.size())
        return values.back();
    return values[low] + (h - double(low)) * (values[low + 1] - values[low]);
}

double NoiseThreshold::of(const std::vector<double>& series)
{
    const std::vector<double> c = changes(series);
    if (c.empty())
        return kDefault;
    const double q1 = quantile(c, 0.25);
    const double q3 = quantile(c, 0.75);
    return q3 + kIqrFactor * (q3 - q1);
}

} // namespace runlane
