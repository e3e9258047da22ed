#include "samplegenerator.h"

#include <cstdio>

namespace runlane::bench {

namespace {

constexpr std::uint32_t kRoot = 1;
constexpr std::uint32_t kProgram = 2;
constexpr std::uint32_t kIdle = 3;
constexpr std::uint32_t kGc = 4;
constexpr std::uint32_t kMaxNodes = 4000;
constexpr const char* kScripts[] = {"app.js", "vendor.js", "react-dom.production.min.js", "worker.js", "router.js"};

} // namespace

SampleGenerator::SampleGenerator(int pid, int tid, std::uint32_t seed)
    : m_pid(pid), m_tid(tid), m_state(0x2545F4914F6CDD1DULL ^ (std::uint64_t(seed) << 17))
{
    m_nodes.push_back({}); // (root)
    addNode(kRoot); // (program)
    addNode(kRoot); // (idle)
    addNode(kRoot); // (garbage collector)
    m_current = kProgram;
}

std::uint32_t SampleGenerator::next()
{
    m_state ^= m_state >> 12;
    m_state ^= m_state << 25;
    m_state ^= m_state >> 27;
    return static_cast<std::uint32_t>((m_state * 2685821657736338717ULL) >> 32);
}

std::uint32_t SampleGenerator::addNode(std::uint32_t parent)
{
    m_nodes.push_back({parent, {}});
    const auto id = std::uint32_t(m_nodes.size());
    if (parent != 0)
        m_nodes[parent - 1].children.push_back(id);
    return id;
}

// The next sample's leaf: a JS stack moves a frame at a time.
std::uint32_t SampleGenerator::step()
{
    const std::uint32_t r = next() % 100;
    const bool special = m_current <= kGc;
    if (r < 3)
        return m_current = kIdle;
    if (r < 5)
        return m_current = kGc;
    if (r < 50 && !special)
        return m_current; // still in the same function
    if (r < 70 && !special && m_nodes[m_current - 1].parent != kRoot)
        return m_current = m_nodes[m_current - 1].parent; // returned
    // A call: into a known callee mostly, a new one while the tree is small.
    const std::uint32_t from = special ? kRoot : m_current;
    const std::vector<std::uint32_t>& known = m_nodes[from - 1].children;
    const std::size_t real = from == kRoot ? known.size() - 3 : known.size(); // not (program), (idle), (gc)
    if (real > 0 && (m_nodes.size() >= kMaxNodes || next() % 4 != 0))
        return m_current = known[(from == kRoot ? 3 : 0) + next() % real];
    if (m_nodes.size() >= kMaxNodes)
        return m_current = kProgram;
    return m_current = addNode(from);
}

void SampleGenerator::writeNode(std::string& out, std::uint32_t id) const
{
    char buffer[320];
    const char* name = id == kRoot ? "(root)" : id == kProgram ? "(program)" : id == kIdle ? "(idle)" : id == kGc ? "(garbage collector)" : nullptr;
    char function[48];
    if (!name) {
        std::snprintf(function, sizeof function, "%s%u", id % 7 == 0 ? "" : "handler_", id);
        name = id % 7 == 0 ? "" : function; // anonymous functions too
    }
    const bool js = id > kGc;
    std::snprintf(buffer, sizeof buffer,
                  "{\"callFrame\":{\"codeType\":\"%s\",\"columnNumber\":%d,\"functionName\":\"%s\",\"lineNumber\":%d,"
                  "\"scriptId\":%d,\"url\":\"%s%s\"},\"id\":%u",
                  js ? "JS" : "other", js ? int(id * 13 % 80) : -1, name, js ? int(id * 7 % 2000) : -1,
                  js ? int(id % 5 + 10) : 0, js ? "https://example.org/static/" : "", js ? kScripts[id % 5] : "", id);
    out += buffer;
    if (id != kRoot) {
        std::snprintf(buffer, sizeof buffer, ",\"parent\":%u", m_nodes[id - 1].parent);
        out += buffer;
    }
    out += '}';
}

std::string SampleGenerator::profileEvent(std::int64_t startUs)
{
    m_lastUs = startUs;
    char buffer[256];
    std::snprintf(buffer, sizeof buffer,
                  "{\"args\":{\"data\":{\"startTime\":%lld}},\"cat\":\"disabled-by-default-v8.cpu_profiler\","
                  "\"id\":\"0x%x\",\"name\":\"Profile\",\"ph\":\"P\",\"pid\":%d,\"tid\":%d,\"ts\":%lld}",
                  static_cast<long long>(startUs), unsigned(m_tid), m_pid, m_tid, static_cast<long long>(startUs));
    return buffer;
}

std::string SampleGenerator::chunkEvent(std::int64_t untilUs, int minGapUs, int maxGapUs)
{
    std::string samples;
    std::string deltas;
    char number[32];
    const std::int64_t firstUs = m_lastUs;
    for (;;) {
        const std::int64_t gap = minGapUs + std::int64_t(next() % std::uint32_t(maxGapUs - minGapUs + 1));
        if (m_lastUs + gap > untilUs)
            break;
        m_lastUs += gap;
        std::snprintf(number, sizeof number, "%s%u", samples.empty() ? "" : ",", step());
        samples += number;
        std::snprintf(number, sizeof number, "%s%lld", deltas.empty() ? "" : ",", static_cast<long long>(gap));
        deltas += number;
        ++m_samples;
    }
    if (samples.empty())
        return {};
    std::string out = "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[";
    for (std::uint32_t id = m_firstUnwritten; id <= m_nodes.size(); ++id) {
        if (id != m_firstUnwritten)
            out += ',';
        writeNode(out, id);
    }
    m_firstUnwritten = std::uint32_t(m_nodes.size()) + 1;
    out += "],\"samples\":[" + samples + "]},\"timeDeltas\":[" + deltas + "]}},";
    char tail[256];
    std::snprintf(tail, sizeof tail,
                  "\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"id\":\"0x%x\",\"name\":\"ProfileChunk\","
                  "\"ph\":\"P\",\"pid\":%d,\"tid\":%d,\"ts\":%lld}",
                  unsigned(m_tid), m_pid, m_tid, static_cast<long long>(firstUs));
    out += tail;
    return out;
}

} // namespace runlane::bench
