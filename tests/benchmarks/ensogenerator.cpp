#include "ensogenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>

namespace runlane::test {

namespace {

// The label table every generated IDE array starts with.
enum Label : int { Highlight, Prelude, HandleEvent, Render, CompileShaders, BackendExecution, LabelCount };
constexpr const char* kLabelText[LabelCount] = {
    "@highlight", "prelude (ide.rs:1)", "handle_event (ide.rs:10)", "render (world.rs:40)",
    "compile_new_shaders (shaders.rs:20)", "backend_execution (rpc.rs:30)",
};
constexpr int kNoParent = -1; // explicit root
constexpr int kImplicit = -2; // no `p`: the current profiler

constexpr const char* kMethods[] = {"executionContext/push", "text/openFile", "search/getSuggestionsDatabase",
                                    "executionContext/executeExpression"};
constexpr const char* kNotifications[] = {"ExpressionUpdates", "FileEvent", "VisualizationUpdate"};

// Uniform draws that are the same with every standard library (the
// distributions' algorithms are not specified; mt19937_64's output is).
struct Rng {
    std::mt19937_64 engine;
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + engine() % (hi - lo + 1); }
    bool chance(double p) { return double(engine() >> 11) * 0x1p-53 < p; }
};

std::string quoted(const std::string& text)
{
    return "\"" + text + "\""; // the generator's texts need no escapes
}

// µs since the epoch as the Language Server logs it: 2022-04-25T15:32:21.301300Z.
std::string csvTimestamp(std::uint64_t micros)
{
    using namespace std::chrono;
    const sys_days day = floor<days>(sys_time<microseconds>(microseconds(micros)));
    const year_month_day date(day);
    const std::uint64_t inDay = micros - std::uint64_t(duration_cast<microseconds>(day.time_since_epoch()).count());
    char text[40];
    std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02llu:%02llu:%02llu.%06lluZ", int(date.year()),
                  unsigned(date.month()), unsigned(date.day()), static_cast<unsigned long long>(inDay / 3600000000),
                  static_cast<unsigned long long>(inDay / 60000000 % 60),
                  static_cast<unsigned long long>(inDay / 1000000 % 60), static_cast<unsigned long long>(inDay % 1000000));
    return text;
}

// What the IDE's array holds, written event by event in log order, which
// is also time order: metadata due before an event (frames, replies) is
// written first.
class IdeLog
{
public:
    IdeLog(const EnsoGenOptions& options, Rng& rng, EnsoGenTruth& truth) : m_options(options), m_rng(rng), m_truth(truth)
    {
        m_out = "[\n";
        line(R"({"X":{"t":0,"d":{"$Process":"Ide"}}})");
        line(R"({"X":{"t":0,"d":{"$TimeOffset":)" + std::to_string(options.ideOffset) + "}}}");
        for (const char* text : kLabelText)
            line(R"({"L":{"l":)" + quoted(text) + "}}");
    }

    int create(int label, int parent, std::uint64_t t)
    {
        at(t);
        const int id = int(m_measurements.size());
        std::string text = R"({"C":{)";
        if (parent != kImplicit)
            text += R"("p":)" + std::to_string(parent) + ",";
        line(text + R"("t":)" + std::to_string(t) + R"(,"l":)" + std::to_string(label) + "}}");
        const int creator = parent == kImplicit ? (m_stack.empty() ? kNoParent : m_stack.back()) : parent;
        Measurement m;
        m.label = label;
        m.inside = creator >= 0 && (creator == m_highlight || m_measurements[std::size_t(creator)].inside);
        m_measurements.push_back(m);
        if (label == Highlight)
            m_highlight = id;
        return id;
    }
    void start(int id, std::uint64_t t)
    {
        at(t);
        line(R"({"S":{"i":)" + std::to_string(id) + R"(,"t":)" + std::to_string(t) + "}}");
        m_stack.push_back(id);
        m_starts.push_back(t);
        ++m_intervals;
    }
    void stop(int id, std::uint64_t t, bool end)
    {
        at(t);
        line(std::string(end ? R"({"E":{"i":)" : R"({"P":{"i":)") + std::to_string(id) + R"(,"t":)"
             + std::to_string(t) + "}}");
        if (m_stack.empty() || m_stack.back() != id)
            std::abort(); // the generator nests its intervals
        const std::uint64_t startedAt = m_starts.back();
        m_stack.pop_back();
        m_starts.pop_back();
        Measurement& m = m_measurements[std::size_t(id)];
        m.lastEnd = t;
        m.hasEnd = true;
        if (m_stack.empty())
            m_topLevel.push_back({startedAt, t, m.label == CompileShaders || m.label == BackendExecution});
    }
    // Metadata at a time of the IDE's clock, written when the log gets there.
    void due(std::uint64_t t, const std::string& type, const std::string& payload)
    {
        m_due.push_back({t, type, payload});
        std::stable_sort(m_due.begin(), m_due.end(), [](const Due& a, const Due& b) { return a.t < b.t; });
    }
    void metadata(std::uint64_t t, const std::string& type, const std::string& payload)
    {
        at(t);
        write(t, type, payload);
    }
    // Writes what is still due, ends the array, and works out `processes`.
    std::string finish(std::uint64_t regionStart, std::uint64_t regionEnd)
    {
        while (!m_due.empty())
            at(m_due.front().t);
        m_out.resize(m_out.size() - 2); // the last ",\n"
        m_out += "\n]\n";
        const std::uint64_t offset = m_options.ideOffset;
        m_truth.regionStart = offset + regionStart;
        m_truth.regionEnd = offset + regionEnd;
        m_truth.main = 0;
        for (const TopLevel& iv : m_topLevel) {
            const std::uint64_t from = std::max(iv.start, regionStart), to = std::min(iv.end, regionEnd);
            if (!iv.foreign && to > from)
                m_truth.main += to - from;
        }
        m_truth.latencies.assign(2, 0);
        std::vector<bool> seen(2, false);
        for (std::size_t k = 0; k < m_measurements.size(); ++k) {
            const Measurement& m = m_measurements[k];
            const bool open = std::find(m_stack.begin(), m_stack.end(), int(k)) != m_stack.end();
            if (!m.inside || !m.hasEnd || open || (m.label != CompileShaders && m.label != BackendExecution))
                continue;
            const std::size_t process = m.label == CompileShaders ? 0 : 1;
            const std::uint64_t end = m.lastEnd - regionStart;
            m_truth.latencies[process] = seen[process] ? std::max(m_truth.latencies[process], end) : end;
            seen[process] = true;
        }
        m_truth.measurements["Ide"] = m_measurements.size();
        m_truth.intervals["Ide"] = m_intervals;
        m_truth.spanStart = offset + m_first;
        m_truth.spanEnd = offset + m_last;
        return std::move(m_out);
    }
    int highlight() const { return m_highlight; }

private:
    struct Measurement {
        int label = 0;
        bool inside = false; // created by the highlight, directly or not
        bool hasEnd = false;
        std::uint64_t lastEnd = 0;
    };
    struct TopLevel {
        std::uint64_t start, end;
        bool foreign;
    };
    struct Due {
        std::uint64_t t;
        std::string type, payload;
    };

    void line(const std::string& text)
    {
        m_out += text;
        m_out += ",\n";
    }
    void write(std::uint64_t t, const std::string& type, const std::string& payload)
    {
        line(R"({"X":{"t":)" + std::to_string(t) + R"(,"d":{")" + type + "\":" + payload + "}}}");
        ++m_truth.marks["Ide"][type];
        m_first = std::min(m_first, t);
        m_last = std::max(m_last, t);
    }
    // Everything due up to `t`: frames, then the replies, in time order.
    void at(std::uint64_t t)
    {
        m_first = std::min(m_first, t);
        m_last = std::max(m_last, t);
        for (;;) {
            const bool frameFirst = m_nextFrame <= t && (m_due.empty() || m_nextFrame <= m_due.front().t);
            if (frameFirst) {
                frame();
            } else if (!m_due.empty() && m_due.front().t <= t) {
                const Due d = m_due.front();
                m_due.pop_front();
                write(d.t, d.type, d.payload);
            } else {
                break;
            }
        }
    }
    // A RenderStats: fps from the time since the last frame started; every
    // fifth frame is slow (three periods): its work takes one period more
    // (17.667 to 31.667 ms), every tenth two (35.334 to 48.334 ms), so
    // that both kinds of janky frames are there.
    void frame()
    {
        const std::uint64_t t = m_nextFrame;
        const std::uint64_t since = m_frames == 0 ? m_options.framePeriod : t - m_lastFrame;
        char fps[32], frameTime[32];
        std::snprintf(fps, sizeof fps, "%.3f", 1e6 / double(since));
        const std::uint64_t slow = m_frames % 5 == 4 ? (m_frames % 10 == 9 ? 2 : 1) : 0;
        const std::uint64_t work = m_rng.between(1000, 15000) + slow * m_options.framePeriod; // µs
        std::snprintf(frameTime, sizeof frameTime, "%.3f", double(work) / 1000);
        const std::uint64_t draws = m_rng.between(5, 200);
        std::string payload = R"({"frame_time":)" + std::string(frameTime) + R"(,"fps":)" + fps;
        const std::uint64_t values[] = {m_rng.between(1 << 24, 1 << 26), m_rng.between(1 << 20, 1 << 24), draws,
                                        m_rng.between(10, 90), m_rng.between(0, 20), m_rng.between(0, 1 << 16),
                                        m_rng.between(1, 30), m_rng.between(10, 500), m_rng.between(10, 300),
                                        m_rng.between(5, 100), m_rng.between(5, 60), m_rng.between(0, 3)};
        const char* names[] = {"wasm_memory_usage", "gpu_memory_usage", "draw_call_count", "buffer_count",
                               "data_upload_count", "data_upload_size", "sprite_system_count", "sprite_count",
                               "symbol_count", "mesh_count", "shader_count", "shader_compile_count"};
        for (std::size_t k = 0; k < std::size(values); ++k)
            payload += ",\"" + std::string(names[k]) + "\":" + std::to_string(values[k]);
        payload += "}";
        write(t, "RenderStats", payload);
        m_truth.frames.push_back({m_options.ideOffset + t, std::strtod(frameTime, nullptr), std::strtod(fps, nullptr), draws});
        m_lastFrame = t;
        ++m_frames;
        m_nextFrame = t + m_options.framePeriod * (m_frames % 5 == 4 ? 3 : 1);
    }

    const EnsoGenOptions& m_options;
    Rng& m_rng;
    EnsoGenTruth& m_truth;
    std::string m_out;
    std::vector<Measurement> m_measurements;
    std::vector<int> m_stack; // open intervals' measurements
    std::vector<std::uint64_t> m_starts; // and their starts
    std::vector<TopLevel> m_topLevel;
    std::deque<Due> m_due;
    std::uint64_t m_intervals = 0;
    int m_highlight = -1;
    std::uint64_t m_nextFrame = 1000;
    std::uint64_t m_lastFrame = 0;
    std::uint64_t m_frames = 0;
    std::uint64_t m_first = ~std::uint64_t(0);
    std::uint64_t m_last = 0;
};

} // namespace

const std::vector<std::string>& EnsoGenerator::foreignLabels()
{
    static const std::vector<std::string> labels{"compile_new_shaders", "backend_execution"};
    return labels;
}

std::string EnsoGenerator::profile(std::uint64_t seed, int tasks, EnsoGenTruth* truth)
{
    EnsoGenOptions options;
    options.seed = seed;
    options.tasks = tasks;
    return profile(options, truth);
}

std::string EnsoGenerator::profile(const EnsoGenOptions& o, EnsoGenTruth* truthOut)
{
    EnsoGenTruth truth;
    Rng rng{std::mt19937_64(o.seed)};
    IdeLog ide(o, rng, truth);
    struct LsEvent {
        std::uint64_t at;
        bool request;
        std::string endpoint, id;
    };
    std::vector<LsEvent> ls;
    // Task times and gaps in steps of 20 µs: a few ms per task, so that
    // frames (16.7 ms) come between and during tasks.
    auto span = [&rng](std::uint64_t lo, std::uint64_t hi) { return 20 * rng.between(lo, hi); };
    std::uint64_t t = 100;
    // Runs `id` from `t` for a while, then pauses or ends it.
    auto runFor = [&](int id, std::uint64_t lo, std::uint64_t hi, bool end) {
        ide.start(id, t);
        t += span(lo, hi);
        ide.stop(id, t, end);
    };

    // Before the region: a task, and one running across its start.
    const int prelude = ide.create(Prelude, kNoParent, t);
    runFor(prelude, 200, 400, true);
    t += span(20, 50);
    const int across = ide.create(HandleEvent, kNoParent, t);
    ide.start(across, t);
    t += span(20, 60);
    const std::uint64_t regionStart = t;
    const int highlight = ide.create(Highlight, kNoParent, t); // paused until the end
    t += span(10, 40);
    ide.stop(across, t, true);

    int waiting = -1; // an async foreign task between its two intervals
    std::uint64_t requestId = 0;
    for (int k = 0; k < o.tasks; ++k) {
        t += span(5, 60);
        const std::uint64_t kind = rng.between(0, 9);
        if (waiting >= 0 && kind < 2) {
            runFor(waiting, 30, 300, true);
            waiting = -1;
        } else if (kind < 2) {
            const int task = ide.create(rng.chance(0.5) ? CompileShaders : BackendExecution, highlight, t);
            runFor(task, 30, 300, true);
        } else if (kind < 3 && waiting < 0) {
            waiting = ide.create(BackendExecution, highlight, t);
            runFor(waiting, 30, 300, false);
        } else {
            const int task = ide.create(rng.chance(0.5) ? HandleEvent : Render, highlight, t);
            ide.start(task, t);
            if (rng.chance(o.requestChance)) {
                // The request, the Language Server's round trip to the
                // Engine, and the notification back to the IDE.
                const std::string method = kMethods[rng.between(0, std::size(kMethods) - 1)];
                const std::uint64_t sent = t + rng.between(1, 10);
                ide.metadata(sent, "RpcRequest", quoted(method));
                const std::string id = std::to_string(++requestId);
                const std::uint64_t toEngine = o.ideOffset + sent + rng.between(200, 800);
                const std::uint64_t fromEngine = toEngine + rng.between(500, 20000);
                const std::uint64_t back = fromEngine + rng.between(100, 500);
                const std::string note = kNotifications[rng.between(0, std::size(kNotifications) - 1)];
                ls.push_back({toEngine, true, method, id});
                ls.push_back({fromEngine, false, method, id});
                ide.due(back - o.ideOffset, "RpcEvent", quoted(note));
                truth.messages.push_back({o.ideOffset + sent, "Ide", "LanguageServer", method, ""});
                truth.messages.push_back({toEngine, "LanguageServer", "Engine", method, id});
                truth.messages.push_back({fromEngine, "Engine", "LanguageServer", method, id});
                truth.messages.push_back({back, "LanguageServer", "Ide", note, ""});
                truth.roundTrips[method].push_back(fromEngine - toEngine);
                t = sent;
            }
            if (rng.chance(0.3)) {
                // A foreign call nested in main work: the work still counts.
                t += span(5, 20);
                const int call = ide.create(CompileShaders, kImplicit, t);
                runFor(call, 20, 200, true);
            }
            if (rng.chance(0.1))
                ide.metadata(t + 1, "GlyphCacheMiss", R"({"face":"DejaVu Sans Mono","variations":"","glyph_id":)"
                                                           + std::to_string(rng.between(1, 5000)) + "}");
            t += span(20, 400);
            ide.stop(task, t, true);
        }
    }
    if (waiting >= 0) {
        t += span(5, 60);
        runFor(waiting, 30, 300, true);
    }
    // The region ends inside a task that runs on after it.
    t += span(5, 60);
    const int last = ide.create(HandleEvent, highlight, t);
    ide.start(last, t);
    t += span(10, 50);
    runFor(highlight, 5, 20, true);
    const std::uint64_t regionEnd = t;
    t += span(10, 50);
    ide.stop(last, t, true);
    // After it: foreign work the region did not create, and a task still
    // running when the log ends.
    t += span(5, 60);
    const int after = ide.create(BackendExecution, kNoParent, t);
    runFor(after, 30, 300, true);
    t += span(5, 60);
    const int open = ide.create(BackendExecution, highlight, t);
    ide.start(open, t);
    std::string out = ide.finish(regionStart, regionEnd);

    std::stable_sort(ls.begin(), ls.end(), [](const LsEvent& a, const LsEvent& b) { return a.at < b.at; });
    for (const LsEvent& e : ls)
        truth.messageLog += csvTimestamp(e.at) + (e.request ? ",Request," : ",Response,") + e.id + "," + e.endpoint + "\n";
    if (o.languageServer) {
        out += "[\n" R"({"X":{"t":0,"d":{"$Process":"LanguageServer"}}},)" "\n"
               R"({"X":{"t":0,"d":{"$TimeOffset":0}}})";
        for (const LsEvent& e : ls) {
            out += ",\n" R"({"X":{"t":)" + std::to_string(e.at) + R"(,"d":{"BackendMessage":{"direction":")"
                + (e.request ? "Request" : "Response") + R"(","request_id":")" + e.id + R"(","endpoint":")"
                + e.endpoint + "\"}}}}";
            truth.spanStart = std::min(truth.spanStart, e.at);
            truth.spanEnd = std::max(truth.spanEnd, e.at);
        }
        out += "\n]\n";
        truth.measurements["LanguageServer"] = 0;
        truth.intervals["LanguageServer"] = 0;
        truth.marks["LanguageServer"]["BackendMessage"] = ls.size();
    } else {
        truth.messages.erase(std::remove_if(truth.messages.begin(), truth.messages.end(),
                                            [](const EnsoGenMessage& m) { return m.from == "Engine" || m.to == "Engine"; }),
                             truth.messages.end());
        truth.roundTrips.clear();
    }
    std::stable_sort(truth.messages.begin(), truth.messages.end(),
                     [](const EnsoGenMessage& a, const EnsoGenMessage& b) { return a.at < b.at; });
    if (truthOut)
        *truthOut = std::move(truth);
    return out;
}

} // namespace runlane::test
