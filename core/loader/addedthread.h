#pragma once

#include "chunkedfilereader.h"
#include "profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace runlane {

class ProfileBuilder;

// Which thread of a trace an added CPU profile belongs to. A V8 CPU profile
// names no thread; a trace of the same run has several (Node's main thread,
// its platform workers; a renderer's main thread among a browser's). The
// candidates are the trace's threads; the default is its main JavaScript
// thread:
//   1. a thread named CrRendererMain (DevTools) or JavaScriptMainThread
//      (node --trace-events-enabled);
//   2. else the thread whose tid is its pid (a process's first thread);
//   3. else the thread with the most intervals;
// ties go to the lowest (pid, tid).
class AddedThread
{
public:
    struct Candidate {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        std::string name; // the thread's track name, "node / JavaScriptMainThread"
        std::string threadName; // as the trace names it ("" if it does not)
        std::size_t intervals = 0; // on its traced (Thread) track
        bool isDefault = false;
    };

    // A loaded profile's threads (those with a traced track), in track order, the default marked: for
    // a picker, with no second load. Empty when it has no threads.
    static std::vector<Candidate> candidates(const Profile& profile);
    // The same, from a builder the trace was read into, before its build.
    static std::vector<Candidate> candidates(ProfileBuilder& builder);
    // The default among `candidates` (see the class comment); null if none.
    static const Candidate* pick(const std::vector<Candidate>& candidates);
    // The candidate with these ids; null if the trace has no such thread.
    static const Candidate* find(const std::vector<Candidate>& candidates, ProfileAddition::Thread thread);
    // "19372:19372 JavaScriptMainThread, 19372:19373 PlatformWorkerThread, …"
    // for an error that says which threads there are.
    static std::string list(const std::vector<Candidate>& candidates);

    // The names that mark a main JavaScript thread.
    static bool isMainThreadName(std::string_view name);
};

} // namespace runlane
