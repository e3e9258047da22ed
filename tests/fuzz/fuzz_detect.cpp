// libFuzzer target: format detection on its own, in memory (it reads at most
// the first FormatPrefix::kSize bytes of a file, complete or not).
#include "formatregistry.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace runlane;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool complete : {true, false}) {
        const FormatRegistry::Detection r = FormatRegistry::detect(text, complete);
        if (!r.format && r.problem.empty())
            std::abort(); // a file no format takes must say why
        if (r.format && !r.problem.empty() && r.offset < 0)
            std::abort(); // a format's own problem says where
        if (r.offset >= std::int64_t(size))
            std::abort();
    }
    return 0;
}
