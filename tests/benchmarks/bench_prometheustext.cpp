// bench_prometheustext: how fast a live scrape is read, and a recording
// written. Generates the /metrics text of an exporter with N procs (5
// gauges each, with HELP and TYPE lines, as nim-metrics writes them),
// parses it with PrometheusText K times and prints the median and the
// fastest; then writes the snapshot (N rows) with ChroprofSnapshotWriter
// into memory K times; see docs/performance.md.
//
//   bench_prometheustext [--procs 5000] [--repeat 20]

#include "benchsupport.h"
#include "chroprofsnapshotwriter.h"
#include "prometheustext.h"

#include <QBuffer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace runlane;

namespace {

using bench::seconds;

std::string exposition(int procs)
{
    static const char* const gauges[] = {"chronos_exec_time_total", "chronos_exec_time_with_children_total",
                                         "chronos_wall_time_total", "chronos_call_count_total",
                                         "chronos_single_exec_time_max"};
    std::string text;
    text.reserve(std::size_t(procs) * 5 * 110);
    std::uint64_t x = 88172645463325252ull; // xorshift: the same text every run
    for (const char* gauge : gauges) {
        text += std::string("# HELP ") + gauge + " Chronos profiler figure\n# TYPE " + gauge + " gauge\n";
        for (int p = 0; p < procs; ++p) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text += gauge;
            text += "{proc=\"proc_" + std::to_string(p) + "\",file=\"codex/stores/module_" + std::to_string(p % 97)
                + ".nim\",line=\"" + std::to_string(p % 1000 + 1) + "\"} " + std::to_string(x % 10'000'000'000ull)
                + ".0\n";
        }
    }
    return text;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int procs = 5000;
    int repeat = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        if (arg == "--procs")
            procs = std::max(1, std::atoi(argv[i + 1]));
        else if (arg == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else
            return std::fprintf(stderr, "usage: bench_prometheustext [--procs 5000] [--repeat 20]\n"), 2;
    }
    const std::string text = exposition(procs);
    std::vector<double> parse;
    PrometheusText::Result result;
    for (int k = 0; k < repeat; ++k)
        parse.push_back(seconds([&] { result = PrometheusText::parse(text, 1); }));
    std::printf("exposition: %d procs, %llu lines, %.2f MB\n", procs, static_cast<unsigned long long>(result.lines),
                double(text.size()) / 1e6);
    std::printf("parse: median %.2f ms, fastest %.2f ms (%zu rows, %llu malformed)\n", median(parse) * 1e3,
                *std::min_element(parse.begin(), parse.end()) * 1e3, result.snapshot.rows.size(),
                static_cast<unsigned long long>(result.malformedLines));
    std::vector<double> write;
    qint64 bytes = 0;
    for (int k = 0; k < repeat; ++k) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        ChroprofSnapshotWriter writer(&buffer);
        writer.begin();
        write.push_back(seconds([&] { writer.write(result.snapshot); }));
        bytes = buffer.size();
    }
    std::printf("write: median %.2f ms, fastest %.2f ms (%zu rows, %.2f MB)\n", median(write) * 1e3,
                *std::min_element(write.begin(), write.end()) * 1e3, result.snapshot.rows.size(), double(bytes) / 1e6);
    return 0;
}
