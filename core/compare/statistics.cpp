#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
    // In (0, 1): 53 random bits, never 0 (a logarithm is taken of it).
    double uniform() { return (double(next() >> 11) + 0.5) * 0x1.0p-53; }
    double normal()
    {
        // Marsaglia's polar method, one of the pair: no cosine, and the
        // same on every machine.
        while (true) {
            const double u = 2 * uniform() - 1;
            const double v = 2 * uniform() - 1;
            const double s = u * u + v * v;
            if (s > 0 && s < 1)
                return u * std::sqrt(-2 * std::log(s) / s);
        }
    }
    // Gamma(k, 1) for k >= 1 (Marsaglia and Tsang, 2000).
    double gamma(double k)
    {
        const double d = k - 1.0 / 3;
        const double c = 1 / std::sqrt(9 * d);
        while (true) {
            double x = 0;
            double v = 0;
            do {
                x = normal();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            const double u = uniform();
            if (u < 1 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v)))
                return d * v;
        }
    }
    // Beta(a, b) for a, b >= 1.
    double beta(double a, double b)
    {
        const double x = gamma(a);
        return x / (x + gamma(b));
    }

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
    if (2 * m > n) {
        // The other sample's rank sum is the rest of the total and lies as
        // far from its mean: the same p, counting choices of fewer ranks
        // (a history check's 30 runs against 1: 1 rank, not 30).
        const double all = std::accumulate(ranks.begin(), ranks.end(), 0.0);
        return exactP(ranks, n - m, all - observed);
    }
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

// The z whose normal upper tail is `tail`, by bisection.
double normalUpperQuantile(double tail)
{
    double lo = 0;
    double hi = 10;
    for (int i = 0; i < 100; ++i) {
        const double mid = (lo + hi) / 2;
        (Statistics::normalUpperTail(mid) > tail ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

// For large samples (each call of a label): the medians' standard errors
// from their distribution-free confidence intervals (order statistics
// n/2 ± z√n/2), combined as for a difference of independent estimates.
Statistics::Interval medianDeltaAsymptotic(const std::vector<double>& a, const std::vector<double>& b, double level)
{
    const double z = normalUpperQuantile((1 - level) / 2);
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

// A law given as (value, probability) in value order, with one entry per
// value: equal neighbours (ties of the sample, equal midpoints) summed.
std::vector<std::pair<double, double>> mergeEqualValues(const std::vector<std::pair<double, double>>& law)
{
    std::vector<std::pair<double, double>> merged;
    for (const auto& [value, p] : law) {
        if (!merged.empty() && merged.back().first == value)
            merged.back().second += p;
        else
            merged.emplace_back(value, p);
    }
    return merged;
}

// The exact distribution of the median of a resample (n draws with
// replacement) of the sorted sample `x`: what infinitely many bootstrap
// resamples would give. Draws are positions 0..n-1, each with chance 1/n;
// the median is x at the middle position (odd n) or the mean of x at the
// two middle ones (even n), whose joint law has a closed form.
std::vector<std::pair<double, double>> exactResampleMedian(const std::vector<double>& x)
{
    const std::size_t n = x.size();
    const double nn = double(n);
    std::vector<double> logFactorial(n + 1, 0.0);
    for (std::size_t i = 2; i <= n; ++i)
        logFactorial[i] = logFactorial[i - 1] + std::log(double(i));
    const auto power = [](double base, std::size_t e) { return e == 0 ? 1.0 : std::pow(base, double(e)); };
    std::vector<std::pair<double, double>> law;
    if (n % 2 == 1) {
        // P(median position <= i) = P(at least (n+1)/2 draws at <= i).
        const std::size_t need = (n + 1) / 2;
        double previous = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double p = double(i + 1) / nn;
            double atMost = 0;
            for (std::size_t c = need; c <= n; ++c)
                atMost += std::exp(logFactorial[n] - logFactorial[c] - logFactorial[n - c]) * power(p, c)
                    * power(1 - p, n - c);
            law.emplace_back(x[i], atMost - previous);
            previous = atMost;
        }
    } else {
        const std::size_t h = n / 2;
        const double choose = std::exp(logFactorial[n] - 2 * logFactorial[h]);
        // powers[k][e] = (k / n)^e, and the multinomial coefficients of
        // (below, at, above): the sums below take only products.
        std::vector<std::vector<double>> powers(n + 1, std::vector<double>(n + 1, 1.0));
        for (std::size_t k = 0; k <= n; ++k) {
            for (std::size_t e = 1; e <= n; ++e)
                powers[k][e] = powers[k][e - 1] * (double(k) / nn);
        }
        std::vector<std::vector<double>> multinomial(h, std::vector<double>(n + 1, 0.0));
        for (std::size_t below = 0; below < h; ++below) {
            for (std::size_t at = h + 1 - below; below + at <= n; ++at)
                multinomial[below][at] = std::exp(logFactorial[n] - logFactorial[below] - logFactorial[at]
                                                  - logFactorial[n - below - at]);
        }
        for (std::size_t i = 0; i < n; ++i) {
            // Both middle draws at i: fewer than h draws below i, more than
            // h at or below it.
            double same = 0;
            for (std::size_t below = 0; below < h; ++below) {
                for (std::size_t at = h + 1 - below; below + at <= n; ++at)
                    same += multinomial[below][at] * powers[i][below] * powers[1][at] * powers[n - 1 - i][n - below - at];
            }
            law.emplace_back(x[i], same);
            // The lower at i, the upper at j > i: h draws at or below i (one
            // at i), h at or above j (one at j).
            const double lower = powers[i + 1][h] - powers[i][h];
            for (std::size_t j = i + 1; j < n; ++j)
                law.emplace_back((x[i] + x[j]) / 2, choose * lower * (powers[n - j][h] - powers[n - j - 1][h]));
        }
    }
    // One entry per value, in order: ties and equal midpoints merged.
    std::sort(law.begin(), law.end());
    return mergeEqualValues(law);
}

// Below this a law's tail is left out (its mass goes to the last value kept).
constexpr double kNegligible = 1e-18;

// The exact law of the k-th smallest (from 1) of n draws with replacement
// from the sorted sample x, the nearest-rank quantile of a resample: it is
// at most position i when at least k draws are, so
// P(<= i) = P(Bin(n, (i+1)/n) >= k) = I_{(i+1)/n}(k, n - k + 1). Computed
// from position k - 1 outwards until a tail is negligible: a few dozen
// positions for the max, some √n for a median, whatever n is.
std::vector<std::pair<double, double>> exactResampleOrderStatistic(const std::vector<double>& x, std::size_t k)
{
    const std::size_t n = x.size();
    const double nn = double(n);
    const double a = double(k);
    const double b = double(n - k + 1);
    const std::size_t mid = k - 1;
    // P(<= i) for mid, mid - 1, ... and P(> i) = I_{1-(i+1)/n}(b, a) for
    // mid, mid + 1, ...: each tail from its own side, where it is small.
    std::vector<double> atMost; // atMost[j]: P(<= mid - j)
    for (std::size_t i = mid + 1; i-- > 0;) {
        atMost.push_back(Statistics::regularizedBeta(double(i + 1) / nn, a, b));
        if (atMost.back() <= kNegligible)
            break;
    }
    std::vector<double> above; // above[j]: P(> mid + j)
    for (std::size_t i = mid; i < n; ++i) {
        above.push_back(i + 1 >= n ? 0.0 : Statistics::regularizedBeta(1 - double(i + 1) / nn, b, a));
        if (above.back() <= kNegligible)
            break;
    }
    std::vector<std::pair<double, double>> law;
    const std::size_t low = mid + 1 - atMost.size();
    for (std::size_t i = low; i <= mid; ++i) {
        const std::size_t j = mid - i;
        // The lowest value kept takes the negligible tail below it.
        law.emplace_back(x[i], j + 1 < atMost.size() ? atMost[j] - atMost[j + 1] : atMost[j]);
    }
    for (std::size_t j = 1; j < above.size(); ++j)
        law.emplace_back(x[mid + j], above[j - 1] - (j + 1 < above.size() ? above[j] : 0.0));
    return mergeEqualValues(law);
}

// The continued fraction of the incomplete beta function (modified Lentz),
// which converges fast for x < (a + 1) / (a + b + 2).
double betaFraction(double x, double a, double b)
{
    constexpr double tiny = 1e-300;
    const auto guard = [](double v) { return std::fabs(v) < tiny ? tiny : v; };
    double c = 1;
    double d = 1 / guard(1 - (a + b) * x / (a + 1));
    double h = d;
    for (int m = 1; m <= 100000; ++m) {
        const double mm = double(m);
        const double even = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm));
        d = 1 / guard(1 + even * d);
        c = guard(1 + even / c);
        h *= d * c;
        const double odd = -(a + mm) * (a + b + mm) * x / ((a + 2 * mm) * (a + 2 * mm + 1));
        d = 1 / guard(1 + odd * d);
        c = guard(1 + odd / c);
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1) < 1e-15)
            break;
    }
    return h;
}

// The q-quantile of MB - MA for independent discrete laws: the smallest d
// with P(MB - MA <= d) >= q, found among the differences of their values.
double differenceQuantile(const std::vector<std::pair<double, double>>& a,
                          const std::vector<std::pair<double, double>>& b, double q)
{
    // One side a single value (one run): the quantile is read off the
    // other side's law directly, the smallest d whose CDF reaches q (as
    // the bisection below finds it, without the bisection).
    if (b.size() == 1 || a.size() == 1) {
        double p = 0;
        if (b.size() == 1) {
            // P(b - MA <= d) = P(MA >= b - d): from the largest values down.
            for (auto it = a.rbegin(); it != a.rend(); ++it) {
                p += it->second;
                if (p >= q - 1e-12)
                    return b.front().first - it->first;
            }
            return b.front().first - a.front().first;
        }
        for (const auto& [vb, pb] : b) {
            p += pb;
            if (p >= q - 1e-12)
                return vb - a.front().first;
        }
        return b.back().first - a.front().first;
    }
    std::vector<double> cumulativeB(b.size());
    double sum = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        cumulativeB[i] = sum += b[i].second;
    const auto cdf = [&](double d) {
        // P(MB <= va + d) for each va in order: va + d only grows, so one
        // walk through b finds them all (a law of a quantile over thousands
        // of calls has thousands of values).
        double p = 0;
        std::size_t below = 0; // values of b at most va + d
        for (const auto& [va, pa] : a) {
            while (below < b.size() && !(va + d < b[below].first))
                ++below;
            if (below > 0)
                p += pa * cumulativeB[below - 1];
        }
        return p;
    };
    // The CDF is a step function of d: bisect on d for where it reaches q
    // (a hair below, for the rounding of the sums), then snap to the
    // difference of values that is that step.
    double lo = b.front().first - a.back().first;
    double hi = b.back().first - a.front().first;
    if (cdf(lo) >= q - 1e-12)
        return lo;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, std::fabs(hi)); ++i) {
        const double mid = lo + (hi - lo) / 2;
        (cdf(mid) >= q - 1e-12 ? hi : lo) = mid;
    }
    double step = b.back().first - a.front().first;
    for (const auto& [va, pa] : a) {
        const auto it = std::lower_bound(b.begin(), b.end(), va + lo,
                                         [](const std::pair<double, double>& e, double v) { return e.first < v; });
        for (auto at = it; at != b.end(); ++at) {
            if (at->first - va > lo) {
                step = std::min(step, at->first - va);
                break;
            }
        }
    }
    return step;
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
    // One value on a side (one run against a window of runs: a history
    // check) resamples to itself: the other side's law alone is exact and
    // cheap up to kExactSingleSideValues values.
    const bool single = (a.size() == 1 || b.size() == 1) && std::max(a.size(), b.size()) <= kExactSingleSideValues;
    if (single || (a.size() <= kExactBootstrapValues && b.size() <= kExactBootstrapValues)) {
        // Few runs: the limit of infinitely many resamples, computed.
        std::vector<double> sortedA(a);
        std::vector<double> sortedB(b);
        std::sort(sortedA.begin(), sortedA.end());
        std::sort(sortedB.begin(), sortedB.end());
        const auto lawA = exactResampleMedian(sortedA);
        const auto lawB = exactResampleMedian(sortedB);
        interval.low = differenceQuantile(lawA, lawB, (1 - level) / 2);
        interval.high = differenceQuantile(lawA, lawB, 1 - (1 - level) / 2);
        return interval;
    }
    // A resample's median from a sorted sample is the value at the middle
    // order statistic(s) of the n drawn positions. A drawn position is
    // floor(n U) for a uniform U, and floor is monotone, so the h-th
    // smallest position is floor(n U(h)) with U(h) the h-th smallest of n
    // uniforms, which is Beta(h, n + 1 - h); the next one, given U(h) = u,
    // is the least of the n - h uniforms above u: u + (1 - u)(1 - V^(1/(n-h))).
    // So each resample costs a few random numbers instead of n draws: the
    // same law as drawing every value, a hundred times cheaper for the
    // hundreds of calls a label has when one run is compared with one.
    std::vector<double> sortedA(a);
    std::vector<double> sortedB(b);
    std::sort(sortedA.begin(), sortedA.end());
    std::sort(sortedB.begin(), sortedB.end());
    SplitMix random(seed);
    const auto resampledMedian = [&random](const std::vector<double>& sorted) {
        const std::size_t n = sorted.size();
        if (n == 1)
            return sorted.front();
        const auto at = [&](double u) { return sorted[std::min(n - 1, std::size_t(double(n) * u))]; };
        const std::size_t h = (n + 1) / 2; // the lower middle, from 1
        const double lower = random.beta(double(h), double(n + 1 - h));
        if (n % 2 == 1)
            return at(lower);
        const double upper = lower + (1 - lower) * (1 - std::pow(random.uniform(), 1.0 / double(n - h)));
        return (at(lower) + at(upper)) / 2;
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

Statistics::Interval Statistics::bootstrapQuantileDelta(const std::vector<double>& a, const std::vector<double>& b,
                                                        double q, double level)
{
    Interval interval;
    if (a.empty() || b.empty())
        return interval;
    // The rank's nearest rank (RankTable): the k-th smallest, k = ceil(q n).
    const auto law = [q](std::vector<double> x) {
        std::sort(x.begin(), x.end());
        const std::size_t k = std::clamp<std::size_t>(std::size_t(std::ceil(q * double(x.size()))), 1, x.size());
        return exactResampleOrderStatistic(x, k);
    };
    const auto lawA = law(a);
    const auto lawB = law(b);
    interval.low = differenceQuantile(lawA, lawB, (1 - level) / 2);
    interval.high = differenceQuantile(lawA, lawB, 1 - (1 - level) / 2);
    return interval;
}

Statistics::Interval Statistics::welchSumDelta(const std::vector<double>& a, double scaleA, const std::vector<double>& b,
                                               double scaleB, double level)
{
    struct Side {
        double total = 0;
        double variance = 0; // of the scaled total
        double df = 0; // n - 1
    };
    const auto side = [](const std::vector<double>& x, double scale) {
        Side s;
        for (const double v : x)
            s.total += v;
        if (x.size() < 2)
            return s;
        const double mean = s.total / double(x.size());
        double squares = 0;
        for (const double v : x)
            squares += (v - mean) * (v - mean);
        // n values of sample variance s² sum to a total of variance n s².
        s.variance = scale * scale * double(x.size()) * squares / double(x.size() - 1);
        s.df = double(x.size() - 1);
        return s;
    };
    const Side sa = side(a, scaleA);
    const Side sb = side(b, scaleB);
    const double delta = scaleB * sb.total - scaleA * sa.total;
    const double variance = sa.variance + sb.variance;
    if (!(variance > 0) || !std::isfinite(variance))
        return {delta, delta};
    double spread = 0; // Σ v² / df, Welch–Satterthwaite
    for (const Side& s : {sa, sb}) {
        if (s.df > 0)
            spread += s.variance * s.variance / s.df;
    }
    const double df = variance * variance / spread;
    const double half = studentUpperQuantile((1 - level) / 2, df) * std::sqrt(variance);
    return {delta - half, delta + half};
}

double Statistics::regularizedBeta(double x, double a, double b)
{
    if (!(x > 0))
        return 0;
    if (x >= 1)
        return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x)
                                  + b * std::log1p(-x));
    // The fraction converges on the side of the mean; the other side by
    // I_x(a, b) = 1 - I_{1-x}(b, a).
    if (x < (a + 1) / (a + b + 2))
        return front * betaFraction(x, a, b) / a;
    return 1 - front * betaFraction(1 - x, b, a) / b;
}

double Statistics::studentUpperQuantile(double tail, double df)
{
    if (df > 1e7) // indistinguishable from the normal, and lgamma of so much loses digits
        return normalUpperQuantile(tail);
    // P(T > t) = I_{df/(df+t²)}(df/2, 1/2) / 2 for t >= 0.
    const auto upper = [df](double t) { return 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5); };
    double lo = 0;
    double hi = 1;
    while (upper(hi) > tail && hi < 1e12) {
        lo = hi;
        hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (upper(mid) > tail ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

double Statistics::relativeChange(double delta, double base)
{
    if (base != 0)
        return delta / base;
    return delta == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), delta);
}

} // namespace runlane
