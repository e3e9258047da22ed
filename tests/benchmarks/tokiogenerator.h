#pragma once

// Seeded tokio-console recordings with known answers, for the tests and the
// benchmark: a small discrete-event simulation of a tokio runtime with N
// workers (1: the current-thread runtime, polls never overlap; more: polls
// overlap as on the multi-threaded one). Tasks are spawned from outside any
// task and from polls, polled FIFO by idle workers after a pick-up latency,
// wake themselves from a poll (self-wake), are woken by an "I/O driver"
// (Wake or WakeByRef) or by another task's poll, clone and drop wakers, and
// close after their last poll; some never close, and those still alive when
// the event budget is spent stay unclosed. Every event the recording holds
// is also handed over as a TokioGenEvent, so a test can compute the
// expected figures from the events themselves. Times are strictly
// increasing, so the order of the file is that of time.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace runlane::test {

struct TokioGenOptions {
    std::uint64_t seed = 1;
    int workers = 1;
    // About this many events; then nothing new starts and the polls under
    // way end.
    std::uint64_t events = 2000;
    int rootTasks = 3; // spawned from outside at the start
    double spawnChance = 0.15; // per poll, of spawning a task
    double outsideSpawnChance = 0.02; // per driver wake, of a spawn from outside
    double selfWakeChance = 0.25; // per poll, of waking itself (then polled again)
    double wakeOtherChance = 0.2; // per poll, of waking another waiting task
    double byRefChance = 0.4; // of a wake being WakeByRef
    double cloneChance = 0.3; // per poll, of a waker Clone (and a Drop later)
    double neverCloseChance = 0.1; // of a task that is polled until the end
    double reuseIdChance = 0.3; // of a spawn taking the id of a closed task
    int maxPolls = 6;
    // Cut the text inside its last line, as a killed recorder leaves it.
    bool cutLastLine = false;
};

struct TokioGenEvent {
    enum Kind : std::uint8_t { Spawn, Enter, Exit, Close, Wake, WakeByRef, Clone, Drop };
    Kind kind = Spawn;
    bool selfWake = false;
    std::uint32_t site = 0; // Spawn: index into TokioGenerator::sites()
    std::uint64_t id = 0;
    std::int64_t at = 0; // ns since the epoch
};

// A place tasks are spawned from, and the label Runlane gives them.
struct TokioGenSite {
    const char* name; // task.name; "" for none
    const char* location; // spawn.location; "" for loc.file / loc.line
    const char* locFile;
    int locLine;
    const char* kind;
    const char* expectedLabel;
};

class TokioGenerator
{
public:
    using Sink = std::function<void(const TokioGenEvent&)>;

    static const std::vector<TokioGenSite>& sites();
    // Runs the simulation; `sink` gets every event in the file's order.
    static void generate(const TokioGenOptions& options, const Sink& sink);
    // One line of the recording, without its newline.
    static void appendLine(std::string& out, const TokioGenEvent& event);
    // The whole recording (header included); `events` gets what it holds,
    // the cut last event left out.
    static std::string recording(const TokioGenOptions& options, std::vector<TokioGenEvent>* events = nullptr);
};

} // namespace runlane::test
