#pragma once

// The plain value types of the Runlane model (semantics.md §1). They are kept
// small and trivially copyable because a large trace holds millions of them:
// an Interval is 24 bytes and a Measurement 32, so a synchronous call (one of
// each) costs 56 bytes plus its share of the interned strings.

#include <cstdint>
#include <limits>
#include <string_view>

namespace runlane {

using Time = std::int64_t; // nanoseconds
using StringId = std::uint32_t;
using LabelId = std::uint32_t;
using TrackId = std::uint32_t;
using MeasurementId = std::uint32_t;
using IntervalId = std::uint32_t;

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// The empty string is always interned first, so "no file" is StringId 0.
inline constexpr StringId kEmptyString = 0;
inline constexpr Time kTimeMax = std::numeric_limits<Time>::max();
inline constexpr Time kTimeMin = std::numeric_limits<Time>::min();

// a + b, held at kTimeMax or kTimeMin instead of overflowing. For sums of
// durations that may add up beyond the profile's span (the exec of a label
// on many threads, walls of a million open tasks): a profile may span
// almost 292 years, and two such durations already overflow.
inline Time addClamped(Time a, Time b)
{
    Time sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? kTimeMax : kTimeMin;
    return sum;
}

enum class FinalState : std::uint8_t {
    Completed,
    Failed,
    Cancelled,
    Ended, // finished, the format gives no detail (Enso `E`)
    Unfinished, // still open when the profile ends
};

std::string_view finalStateName(FinalState state);
// Parses the names produced by finalStateName (case-insensitive); false if unknown.
bool parseFinalState(std::string_view text, FinalState& state);

enum class TrackKind : std::uint8_t {
    // An event loop or thread: one running stack, so intervals nest by time and
    // the exec times of everything on it add up to its busy time.
    Thread,
    // Concurrent async slices (Chrome `b/e`): tasks overlap each other; each
    // task nests only within itself and tasks are packed into rows.
    Async,
    // A sampling profiler's view of a thread (V8 CPU profile samples, perf,
    // Firefox): one stack, nested by time like Thread, but derived from
    // samples. Kept apart from the same thread's traced slices (Thread),
    // never mixed into one row, and listed right after them.
    Samples,
};

enum MeasurementFlag : std::uint8_t {
    // Internal to the storage layout: intervalRef is the interval itself.
    SingleInterval = 1u << 0,
    // Shown as a task lane (semantics.md §7).
    AsyncMeasurement = 1u << 1,
    // Finished as it was created, never pending nor running (Chronos:
    // the first event of the future is its finish; "stillborn").
    BornFinished = 1u << 2,
    // A synchronous call (ProfileBuilder::addCall): created and started at
    // once, one interval. It cannot outlive the interval it is nested in on
    // its thread, so the builder cuts it there (semantics.md §4: a call's
    // time with children is its duration).
    Call = 1u << 3,
    // The format cannot tell who created it, and says so rather than
    // guessing: creator is kNone although the measurement may have had one
    // (a tokio task spawned while several tasks were polled at once on a
    // multi-threaded runtime). The details say "creator unknown".
    CreatorUnknown = 1u << 4,
};

// What the profile's values measure. Time is in nanoseconds; other values
// are fixed-point with kTicksPerUnit ticks per unit, so that fractional sample
// counts and weights stay exact in the same int64 arithmetic.
enum class ValueUnit : std::uint8_t { Nanoseconds, Samples, Bytes, None };
inline constexpr Time kTicksPerUnit = 1000;

struct Label {
    StringId name = kEmptyString;
    StringId file = kEmptyString;
    std::int32_t line = 0; // 0 = unknown
};

struct Interval {
    Time start = 0;
    Time end = 0; // exclusive
    MeasurementId measurement = kNone;
    IntervalId parent = kNone; // enclosing interval on the same track
};
static_assert(sizeof(Interval) == 24, "Interval must stay compact");

struct Measurement {
    Time created = 0;
    Time finished = 0; // profile end for unfinished measurements
    LabelId label = 0;
    MeasurementId creator = kNone;
    // SingleInterval: the interval's id; otherwise an offset into the
    // profile's list storage, which holds the count followed by the ids.
    std::uint32_t intervalRef = 0;
    std::uint32_t track : 24 = 0;
    std::uint32_t state : 3 = 0;
    std::uint32_t flags : 5 = 0;

    FinalState finalState() const { return static_cast<FinalState>(state); }
    bool isAsync() const { return (flags & AsyncMeasurement) != 0; }
    bool isBornFinished() const { return (flags & BornFinished) != 0; }
    bool operator==(const Measurement&) const = default;
};
static_assert(sizeof(Measurement) == 32, "Measurement must stay compact");

inline constexpr std::uint32_t kMaxTracks = (1u << 24) - 1;

// "Because of whom": the interval `from` caused the work of the interval
// `to`, usually on another thread (Chrome flow events, semantics.md §8).
struct Flow {
    IntervalId from = kNone;
    IntervalId to = kNone;
    StringId name = kEmptyString; // the flow's own name, if the format gives one
};

// A wake of an async task (tokio's waker ops `Wake` and `WakeByRef`): the
// task is made ready to be polled again. Kept per task in time order
// (Profile::wakesOf); the scheduling delay is the time from a wake to the
// task's next poll (SchedulingDelays, core/analysis).
struct Wake {
    enum Flag : std::uint8_t {
        SelfWake = 1u << 0, // woken from inside its own poll
        ByRef = 1u << 1, // `wake_by_ref` (the waker was kept), else `wake`
        // Not in the file but inferred from it: a Chronos future's child
        // ended while it was paused (ChronosLogBuilder).
        Inferred = 1u << 2,
    };
    Time time = 0;
    MeasurementId task = kNone;
    std::uint8_t flags = 0;

    bool isSelfWake() const { return (flags & SelfWake) != 0; }
    bool isByRef() const { return (flags & ByRef) != 0; }
    bool isInferred() const { return (flags & Inferred) != 0; }
};

// Who made a paused task ready again (semantics.md §9 "Other formats"): a
// fact of the format that read the profile, set by its reader, which the
// critical path's walk follows.
enum class WakeSource : std::uint8_t {
    // The format records none: gaps are waiting, the time before the first
    // run queued (speedscope, .cpuprofile, perf, …).
    None,
    // Chronos and Enso: the child that finished latest in the gap.
    Children,
    // tokio: the task's first wake in the gap, by the task polled then.
    Wakes,
    // Chrome (and Perfetto): a slice's incoming flow, from its source.
    Flows,
    // Node.js async_hooks: a resource's creator, for its first callback.
    Creators,
};

enum class MarkScope : std::uint8_t { Thread, Process, Global };

// An instant: Chrome `i/I/R/n`, Enso `X` metadata.
struct Mark {
    Time time = 0;
    TrackId track = kNone; // kNone for process- and global-scoped marks
    std::int64_t pid = 0;
    StringId name = kEmptyString;
    StringId detail = kEmptyString; // payload text, e.g. Enso metadata JSON
    MarkScope scope = MarkScope::Thread;
};

} // namespace runlane
