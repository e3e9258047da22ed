// runlane-demo-generator: simulates an async (Chronos-style) node and writes
// its future event log, the demo profile Runlane opens by default.
//
//   runlane-demo-generator -o chronos-demo.json [--seconds 30] [--seed 1]
//
// One event loop with a running stack. Futures run in segments; a child's
// first segment runs synchronously inside its creator's; a future pauses to
// await I/O, a timer (a primitive future that never runs) or its children.
// Work arrives as RPC requests of a few hundred kinds, periodic discovery and
// heartbeats, and a stream of tasks handled by `taskHandler`, whose cost grows
// with time: the loop degrades as it would with a leaking cache. The output is
// the same for the same options, byte for byte.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <queue>
#include <string>
#include <vector>

namespace {

using Time = std::int64_t; // ns
constexpr Time us = 1000;
constexpr Time ms = 1000 * us;
constexpr Time s = 1000 * ms;

struct Rng {
    std::uint64_t state;
    std::uint32_t next()
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return std::uint32_t((state * 2685821657736338717ULL) >> 32);
    }
    double uniform() { return next() / 4294967296.0; }
    Time between(Time a, Time b) { return a + Time(uniform() * double(b - a)); }
    // Exponential with the given mean: Poisson arrivals.
    Time exponential(Time mean) { return Time(-std::log(1.0 - uniform()) * double(mean)); }
};

struct Proc {
    std::string name;
    std::string file;
    int line;
};

struct Task;
using TaskPtr = std::shared_ptr<Task>;

// What a future does: runs work, creates children, then awaits something.
struct Step {
    enum Kind { Work, Spawn, Stillborn } kind;
    Time duration = 0;
    TaskPtr child;
};
struct Segment {
    std::vector<Step> steps;
    enum Wait { IO, Timer, Children, Finish } wait = Finish;
    Time delay = 0; // IO or timer
};

struct Task {
    const Proc* proc = nullptr;
    std::uint64_t id = 0;
    std::vector<Segment> segments;
    std::size_t next = 0;
    const char* finalState = "Completed";
    Task* creator = nullptr;
    int awaitedChildren = 0;
    bool creatorAwaits = false;
};

class Simulation
{
public:
    Simulation(std::FILE* out, Time duration, std::uint32_t seed) : m_out(out), m_duration(duration), m_rng{seed * 0x9E3779B97F4A7C15ULL + 7}
    {
        makeProcs();
    }

    void run();

private:
    struct Wakeup {
        Time at;
        std::uint64_t seq;
        enum Kind { Resume, Primitive, Arrival, TaskTick, Heartbeat, Discovery } kind;
        Task* task;
        TaskPtr keep; // keeps a top-level task alive while it waits
        bool operator>(const Wakeup& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };

    void makeProcs();
    const Proc& proc(const std::string& name, const char* file, int line);
    void emit(Time t, const Task& task, const char* state, bool first);
    void schedule(Time at, Wakeup::Kind kind, Task* task = nullptr, TaskPtr keep = nullptr);
    TaskPtr newTask(const Proc& p);
    Time runSegment(Task& task, Time now);
    void finish(Task& task, Time now);
    TaskPtr request();
    TaskPtr fetch(int depth);
    TaskPtr taskHandler(Time now);
    TaskPtr discovery();
    TaskPtr heartbeat();
    TaskPtr timer(Time delay);

    std::FILE* m_out;
    Time m_duration;
    Rng m_rng;
    std::uint64_t m_nextId = 1;
    std::uint64_t m_seq = 0;
    std::uint64_t m_events = 0;
    std::priority_queue<Wakeup, std::vector<Wakeup>, std::greater<>> m_queue;
    std::vector<std::unique_ptr<Proc>> m_procs;
    std::vector<const Proc*> m_rpcs; // request handlers, Zipf-distributed
    std::vector<const Proc*> m_helpers; // what handlers call
    const Proc* m_taskHandler = nullptr;
    const Proc* m_taskRunner = nullptr;
    const Proc* m_sendBlocks = nullptr;
    const Proc* m_sleep = nullptr;
    const Proc* m_heartbeat = nullptr;
    const Proc* m_advertise = nullptr;
    const Proc* m_provide = nullptr;
    const Proc* m_cached = nullptr;
    std::vector<TaskPtr> m_alive;
};

const Proc& Simulation::proc(const std::string& name, const char* file, int line)
{
    m_procs.push_back(std::make_unique<Proc>(Proc{name, file, line}));
    return *m_procs.back();
}

void Simulation::makeProcs()
{
    static const char* verbs[] = {"handle", "fetch", "store", "resolve", "verify", "encode", "decode", "request",
                                  "send", "query", "update", "prune", "sync", "announce"};
    static const char* nouns[] = {"Block",  "Manifest", "WantList", "Presence", "Peer",   "Dataset", "Slot",
                                  "Proof",  "Request",  "Contract", "Storage",  "Chunk",  "Tree",    "Record",
                                  "Reward", "Sale",     "Purchase", "Index",    "Cid",    "Batch"};
    static const char* modules[] = {"blockexchange/engine.nim", "blockexchange/network.nim", "discovery.nim",
                                    "sales.nim",                "purchasing.nim",            "erasure.nim",
                                    "node.nim",                 "rest/api.nim",              "stores/repostore.nim",
                                    "merkletree.nim"};
    int line = 40;
    for (const char* verb : verbs) {
        for (const char* noun : nouns) {
            const std::string name = std::string(verb) + noun;
            const char* file = modules[(name.size() * 7 + std::size_t(line)) % 10];
            const Proc& p = proc(name, file, line);
            (m_rpcs.size() <= m_helpers.size() ? m_rpcs : m_helpers).push_back(&p);
            line += 13 + int(name.size() % 7);
        }
    }
    m_taskHandler = &proc("taskHandler", "blockexchange/engine.nim", 563);
    m_taskRunner = &proc("taskRunner", "blockexchange/engine.nim", 612);
    m_sendBlocks = &proc("sendBlocks", "blockexchange/network.nim", 211);
    m_sleep = &proc("sleepAsync", "chronos/timer.nim", 74);
    m_heartbeat = &proc("heartbeat", "node.nim", 88);
    m_advertise = &proc("advertiseLoop", "discovery.nim", 140);
    m_provide = &proc("provide", "discovery.nim", 171);
    m_cached = &proc("getCachedBlock", "stores/cachestore.nim", 97);
}

void Simulation::emit(Time t, const Task& task, const char* state, bool first)
{
    if (first) {
        std::fprintf(m_out,
                     "%s\n {\"t\": %lld, \"id\": %llu, \"state\": \"%s\", \"proc\": \"%s\", \"file\": \"%s\", \"line\": %d}",
                     m_events ? "," : "", static_cast<long long>(t), static_cast<unsigned long long>(task.id), state,
                     task.proc->name.c_str(), task.proc->file.c_str(), task.proc->line);
    } else {
        std::fprintf(m_out, ",\n {\"t\": %lld, \"id\": %llu, \"state\": \"%s\"}", static_cast<long long>(t),
                     static_cast<unsigned long long>(task.id), state);
    }
    ++m_events;
}

void Simulation::schedule(Time at, Wakeup::Kind kind, Task* task, TaskPtr keep)
{
    m_queue.push(Wakeup{at, m_seq++, kind, task, std::move(keep)});
}

TaskPtr Simulation::newTask(const Proc& p)
{
    auto task = std::make_shared<Task>();
    task->proc = &p;
    task->id = m_nextId++;
    return task;
}

TaskPtr Simulation::timer(Time delay)
{
    TaskPtr t = newTask(*m_sleep);
    Segment wait;
    wait.wait = Segment::Timer;
    wait.delay = delay;
    t->segments.push_back(wait);
    return t;
}

// A child a handler calls: a synchronous first segment, then I/O, then a
// short second segment; sometimes it fails or calls a child of its own.
TaskPtr Simulation::fetch(int depth)
{
    const Proc& p = *m_helpers[std::size_t(std::pow(m_rng.uniform(), 2.2) * double(m_helpers.size()))];
    TaskPtr t = newTask(p);
    Segment first;
    first.steps.push_back({Step::Work, m_rng.between(15 * us, 120 * us), nullptr});
    if (depth < 2 && m_rng.uniform() < 0.25)
        first.steps.push_back({Step::Spawn, 0, fetch(depth + 1)});
    first.wait = Segment::IO;
    first.delay = m_rng.between(300 * us, 12 * ms);
    Segment second;
    second.steps.push_back({Step::Work, m_rng.between(10 * us, 80 * us), nullptr});
    t->segments = {first, second};
    if (m_rng.uniform() < 0.04)
        t->finalState = "Failed";
    return t;
}

TaskPtr Simulation::request()
{
    const Proc& p = *m_rpcs[std::size_t(std::pow(m_rng.uniform(), 2.5) * double(m_rpcs.size()))];
    TaskPtr t = newTask(p);
    Segment first;
    first.steps.push_back({Step::Work, m_rng.between(20 * us, 150 * us), nullptr});
    if (m_rng.uniform() < 0.3)
        first.steps.push_back({Step::Stillborn, 0, newTask(*m_cached)});
    const int children = 1 + int(m_rng.next() % 3);
    for (int c = 0; c < children; ++c) {
        first.steps.push_back({Step::Spawn, 0, fetch(0)});
        first.steps.push_back({Step::Work, m_rng.between(5 * us, 40 * us), nullptr});
    }
    first.wait = Segment::Children;
    Segment last;
    last.steps.push_back({Step::Work, m_rng.between(20 * us, 200 * us), nullptr});
    t->segments = {first, last};
    const double fate = m_rng.uniform();
    t->finalState = fate < 0.03 ? "Cancelled" : fate < 0.06 ? "Failed" : "Completed";
    return t;
}

// The degrading handler: each task costs more as the run goes on.
TaskPtr Simulation::taskHandler(Time now)
{
    TaskPtr t = newTask(*m_taskHandler);
    const double progress = double(now) / double(m_duration);
    const Time cost = 150 * us + Time(22.0 * double(ms) * progress * progress);
    Segment first;
    first.steps.push_back({Step::Work, cost / 2 + m_rng.between(0, cost / 5), nullptr});
    TaskPtr send = newTask(*m_sendBlocks);
    Segment sendFirst;
    sendFirst.steps.push_back({Step::Work, m_rng.between(30 * us, 90 * us), nullptr});
    sendFirst.wait = Segment::IO;
    sendFirst.delay = m_rng.between(1 * ms, 6 * ms);
    Segment sendLast;
    sendLast.steps.push_back({Step::Work, m_rng.between(10 * us, 30 * us), nullptr});
    send->segments = {sendFirst, sendLast};
    first.steps.push_back({Step::Spawn, 0, send});
    first.wait = Segment::Children;
    Segment last;
    last.steps.push_back({Step::Work, cost / 2 - cost / 10, nullptr});
    t->segments = {first, last};
    return t;
}

TaskPtr Simulation::discovery()
{
    TaskPtr t = newTask(*m_advertise);
    Segment first;
    first.steps.push_back({Step::Work, m_rng.between(100 * us, 300 * us), nullptr});
    for (int k = 0; k < 12; ++k) {
        TaskPtr provide = newTask(*m_provide);
        Segment a;
        a.steps.push_back({Step::Work, m_rng.between(20 * us, 60 * us), nullptr});
        a.wait = Segment::IO;
        a.delay = m_rng.between(5 * ms, 80 * ms);
        Segment b;
        b.steps.push_back({Step::Work, m_rng.between(10 * us, 30 * us), nullptr});
        provide->segments = {a, b};
        first.steps.push_back({Step::Spawn, 0, provide});
    }
    first.wait = Segment::Children;
    Segment last;
    last.steps.push_back({Step::Work, m_rng.between(50 * us, 100 * us), nullptr});
    t->segments = {first, last};
    return t;
}

TaskPtr Simulation::heartbeat()
{
    TaskPtr t = newTask(*m_heartbeat);
    Segment first;
    first.steps.push_back({Step::Work, m_rng.between(20 * us, 60 * us), nullptr});
    first.steps.push_back({Step::Spawn, 0, timer(m_rng.between(2 * ms, 4 * ms))});
    first.wait = Segment::Children;
    Segment last;
    last.steps.push_back({Step::Work, m_rng.between(10 * us, 30 * us), nullptr});
    t->segments = {first, last};
    return t;
}

// Runs the task's next segment at `now`, on top of the running stack;
// returns when it pauses or finishes.
Time Simulation::runSegment(Task& task, Time now)
{
    const Segment& segment = task.segments[task.next];
    if (segment.wait == Segment::Timer) {
        // A primitive future: it never runs; the timer completes it.
        schedule(now + segment.delay, Wakeup::Primitive, &task);
        return now;
    }
    emit(now, task, "Running", false);
    Time t = now;
    for (const Step& step : segment.steps) {
        if (step.kind == Step::Work) {
            t += step.duration;
        } else if (step.kind == Step::Stillborn) {
            emit(t, *step.child, "Completed", true);
        } else {
            Task& child = *step.child;
            child.creator = &task;
            child.creatorAwaits = segment.wait == Segment::Children;
            if (child.creatorAwaits)
                ++task.awaitedChildren;
            m_alive.push_back(step.child);
            emit(t, child, "Pending", true);
            t = runSegment(child, t);
        }
    }
    ++task.next;
    if (task.next == task.segments.size()) {
        finish(task, t);
        return t;
    }
    emit(t, task, "Paused", false);
    if (segment.wait == Segment::IO)
        schedule(t + segment.delay, Wakeup::Resume, &task);
    else if (segment.wait == Segment::Children && task.awaitedChildren == 0)
        schedule(t, Wakeup::Resume, &task);
    return t;
}

void Simulation::finish(Task& task, Time now)
{
    emit(now, task, task.finalState, false);
    if (task.creator && task.creatorAwaits && --task.creator->awaitedChildren == 0)
        schedule(now, Wakeup::Resume, task.creator);
}

void Simulation::run()
{
    std::fprintf(m_out, "{\"chronosFutureEvents\": 1, \"loop\": \"codex-node main loop\",\n \"events\": [");
    schedule(0, Wakeup::Arrival);
    schedule(5 * ms, Wakeup::TaskTick);
    schedule(100 * ms, Wakeup::Heartbeat);
    schedule(300 * ms, Wakeup::Discovery);
    Time clock = 0;
    while (!m_queue.empty()) {
        Wakeup w = m_queue.top();
        m_queue.pop();
        const bool feeding = w.at < m_duration;
        // The loop is busy until `clock`: what is due waits for it.
        const Time now = std::max(clock, w.at);
        switch (w.kind) {
        case Wakeup::Arrival:
            if (feeding) {
                TaskPtr t = request();
                m_alive.push_back(t);
                emit(now, *t, "Pending", true);
                clock = runSegment(*t, now);
                schedule(w.at + m_rng.exponential(9 * ms), Wakeup::Arrival);
            }
            break;
        case Wakeup::TaskTick:
            if (feeding) {
                TaskPtr t = taskHandler(w.at);
                m_alive.push_back(t);
                emit(now, *t, "Pending", true);
                clock = runSegment(*t, now);
                schedule(w.at + m_rng.between(30 * ms, 50 * ms), Wakeup::TaskTick);
            }
            break;
        case Wakeup::Heartbeat:
            if (feeding) {
                TaskPtr t = heartbeat();
                m_alive.push_back(t);
                emit(now, *t, "Pending", true);
                clock = runSegment(*t, now);
                schedule(w.at + 500 * ms, Wakeup::Heartbeat);
            }
            break;
        case Wakeup::Discovery:
            if (feeding) {
                TaskPtr t = discovery();
                m_alive.push_back(t);
                emit(now, *t, "Pending", true);
                clock = runSegment(*t, now);
                schedule(w.at + 2 * s, Wakeup::Discovery);
            }
            break;
        case Wakeup::Primitive:
            // Timers fire on time, even when the loop is busy.
            finish(*w.task, std::max(w.at, clock));
            break;
        case Wakeup::Resume:
            clock = runSegment(*w.task, now);
            break;
        }
    }
    std::fprintf(m_out, "\n]}\n");
}

} // namespace

int main(int argc, char** argv)
{
    const char* output = nullptr;
    double seconds = 30;
    std::uint32_t seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-o" && i + 1 < argc)
            output = argv[++i];
        else if (arg == "--seconds" && i + 1 < argc)
            seconds = std::atof(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::uint32_t(std::strtoul(argv[++i], nullptr, 10));
        else {
            std::fprintf(stderr, "Usage: runlane-demo-generator -o FILE [--seconds S] [--seed N]\n");
            return 2;
        }
    }
    if (!output || seconds <= 0) {
        std::fprintf(stderr, "runlane-demo-generator: give -o FILE (and a positive --seconds)\n");
        return 2;
    }
    std::FILE* out = std::fopen(output, "wb");
    if (!out) {
        std::perror(output);
        return 1;
    }
    Simulation(out, Time(seconds * double(s)), seed).run();
    if (std::fclose(out) != 0) {
        std::perror(output);
        return 1;
    }
    return 0;
}
