// libFuzzer target: bytes → BaselineReport::read, in memory (a report is read
// whole, from a string), then what a compare does with what was read: the
// report against itself on every metric, in each of CompareFormatter's
// forms, and written back. The reader's contract is false with a message on
// anything it does not take, never an exception: one that escapes is a
// finding, so nothing here catches. Anything that crashes, hangs, leaks or
// trips a sanitizer is a bug; a refused report is fine.
#include "baselinereport.h"
#include "compareformatter.h"
#include "comparison.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace runlane;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    RunSet base;
    std::string error;
    if (!BaselineReport::read(text, base, error)) {
        if (error.empty())
            std::abort(); // every refusal must say why
        return 0;
    }
    // The same text again, as the new side: the reader depends on nothing
    // but its input, so it takes it again.
    RunSet next;
    if (!BaselineReport::read(text, next, error))
        std::abort();
    CompareOptions options;
    constexpr auto metrics = CompareMetrics::all(); // by value: one array, not two
    options.metrics.assign(metrics.begin(), metrics.end());
    const Comparison comparison = Comparison::compute(base, next, options);
    if (CompareFormatter::json(comparison).empty() || CompareFormatter::markdown(comparison).empty()
        || CompareFormatter::csv(comparison).empty() || CompareFormatter::table(comparison).empty())
        std::abort(); // each has at least its header
    // A report Runlane writes, it reads (as fuzz::analyseProfile checks for
    // the reports of profiles), whatever the report it was read from held.
    RunSet again;
    if (!BaselineReport::read(BaselineReport::write(base, "fuzz"), again, error))
        std::abort();
    return 0;
}
