// bench_perfscript: how fast `perf script` text becomes a Profile. Writes a
// synthetic perf script of N samples (4 threads, about 10 frames each, a
// call stack that changes a few frames at a time as a real program's does,
// kernel frames now and then) to a temporary file, loads it with
// ProfileLoader and prints one line per figure; see docs/performance.md.
//
//   bench_perfscript [--samples 5000000] [--threads 4] [--frames 10] [--keep out.perf] [--repeat 1]
//   bench_perfscript --file out.perf [--repeat 3]

#include "benchsupport.h"
#include "profileloader.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace runlane;

namespace {

using bench::peakRssMiB;
using bench::seconds;

struct Options {
    std::uint64_t samples = 5'000'000;
    int threads = 4;
    int frames = 10;
};

// Appends text to a large buffer that is written out when full: printf
// per line would take longer than the load it feeds.
class Writer
{
public:
    explicit Writer(std::FILE* out) : m_out(out) { m_buffer.reserve(kSize + 4096); }
    ~Writer() { flush(); }
    void text(std::string_view s)
    {
        m_buffer.append(s);
        if (m_buffer.size() >= kSize)
            flush();
    }
    void number(std::uint64_t value, int width = 0)
    {
        char digits[24];
        int n = 0;
        do {
            digits[n++] = char('0' + value % 10);
            value /= 10;
        } while (value > 0);
        for (int i = n; i < width; ++i)
            m_buffer += ' ';
        while (n > 0)
            m_buffer += digits[--n];
    }
    void hex(std::uint64_t value)
    {
        char digits[16];
        int n = 0;
        do {
            digits[n++] = "0123456789abcdef"[value & 15];
            value >>= 4;
        } while (value > 0);
        while (n > 0)
            m_buffer += digits[--n];
    }
    void flush()
    {
        if (!m_buffer.empty() && std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_out) != m_buffer.size())
            std::perror("bench_perfscript: write");
        m_buffer.clear();
    }

private:
    static constexpr std::size_t kSize = 1 << 20;
    std::FILE* m_out;
    std::string m_buffer;
};

struct Function {
    std::string name;
    std::string dso;
    std::uint64_t address = 0;
};

// The file perf script would write for such a run: per sample a header,
// the frames leaf first, a blank line. Returns the samples written.
std::uint64_t generate(const Options& o, std::FILE* out)
{
    std::mt19937_64 random(20261124);
    const char* dsos[] = {"/usr/bin/app", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/libapp-core.so.1",
                          "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"};
    std::vector<Function> functions;
    for (int f = 0; f < 400; ++f)
        functions.push_back(Function{"app::module" + std::to_string(f % 17) + "::function_" + std::to_string(f),
                                     dsos[f % 4], 0x7f3a00000000ull + std::uint64_t(f) * 0x1000});
    const std::vector<Function> kernel{{"do_syscall_64", "[kernel.kallsyms]", 0xffffffff81000000ull},
                                       {"page_fault", "[kernel.kallsyms]", 0xffffffff81001000ull},
                                       {"native_write_msr", "[kernel.kallsyms]", 0xffffffff81002000ull}};
    const std::vector<Function> roots{{"_start", "/usr/bin/app", 0x401000},
                                      {"__libc_start_main", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f3900021000ull},
                                      {"main", "/usr/bin/app", 0x402000}};
    // A frame: the function and where in it (the call site, for all but
    // the leaf, stays while the frame is on the stack).
    struct Frame {
        const Function* function = nullptr;
        std::uint64_t offset = 0;
    };
    struct Thread {
        std::vector<Frame> stack; // root first
    };
    std::vector<Thread> threads(std::size_t(o.threads));
    Writer w(out);
    std::uint64_t time = 5'000'000'000'000; // µs: 5,000,000 s after boot
    for (std::uint64_t s = 0; s < o.samples; ++s) {
        Thread& t = threads[random() % threads.size()];
        const std::size_t tid = std::size_t(&t - threads.data());
        // A few frames return and a few are called: neighbours share most
        // of their stack, as in a real program.
        const std::size_t keep = std::max<std::size_t>(3, t.stack.size() - std::min<std::size_t>(t.stack.size(), random() % 4));
        t.stack.resize(std::min(keep, t.stack.size()));
        if (t.stack.empty())
            for (const Function& r : roots)
                t.stack.push_back(Frame{&r, random() % 0x200});
        const std::size_t depth = std::size_t(o.frames - 2) + random() % 5;
        while (t.stack.size() < depth)
            t.stack.push_back(Frame{&functions[random() % functions.size()], random() % 0x400});
        // The leaf runs on: its ip moves.
        t.stack.back().offset = random() % 0x400;
        time += 50 + random() % 100;
        w.text("app-worker-");
        w.number(tid);
        w.text("  4242/");
        w.number(4242 + tid);
        w.text(" [00");
        w.number(tid % 8);
        w.text("] ");
        w.number(time / 1'000'000, 7);
        w.text(".");
        const std::uint64_t micros = time % 1'000'000;
        for (std::uint64_t d = 100'000; d > micros && d > 1; d /= 10)
            w.text("0");
        w.number(micros);
        w.text(":     250000 cycles:u: \n");
        auto frame = [&w](const Function& f, std::uint64_t offset) {
            w.text("\t    ");
            w.hex(f.address + offset);
            w.text(" ");
            w.text(f.name);
            w.text("+0x");
            w.hex(offset);
            w.text(" (");
            w.text(f.dso);
            w.text(")\n");
        };
        if (random() % 10 == 0)
            frame(kernel[random() % kernel.size()], random() % 0x400);
        for (auto it = t.stack.rbegin(); it != t.stack.rend(); ++it)
            frame(*it->function, it->offset);
        w.text("\n");
    }
    return o.samples;
}

int usage()
{
    std::fprintf(stderr, "Usage: bench_perfscript [--samples N] [--threads N] [--frames N] [--keep FILE] [--repeat K]\n"
                         "       bench_perfscript --file FILE [--repeat K]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    bench::FileOptions common;
    const bool parsed = bench::parseOptions(argc, argv, common, [&](const std::string& arg, const char* value) {
        if (arg == "--samples")
            options.samples = std::strtoull(value, nullptr, 10);
        else if (arg == "--threads")
            options.threads = std::max(1, std::atoi(value));
        else if (arg == "--frames")
            options.frames = std::max(3, std::atoi(value));
        else
            return false;
        return true;
    });
    if (!parsed)
        return usage();
    std::string& file = common.file;
    const std::string& keep = common.keep;
    const int repeat = common.repeat;
    if (options.samples == 0)
        return usage();

    QTemporaryDir dir;
    const bool generated = file.empty();
    if (generated) {
        file = keep.empty() ? dir.filePath(QStringLiteral("bench.perf")).toStdString() : keep;
        std::FILE* out = std::fopen(file.c_str(), "wb");
        if (!out) {
            std::perror(file.c_str());
            return 1;
        }
        std::uint64_t written = 0;
        const double generate = seconds([&] { written = ::generate(options, out); });
        std::fclose(out);
        std::printf("generated:     %llu samples, %d threads, ~%d frames, in %.2f s\n",
                    static_cast<unsigned long long>(written), options.threads, options.frames, generate);
    }
    const double fileMB = double(QFileInfo(QString::fromStdString(file)).size()) / 1e6;

    bench::LoadRuns loaded;
    if (!bench::loadRepeatedly(file, repeat, "bench_perfscript", loaded))
        return 1;
    const double load = loaded.median;
    const std::string& runs = loaded.runs;
    const Profile& p = *loaded.result.profile;
    std::printf("file:          %.1f MB\n", fileMB);
    std::printf("load:          %.2f s (median of %d)\n", load, repeat);
    std::printf("runs:          %s\n", runs.c_str());
    std::printf("throughput:    %.1f MB/s\n", fileMB / load);
    if (generated)
        std::printf("samples:       %.2f M/s\n", double(options.samples) / load / 1e6);
    std::printf("tracks:        %zu\n", p.trackCount());
    std::printf("intervals:     %zu\n", p.intervalCount());
    std::printf("warnings:      %llu\n", static_cast<unsigned long long>(p.diagnostics().warningCount()));
    std::printf("peak RSS:      %.1f MiB (%.2f x file size)\n", peakRssMiB(), peakRssMiB() * 1.048576 / fileMB);
    return 0;
}
