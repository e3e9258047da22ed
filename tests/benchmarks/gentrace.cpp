// runlane-gentrace: writes a generated Chrome trace for benchmarks and demos.
#include "tracegenerator.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv)
{
    runlane::bench::TraceGenerator::Options options;
    const char* output = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "runlane-gentrace: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--events")
            options.events = std::strtoull(value(), nullptr, 10);
        else if (arg == "--seed")
            options.seed = std::uint32_t(std::strtoul(value(), nullptr, 10));
        else if (arg == "--names")
            options.names = std::atoi(value());
        else if (arg == "-o")
            output = value();
        else {
            std::fprintf(stderr,
                         "Usage: runlane-gentrace --events N [--seed S] [--names K] -o FILE\n"
                         "Writes a deterministic Chrome trace of N events (nested X and B/E calls up to 30\n"
                         "deep on 8 threads, async b/e tasks, counters, instants, metadata).\n");
            return arg == "--help" ? 0 : 2;
        }
    }
    if (!output || options.events == 0 || options.names <= 0) {
        std::fprintf(stderr, "runlane-gentrace: give --events N (N > 0) and -o FILE\n");
        return 2;
    }
    std::FILE* out = std::fopen(output, "wb");
    if (!out) {
        std::perror(output);
        return 1;
    }
    std::setvbuf(out, nullptr, _IOFBF, 1 << 20);
    const auto stats = runlane::bench::TraceGenerator(options).write(out);
    if (std::fclose(out) != 0) {
        std::perror(output);
        return 1;
    }
    std::printf("%llu events, %llu intervals, max depth %d -> %s\n", static_cast<unsigned long long>(stats.events),
                static_cast<unsigned long long>(stats.intervals), stats.maxDepth, output);
    return 0;
}
