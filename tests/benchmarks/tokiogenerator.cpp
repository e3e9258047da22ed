#include "tokiogenerator.h"

#include <algorithm>
#include <deque>
#include <queue>

namespace runlane::test {

namespace {

constexpr std::int64_t kBase = 1'700'000'000'000'000'000; // ns since the epoch

class Simulation
{
public:
    Simulation(const TokioGenOptions& options, const TokioGenerator::Sink& sink)
        : m_options(options), m_sink(sink), m_rng(options.seed), m_idle(std::size_t(std::max(options.workers, 1)))
    {
        for (std::size_t w = 0; w < m_idle.size(); ++w)
            m_idle[w] = int(w);
    }

    void run()
    {
        for (int i = 0; i < m_options.rootTasks; ++i)
            spawn(kBase + i * 1000);
        while (!m_queue.empty()) {
            const Action action = m_queue.top();
            m_queue.pop();
            handle(action);
        }
    }

private:
    enum class State : std::uint8_t { Ready, Running, Waiting, Done };
    struct Task {
        std::uint64_t id = 0;
        State state = State::Ready;
        int pollsLeft = 0;
        bool neverClose = false;
        bool wokenWhileRunning = false;
        std::size_t waitingAt = 0; // index in m_waiting while Waiting
        std::uint64_t generation = 0; // counts its waits
    };
    enum class Type : std::uint8_t { PollStart, PollEnd, Spawn, SelfWake, WakeOther, Clone, Drop, DriverWake };
    struct Action {
        std::int64_t at;
        std::uint64_t seq;
        Type type;
        std::uint32_t task;
        int worker;
        std::uint64_t generation;
        bool operator>(const Action& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };

    // splitmix64, not <random>'s distributions: those differ between
    // standard libraries, and the tests' figures must not.
    std::uint64_t next()
    {
        std::uint64_t z = (m_rng += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return uniform() < p; }
    std::int64_t between(std::int64_t lo, std::int64_t hi) { return lo + std::int64_t(next() % std::uint64_t(hi - lo + 1)); }

    void schedule(std::int64_t at, Type type, std::uint32_t task, int worker = -1, std::uint64_t generation = 0)
    {
        m_queue.push(Action{at, m_seq++, type, task, worker, generation});
    }

    void emit(TokioGenEvent::Kind kind, std::uint64_t id, std::int64_t at, bool selfWake = false, std::uint32_t site = 0)
    {
        TokioGenEvent e;
        e.kind = kind;
        e.id = id;
        e.at = std::max(at, m_lastAt + 1); // strictly increasing
        m_lastAt = e.at;
        e.selfWake = selfWake;
        e.site = site;
        m_sink(e);
        if (++m_emitted >= m_options.events)
            m_draining = true;
    }

    TokioGenEvent::Kind wakeKind() { return chance(m_options.byRefChance) ? TokioGenEvent::WakeByRef : TokioGenEvent::Wake; }

    void spawn(std::int64_t at)
    {
        if (m_draining)
            return;
        Task task;
        if (!m_freeIds.empty() && chance(m_options.reuseIdChance)) {
            task.id = m_freeIds.back();
            m_freeIds.pop_back();
        } else {
            task.id = m_nextId++;
        }
        task.pollsLeft = int(between(1, std::max(m_options.maxPolls, 1)));
        task.neverClose = chance(m_options.neverCloseChance);
        const auto site = std::uint32_t(between(0, std::int64_t(TokioGenerator::sites().size()) - 1));
        m_tasks.push_back(task);
        ++m_alive;
        emit(TokioGenEvent::Spawn, task.id, at, false, site);
        m_ready.push_back(std::uint32_t(m_tasks.size() - 1));
        dispatch(at);
    }

    void dispatch(std::int64_t at)
    {
        while (!m_draining && !m_idle.empty() && !m_ready.empty()) {
            const int worker = m_idle.back();
            m_idle.pop_back();
            const std::uint32_t task = m_ready.front();
            m_ready.pop_front();
            schedule(at + between(1'000, 30'000), Type::PollStart, task, worker);
        }
    }

    void makeReady(std::uint32_t t, std::int64_t at)
    {
        Task& task = m_tasks[t];
        // Out of the waiting list: the last one takes its place.
        const std::uint32_t last = m_waiting.back();
        m_waiting[task.waitingAt] = last;
        m_tasks[last].waitingAt = task.waitingAt;
        m_waiting.pop_back();
        task.state = State::Ready;
        m_ready.push_back(t);
        dispatch(at);
    }

    // A wake of `t` from outside its poll: it runs again if it waits, is
    // polled again after this poll if it runs, and is queued already if ready.
    void wake(std::uint32_t t, std::int64_t at)
    {
        Task& task = m_tasks[t];
        emit(wakeKind(), task.id, at, false);
        if (task.state == State::Waiting)
            makeReady(t, at);
        else if (task.state == State::Running)
            task.wokenWhileRunning = true;
    }

    void pollStart(const Action& a)
    {
        Task& task = m_tasks[a.task];
        task.state = State::Running;
        task.wokenWhileRunning = false;
        emit(TokioGenEvent::Enter, task.id, a.at);
        const std::int64_t d = between(2'000, 200'000);
        auto inside = [&] { return a.at + std::int64_t(double(d) * (0.05 + 0.9 * uniform())); };
        if (chance(m_options.spawnChance))
            schedule(inside(), Type::Spawn, a.task);
        if (chance(m_options.selfWakeChance))
            schedule(inside(), Type::SelfWake, a.task);
        if (chance(m_options.wakeOtherChance))
            schedule(inside(), Type::WakeOther, a.task);
        if (chance(m_options.cloneChance)) {
            const std::int64_t first = inside();
            const std::int64_t second = inside();
            schedule(std::min(first, second), Type::Clone, a.task);
            schedule(std::max(first, second), Type::Drop, a.task);
        }
        schedule(a.at + d, Type::PollEnd, a.task, a.worker);
    }

    void pollEnd(const Action& a)
    {
        Task& task = m_tasks[a.task];
        emit(TokioGenEvent::Exit, task.id, a.at);
        --task.pollsLeft;
        m_idle.push_back(a.worker);
        if (task.pollsLeft <= 0 && !task.neverClose) {
            emit(TokioGenEvent::Close, task.id, a.at + 1);
            task.state = State::Done;
            m_freeIds.push_back(task.id);
            --m_alive;
            // The runtime never runs dry: spawn from outside to keep going.
            if (m_alive < std::uint64_t(m_options.rootTasks))
                spawn(a.at + 500);
        } else if (task.wokenWhileRunning) {
            task.state = State::Ready;
            m_ready.push_back(a.task);
        } else {
            task.state = State::Waiting;
            task.waitingAt = m_waiting.size();
            m_waiting.push_back(a.task);
            ++task.generation;
            if (!m_draining)
                schedule(a.at + between(10'000, 2'000'000), Type::DriverWake, a.task, -1, task.generation);
        }
        dispatch(a.at);
    }

    void handle(const Action& a)
    {
        Task& task = m_tasks[a.task];
        switch (a.type) {
        case Type::PollStart:
            pollStart(a);
            break;
        case Type::PollEnd:
            pollEnd(a);
            break;
        case Type::Spawn:
            spawn(a.at);
            break;
        case Type::SelfWake:
            emit(wakeKind(), task.id, a.at, true);
            task.wokenWhileRunning = true;
            break;
        case Type::WakeOther:
            if (!m_waiting.empty())
                wake(m_waiting[std::size_t(between(0, std::int64_t(m_waiting.size()) - 1))], a.at);
            break;
        case Type::Clone:
            emit(TokioGenEvent::Clone, task.id, a.at);
            break;
        case Type::Drop:
            emit(TokioGenEvent::Drop, task.id, a.at);
            break;
        case Type::DriverWake:
            // A wake that finds the task ready or running again (another
            // task woke it first) is kept: a second wake before one poll,
            // or a wake during one. A closed task's id may name another.
            if (m_draining || task.state == State::Done)
                break;
            wake(a.task, a.at);
            if (chance(m_options.outsideSpawnChance))
                spawn(m_lastAt + 1);
            break;
        }
    }

    const TokioGenOptions& m_options;
    const TokioGenerator::Sink& m_sink;
    std::uint64_t m_rng;
    std::priority_queue<Action, std::vector<Action>, std::greater<Action>> m_queue;
    std::vector<Task> m_tasks;
    std::deque<std::uint32_t> m_ready;
    std::vector<std::uint32_t> m_waiting;
    std::vector<int> m_idle;
    std::vector<std::uint64_t> m_freeIds;
    std::uint64_t m_nextId = 1;
    std::uint64_t m_alive = 0;
    std::uint64_t m_seq = 0;
    std::uint64_t m_emitted = 0;
    std::int64_t m_lastAt = 0;
    bool m_draining = false;
};

void appendTime(std::string& out, std::int64_t at)
{
    out += "{\"secs_since_epoch\":";
    out += std::to_string(at / 1'000'000'000);
    out += ",\"nanos_since_epoch\":";
    out += std::to_string(at % 1'000'000'000);
    out += '}';
}

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

void appendField(std::string& out, std::string_view name, std::string_view value)
{
    out += "{\"name\":";
    appendJsonString(out, name);
    out += ",\"value\":";
    appendJsonString(out, value);
    out += "},";
}

} // namespace

const std::vector<TokioGenSite>& TokioGenerator::sites()
{
    static const std::vector<TokioGenSite> sites{
        {"accept loop", "src/server.rs:40:9", "", 0, "task", "accept loop"},
        {"", "src/conn.rs:88:13", "", 0, "task", "src/conn.rs:88"},
        {"", "", "src/legacy.rs", 7, "task", "src/legacy.rs:7"},
        {"", "src/io.rs:12:5", "", 0, "blocking", "src/io.rs:12 [blocking]"},
        {"flush \"journal\"", "src/journal.rs:5:1", "", 0, "local", "flush \"journal\" [local]"},
        {"", "", "", 0, "task", "(unnamed task)"},
    };
    return sites;
}

void TokioGenerator::generate(const TokioGenOptions& options, const Sink& sink)
{
    Simulation(options, sink).run();
}

void TokioGenerator::appendLine(std::string& out, const TokioGenEvent& e)
{
    static constexpr const char* tags[] = {"Spawn", "Enter", "Exit", "Close"};
    if (e.kind <= TokioGenEvent::Close) {
        out += "{\"";
        out += tags[e.kind];
        out += "\":{\"id\":";
        out += std::to_string(e.id);
        out += ",\"at\":";
        appendTime(out, e.at);
        if (e.kind == TokioGenEvent::Spawn) {
            const TokioGenSite& site = sites()[e.site];
            out += ",\"fields\":[";
            appendField(out, "kind", site.kind);
            if (*site.name)
                appendField(out, "task.name", site.name);
            if (*site.location)
                appendField(out, "spawn.location", site.location);
            if (*site.locFile) {
                appendField(out, "loc.file", site.locFile);
                out += "{\"name\":\"loc.line\",\"value\":" + std::to_string(site.locLine) + "},";
            }
            out += "{\"name\":\"task.id\",\"value\":" + std::to_string(e.id) + "}]";
        }
        out += "}}";
        return;
    }
    out += "{\"Waker\":{\"id\":";
    out += std::to_string(e.id);
    out += ",\"op\":";
    if (e.kind == TokioGenEvent::Clone)
        out += "\"Clone\"";
    else if (e.kind == TokioGenEvent::Drop)
        out += "\"Drop\"";
    else
        out += std::string(e.kind == TokioGenEvent::Wake ? "{\"Wake\"" : "{\"WakeByRef\"") + ":{\"self_wake\":"
            + (e.selfWake ? "true" : "false") + "}}";
    out += ",\"at\":";
    appendTime(out, e.at);
    out += "}}";
}

std::string TokioGenerator::recording(const TokioGenOptions& options, std::vector<TokioGenEvent>* events)
{
    std::string text = "{\"v\":1}\n";
    std::size_t lastLine = 0;
    generate(options, [&](const TokioGenEvent& e) {
        lastLine = text.size();
        appendLine(text, e);
        text += '\n';
        if (events)
            events->push_back(e);
    });
    if (options.cutLastLine && lastLine > 0) {
        // Half of the last line, never its closing braces.
        text.resize(lastLine + (text.size() - 1 - lastLine) / 2);
        if (events)
            events->pop_back();
    }
    return text;
}

} // namespace runlane::test
