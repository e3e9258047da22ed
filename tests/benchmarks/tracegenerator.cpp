#include "tracegenerator.h"

#include "samplegenerator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace runlane::bench {

namespace {

// ns as µs with three decimals: "1234.567".
const char* micros(std::int64_t ns, char* out)
{
    std::snprintf(out, 32, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    return out;
}

const char* kModules[] = {"net", "db", "ui", "render", "io", "sched", "codec", "store", "auth", "cache", "json", "gc"};
const char* kVerbs[] = {"handle", "parse", "load", "encode", "decode", "flush", "poll", "read", "write", "compute",
                        "resolve", "update", "paint", "layout", "dispatch", "commit"};

} // namespace

std::uint32_t TraceGenerator::Rng::next()
{
    // xorshift64*: fast, and identical on every platform.
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<std::uint32_t>((state * 2685821657736338717ULL) >> 32);
}

TraceGenerator::TraceGenerator(const Options& options) : m_options(options), m_rng{0x9E3779B97F4A7C15ULL ^ options.seed}
{
}

void TraceGenerator::event(const char* text)
{
    const std::size_t n = std::strlen(text);
    std::fputs(m_stats.events == 0 ? "\n" : ",\n", m_out);
    std::fwrite(text, 1, n, m_out);
    ++m_stats.events;
}

const char* TraceGenerator::name(int index)
{
    std::snprintf(m_name, sizeof m_name, "%s::%s_%s%d", kModules[index % 12], kVerbs[(index / 12) % 16],
                  index % 3 == 0 ? "async_" : "", index);
    return m_name;
}

// Names follow a Zipf-like distribution: a few are very common.
int TraceGenerator::pickName()
{
    const double u = m_rng.uniform();
    return std::min(m_options.names - 1, static_cast<int>(std::pow(u, 3.0) * m_options.names));
}

std::int64_t TraceGenerator::call(int thread, int depth, std::int64_t start)
{
    const int pid = 1 + thread / m_options.threadsPerProcess;
    const int tid = 100 + thread;
    const int nameIndex = pickName();
    const bool beginEnd = m_rng.next() % 100 < 15;
    char ts[32];
    char dur[32];
    // A DevTools recording writes every event's keys in alphabetical
    // order, so `args` (often with a `data` object) comes before `name`.
    const bool devtools = m_options.samples;
    if (beginEnd) {
        std::snprintf(m_buffer, sizeof m_buffer,
                      devtools ? "{\"args\":{},\"cat\":\"app\",\"name\":\"%s\",\"ph\":\"B\",\"pid\":%d,\"tid\":%d,\"ts\":%s}"
                               : "{\"ph\":\"B\",\"name\":\"%s\",\"cat\":\"app\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                      name(nameIndex), pid, tid, micros(start, ts));
        event(m_buffer);
    }
    m_stats.maxDepth = std::max(m_stats.maxDepth, depth + 1);
    std::int64_t t = start + 200 + m_rng.next() % 5000;
    // Wide near the root, thinning out deeper down (about 130 calls a tree),
    // except for the odd tree that chains all the way to maxDepth.
    const int maxChildren = depth == 0 ? 8 : depth < 3 ? 4 : depth < 8 ? 2 : 1;
    int children = int(m_rng.next() % std::uint32_t(maxChildren + 1));
    if (depth >= 8 && m_rng.next() % 100 >= 55)
        children = 0;
    if (m_deepTree && depth < m_options.maxDepth - 1)
        children = std::max(children, 1);
    if (depth >= m_options.maxDepth - 1)
        children = 0;
    for (int c = 0; c < children && m_stats.events + 2 < m_options.events; ++c) {
        t = call(thread, depth + 1, t) + m_rng.next() % 3000;
        if (m_rng.next() % 16 == 0) {
            std::snprintf(m_buffer, sizeof m_buffer,
                          "{\"ph\":\"C\",\"name\":\"queue\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"args\":{\"pending\":%u}}",
                          pid, tid, micros(t, ts), m_rng.next() % 500);
            event(m_buffer);
        }
    }
    const std::int64_t end = t + 100 + m_rng.next() % 20000;
    if (beginEnd) {
        std::snprintf(m_buffer, sizeof m_buffer,
                      devtools ? "{\"args\":{},\"ph\":\"E\",\"pid\":%d,\"tid\":%d,\"ts\":%s}"
                               : "{\"ph\":\"E\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                      pid, tid, micros(end, ts));
    } else if (devtools) {
        const std::string callName = name(nameIndex);
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"args\":{\"data\":{\"columnNumber\":%d,\"frame\":\"F%d\",\"functionName\":\"%s\",\"lineNumber\":%d,"
                      "\"url\":\"https://example.org/static/app.js\"}},\"cat\":\"devtools.timeline\",\"dur\":%s,"
                      "\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                      nameIndex % 80, pid, callName.c_str(), nameIndex % 3000, micros(end - start, dur), callName.c_str(), pid,
                      tid, micros(start, ts));
    } else {
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"app\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,"
                      "\"args\":{\"depth\":%d}}",
                      name(nameIndex), pid, tid, micros(start, ts), micros(end - start, dur), depth);
    }
    event(m_buffer);
    ++m_stats.intervals;
    return end;
}

// A task that runs in three slices with waits between, the middle one with
// a nested step: five b/e pairs sharing an id.
void TraceGenerator::asyncTask(int process, std::int64_t start)
{
    const std::uint64_t id = m_nextTaskId++;
    const int nameIndex = pickName();
    const std::string taskName = name(nameIndex);
    char ts[32];
    std::int64_t t = start;
    for (int slice = 0; slice < 3; ++slice) {
        const std::int64_t end = t + 1000 + m_rng.next() % 50000;
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"ph\":\"b\",\"name\":\"%s\",\"cat\":\"task\",\"id\":\"0x%llx\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                      taskName.c_str(), static_cast<unsigned long long>(id), process, 100, micros(t, ts));
        event(m_buffer);
        if (slice == 1) {
            std::snprintf(m_buffer, sizeof m_buffer,
                          "{\"ph\":\"b\",\"name\":\"step\",\"cat\":\"task\",\"id\":\"0x%llx\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                          static_cast<unsigned long long>(id), process, 100, micros(t + 100, ts));
            event(m_buffer);
            std::snprintf(m_buffer, sizeof m_buffer,
                          "{\"ph\":\"e\",\"name\":\"step\",\"cat\":\"task\",\"id\":\"0x%llx\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                          static_cast<unsigned long long>(id), process, 100, micros(t + 600, ts));
            event(m_buffer);
            ++m_stats.intervals;
        }
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"ph\":\"e\",\"name\":\"%s\",\"cat\":\"task\",\"id\":\"0x%llx\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                      taskName.c_str(), static_cast<unsigned long long>(id), process, 100, micros(end, ts));
        event(m_buffer);
        ++m_stats.intervals;
        t = end + 5000 + m_rng.next() % 200000;
    }
}

bool TraceGenerator::writeFile(const char* path, std::uint64_t events, bool samples)
{
    std::FILE* out = std::fopen(path, "wb");
    if (!out)
        return false;
    Options options;
    options.events = events;
    options.samples = samples;
    TraceGenerator(options).write(out);
    return std::fclose(out) == 0;
}

TraceGenerator::Stats TraceGenerator::write(std::FILE* out)
{
    m_out = out;
    m_stats = Stats();
    std::fputs("{\"traceEvents\":[", out);
    const int threads = m_options.processes * m_options.threadsPerProcess;
    for (int p = 0; p < m_options.processes; ++p) {
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":\"service-%d\"}}",
                      p + 1, p + 1);
        event(m_buffer);
    }
    for (int t = 0; t < threads; ++t) {
        std::snprintf(m_buffer, sizeof m_buffer,
                      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s-%d\"}}",
                      1 + t / m_options.threadsPerProcess, 100 + t, t % m_options.threadsPerProcess == 0 ? "main" : "worker",
                      t);
        event(m_buffer);
    }
    std::vector<std::int64_t> clock(std::size_t(threads), 1'000'000'000);
    std::vector<SampleGenerator> samplers; // by process: its main thread's
    for (int p = 0; m_options.samples && p < m_options.processes; ++p) {
        samplers.emplace_back(p + 1, 100 + p * m_options.threadsPerProcess, m_options.seed + std::uint32_t(p));
        event(samplers.back().profileEvent(clock[0] / 1000).c_str());
    }
    std::uint64_t round = 0;
    while (m_stats.events < m_options.events) {
        const int thread = int(round % std::uint64_t(threads));
        m_deepTree = m_rng.next() % 20 == 0;
        clock[std::size_t(thread)] = call(thread, 0, clock[std::size_t(thread)]) + 1000 + m_rng.next() % 100000;
        if (!samplers.empty() && thread % m_options.threadsPerProcess == 0) {
            SampleGenerator& sampler = samplers[std::size_t(thread / m_options.threadsPerProcess)];
            const std::string chunk = sampler.chunkEvent(clock[std::size_t(thread)] / 1000, 5, 15);
            if (!chunk.empty())
                event(chunk.c_str());
        }
        if (round % 5 == 0 && m_stats.events + 10 < m_options.events)
            asyncTask(1 + thread / m_options.threadsPerProcess, clock[std::size_t(thread)] - 50000);
        if (round % 97 == 0) {
            char ts[32];
            std::snprintf(m_buffer, sizeof m_buffer, "{\"ph\":\"i\",\"name\":\"frame\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%s}",
                          1 + thread / m_options.threadsPerProcess, 100 + thread, micros(clock[std::size_t(thread)], ts));
            event(m_buffer);
        }
        ++round;
    }
    for (const SampleGenerator& sampler : samplers)
        m_stats.samples += sampler.sampleCount();
    std::fputs("\n],\"displayTimeUnit\":\"ns\"}\n", out);
    return m_stats;
}

} // namespace runlane::bench
