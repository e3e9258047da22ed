#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace runlane {

namespace {

// splitmix64: small, fast and the same everywhere.
class SplitMix
{
public:
    explicit SplitMix(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // In [0, n) for n < 2^32, by multiply-shift (a division would cost
    // more than the rest of a resample); the bias is below n / 2^32.
    std::size_t below(std::size_t n) { return std::size_t(((next() >> 32) * std::uint64_t(n)) >> 32); }

private:
    std::uint64_t m_state;
};

// Ranks from 1, ties given their mean rank; `ties` collects Σ (t³ - t).
std::vector<double> midranks(const std::vector<double>& pooled, double& ties)
{
    std::vector<std::size_t> order(pooled.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return pooled[x] < pooled[y]; });
    std::vector<double> ranks(pooled.size());
    ties = 0;
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && pooled[order[j + 1]] == pooled[order[i]])
            ++j;
        const double rank = (double(i) + double(j)) / 2 + 1;
        for (std::size_t k = i; k <= j; ++k)
            ranks[order[k]] = rank;
        const double t = double(j - i + 1);
        ties += t * t * t - t;
        i = j + 1;
    }
    return ranks;
}

double binomial(std::size_t n, std::size_t k)
{
    double result = 1;
    for (std::size_t i = 1; i <= k; ++i)
        result = result * double(n - k + i) / double(i);
    return result;
}

// Exact two-sided p of the rank sum `observed` of m of the pooled ranks:
// the share of all C(n, m) choices whose rank sum is at least as far from
// its mean. Ranks are doubled to stay integers with ties.
double exactP(const std::vector<double>& ranks, std::size_t m, double observed)
{
    const std::size_t n = ranks.size();
    std::vector<long> doubled(n);
    long total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        doubled[i] = std::lround(ranks[i] * 2);
        total += doubled[i];
    }
    // count[k][s]: choices of k ranks among those seen so far with sum s.
    std::vector<std::vector<double>> count(m + 1, std::vector<double>(std::size_t(total) + 1, 0));
    count[0][0] = 1;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = std::min(m, i + 1); k >= 1; --k) {
            for (long s = total; s >= doubled[i]; --s)
                count[k][std::size_t(s)] += count[k - 1][std::size_t(s - doubled[i])];
        }
    }
    const double mean = double(m) * double(total) / double(n); // of doubled sums
    const double distance = std::fabs(observed * 2 - mean);
    double extreme = 0;
    double all = 0;
    for (long s = 0; s <= total; ++s) {
        const double c = count[m][std::size_t(s)];
        all += c;
        if (std::fabs(double(s) - mean) >= distance - 1e-9)
            extreme += c;
    }
    return std::min(1.0, extreme / all);
}

// The median of `values`, reordering them: no copy, no allocation (the
// bootstrap takes thousands per label).
double medianInPlace(std::vector<double>& values)
{
    const std::size_t mid = values.size() / 2;
    if (values.size() <= 16) {
        // Runs per side are few: an insertion sort beats nth_element there.
        for (std::size_t i = 1; i < values.size(); ++i) {
            const double v = values[i];
            std::size_t j = i;
            for (; j > 0 && values[j - 1] > v; --j)
                values[j] = values[j - 1];
            values[j] = v;
        }
        return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    return (*std::max_element(values.begin(), values.begin() + std::ptrdiff_t(mid)) + upper) / 2;
}

bool constant(const std::vector<double>& values)
{
    return std::all_of(values.begin(), values.end(), [&](double v) { return v == values.front(); });
}

// For large samples (each call of a label): the medians' standard errors
// from their distribution-free confidence intervals (order statistics
// n/2 ± z√n/2), combined as for a difference of independent estimates.
Statistics::Interval medianDeltaAsymptotic(const std::vector<double>& a, const std::vector<double>& b, double level)
{
    // z of the two-sided level, by bisection on the normal tail.
    double lo = 0;
    double hi = 10;
    for (int i = 0; i < 100; ++i) {
        const double mid = (lo + hi) / 2;
        (Statistics::normalUpperTail(mid) > (1 - level) / 2 ? lo : hi) = mid;
    }
    const double z = (lo + hi) / 2;
    const auto standardError = [z](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        const double n = double(values.size());
        const auto rank = [&](double r) {
            return values[std::size_t(std::clamp(r, 0.0, n - 1))];
        };
        const double half = z * std::sqrt(n) / 2;
        return (rank(std::ceil(n / 2 + half) - 1) - rank(std::floor(n / 2 - half) - 1)) / (2 * z);
    };
    const double delta = Statistics::median(b) - Statistics::median(a);
    const double se = std::hypot(standardError(a), standardError(b));
    return {delta - z * se, delta + z * se};
}

} // namespace

double Statistics::median(std::vector<double> values)
{
    return values.empty() ? 0 : medianInPlace(values);
}

Statistics::Summary Statistics::summarise(const std::vector<double>& values)
{
    Summary s;
    s.n = values.size();
    if (values.empty())
        return s;
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    s.min = *min;
    s.max = *max;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    s.median = median(values);
    if (values.size() > 1) {
        double squares = 0;
        for (const double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / double(values.size() - 1));
    }
    return s;
}

double Statistics::normalUpperTail(double z)
{
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

Statistics::MannWhitney Statistics::mannWhitney(const std::vector<double>& a, const std::vector<double>& b)
{
    MannWhitney result;
    const std::size_t m = a.size();
    const std::size_t n2 = b.size();
    if (m == 0 || n2 == 0)
        return result;
    std::vector<double> pooled(a);
    pooled.insert(pooled.end(), b.begin(), b.end());
    double ties = 0;
    const std::vector<double> ranks = midranks(pooled, ties);
    const double rankSum = std::accumulate(ranks.begin(), ranks.begin() + std::ptrdiff_t(m), 0.0);
    result.u = rankSum - double(m) * double(m + 1) / 2;
    const double n = double(m + n2);
    if (m + n2 <= kExactMaxValues && binomial(m + n2, std::min(m, n2)) <= kExactSplits) {
        result.exact = true;
        result.p = exactP(ranks, m, rankSum);
        return result;
    }
    const double mean = double(m) * double(n2) / 2;
    const double variance = double(m) * double(n2) / 12 * ((n + 1) - ties / (n * (n - 1)));
    if (variance <= 0) {
        result.p = 1; // every value equal
        return result;
    }
    const double distance = std::max(0.0, std::fabs(result.u - mean) - 0.5);
    result.p = std::min(1.0, 2 * normalUpperTail(distance / std::sqrt(variance)));
    return result;
}

Statistics::Interval Statistics::bootstrapMedianDelta(const std::vector<double>& a, const std::vector<double>& b,
                                                      std::uint64_t seed, int resamples, double level)
{
    Interval interval;
    if (a.empty() || b.empty() || resamples < 1)
        return interval;
    if (constant(a) && constant(b)) {
        // Every resample is the same: no uncertainty.
        interval.low = interval.high = b.front() - a.front();
        return interval;
    }
    if (a.size() + b.size() > kBootstrapMaxValues)
        return medianDeltaAsymptotic(a, b, level);
    // A resample's median from a sorted sample is the value at the median
    // of the drawn positions: count the draws per position and walk the
    // counts. No sorting per resample, so a few thousand cost little.
    std::vector<double> sortedA(a);
    std::vector<double> sortedB(b);
    std::sort(sortedA.begin(), sortedA.end());
    std::sort(sortedB.begin(), sortedB.end());
    SplitMix random(seed);
    std::vector<std::uint32_t> counts(std::max(a.size(), b.size()));
    const auto resampledMedian = [&](const std::vector<double>& sorted) {
        const std::size_t n = sorted.size();
        std::fill(counts.begin(), counts.begin() + std::ptrdiff_t(n), 0);
        for (std::size_t i = 0; i < n; ++i)
            ++counts[random.below(n)];
        // The draws of rank `lower` and `upper` (from 0): the same for odd n.
        const std::size_t upper = n / 2;
        const std::size_t lower = n % 2 == 1 ? upper : upper - 1;
        std::size_t seen = 0;
        double low = 0;
        for (std::size_t position = 0;; ++position) {
            const std::size_t before = seen;
            seen += counts[position];
            if (before <= lower && lower < seen)
                low = sorted[position];
            if (upper < seen)
                return (low + sorted[position]) / 2;
        }
    };
    std::vector<double> deltas(static_cast<std::size_t>(resamples));
    for (double& delta : deltas)
        delta = resampledMedian(sortedB) - resampledMedian(sortedA);
    const double tail = (1 - level) / 2;
    const auto at = [&](double q) {
        const std::size_t i = std::min(deltas.size() - 1, std::size_t(std::floor(q * double(deltas.size() - 1) + 0.5)));
        std::nth_element(deltas.begin(), deltas.begin() + std::ptrdiff_t(i), deltas.end());
        return deltas[i];
    };
    interval.low = at(tail);
    interval.high = at(1 - tail);
    return interval;
}

} // namespace runlane
