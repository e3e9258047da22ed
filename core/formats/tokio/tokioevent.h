#pragma once

#include "profiletypes.h"

#include <cstdint>
#include <string>

namespace runlane {

// One line of a tokio-console recording (console-subscriber's record.rs),
// as TokioLineParser reads it: `{"Spawn":{"id":N,"at":T,"fields":[...]}}`,
// `Enter`, `Exit`, `Close`, or `{"Waker":{"id":N,"op":OP,"at":T}}`.
struct TokioEvent {
    enum class Kind : std::uint8_t { Spawn, Enter, Exit, Close, Waker, Unknown };
    enum class WakerOp : std::uint8_t { Wake, WakeByRef, Clone, Drop };

    Kind kind = Kind::Unknown;
    std::uint64_t id = 0;
    Time at = 0; // ns since the epoch
    // Waker only:
    WakerOp op = WakerOp::Wake;
    bool selfWake = false;
    // Spawn only: the fields Runlane uses (empty when absent).
    std::string name; // `task.name`
    std::string taskKind; // `kind`: "task", "blocking", "local", ...
    std::string location; // `spawn.location`: "file:line:col"
    std::string locFile; // `loc.file` (older tokio)
    std::int64_t locLine = 0; // `loc.line`, 0 when absent
    // Unknown only: the tag, for the count of skipped events.
    std::string tag;
};

} // namespace runlane
