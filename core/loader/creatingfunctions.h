#pragma once

#include "profiletypes.h"

#include <cstddef>

namespace runlane {

class ProfileBuilder;

// Names the function that created each task, from a sampled profile of the
// same run added to a trace whose tasks are labelled by kind only (Node's
// async resources: "Timeout", "PROMISE"; ProfileBuilder::
// tasksNameTheirCreator). A task on a thread becomes "<kind> · <function>"
// with the function's file and line, the function being the innermost
// frame of the thread's sampled stack at the task's creation that is the
// program's own code (a file that is not Node's `node:` internals); when the
// stack holds none, its innermost frame that is neither a V8 pseudo-frame
// ("(program)", "(idle)", "(garbage collector)", "(root)") nor Node's
// async_hooks machinery (the tracing hook itself runs at every init). A task
// created while no frame was sampled, or only those, keeps its label.
//
// What this can and cannot say: a sampled stack holds from one sample to
// the next (Node's default interval 1 ms, `--cpu-prof-interval`), so the
// function is the one the profiler saw then: exact for code that ran for
// several samples, a guess for a short function between two samples.
class CreatingFunctions
{
public:
    // Relabels the tasks before the build; returns how many were named.
    static std::size_t apply(ProfileBuilder& builder);
};

} // namespace runlane
