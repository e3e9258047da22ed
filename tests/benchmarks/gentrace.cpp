// runlane-gentrace: writes a generated Chrome trace for benchmarks and demos,
// or with --enso a multi-process Enso profile (IDE + Language Server).
#include "ensogenerator.h"
#include "tracegenerator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

bool writeFile(const char* path, const std::string& text)
{
    std::FILE* out = std::fopen(path, "wb");
    if (!out || std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fclose(out) != 0) {
        std::perror(path);
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    runlane::bench::TraceGenerator::Options options;
    const char* output = nullptr;
    bool enso = false;
    bool ideOnly = false;
    const char* lsLog = nullptr;
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
        else if (arg == "--enso")
            enso = true;
        else if (arg == "--ide-only")
            ideOnly = true;
        else if (arg == "--ls-log")
            lsLog = value();
        else if (arg == "-o")
            output = value();
        else {
            std::fprintf(stderr,
                         "Usage: runlane-gentrace --events N [--seed S] [--names K] [--enso [--ide-only]\n"
                         "                        [--ls-log LOG]] -o FILE\n"
                         "Writes a deterministic Chrome trace of N events (nested X and B/E calls up to 30\n"
                         "deep on 8 threads, async b/e tasks, counters, instants, metadata).\n"
                         "--enso: an Enso IDE + Language Server profile of N tasks in its @highlight\n"
                         "instead (RpcRequest/RpcEvent, BackendMessage, RenderStats; docs/formats.md);\n"
                         "--ide-only: without the Language Server's array; --ls-log: its messages as\n"
                         "its CSV message log, to add to the IDE's profile (File > Add to this profile).\n");
            return arg == "--help" ? 0 : 2;
        }
    }
    if (!output || options.events == 0 || options.names <= 0) {
        std::fprintf(stderr, "runlane-gentrace: give --events N (N > 0) and -o FILE\n");
        return 2;
    }
    if (enso) {
        runlane::test::EnsoGenOptions ensoOptions;
        ensoOptions.seed = options.seed;
        ensoOptions.tasks = int(std::min<std::uint64_t>(options.events, 100000000));
        ensoOptions.languageServer = !ideOnly;
        runlane::test::EnsoGenTruth truth;
        const std::string text = runlane::test::EnsoGenerator::profile(ensoOptions, &truth);
        if (!writeFile(output, text) || (lsLog && !writeFile(lsLog, truth.messageLog)))
            return 1;
        std::printf("%d tasks, %zu messages, %zu frames -> %s\n", ensoOptions.tasks, truth.messages.size(),
                    truth.frames.size(), output);
        return 0;
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
