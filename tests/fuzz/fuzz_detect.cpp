// libFuzzer target: format detection on its own, in memory (it reads at most
// the first FormatDetector::kPrefixSize bytes of a file, complete or not).
#include "formatdetector.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace runlane;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool complete : {true, false}) {
        const FormatDetector::Result r = FormatDetector::detect(text, complete);
        if (r.format == ProfileFormat::Unknown && r.reason.empty())
            std::abort(); // an unknown format must say why
    }
    return 0;
}
