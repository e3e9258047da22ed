#pragma once

#include "chromeevent.h"
#include "profilebuilder.h"
#include "sampletree.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace runlane {

// The V8 CPU profile samples inside a Chrome trace (formats.md (f)): a
// `Profile` event starts a profile (its `id`, `startTime`), `ProfileChunk`
// events with the same id bring nodes (linked by `parent`) and samples with
// their time deltas, incrementally; Chrome ≤ 66 wrote one `CpuProfile`
// event instead (nodes linked by `children`). Each profile becomes a
// Samples track of the thread that recorded it, on the trace's clock, so a
// JavaScript function's boxes sit under the slice that ran it. Its last
// sample lasts the profile's median interval, never past its endTime
// (v8samples::SampleClock::lastSampleEnd).
//
// A malformed profile event is skipped with a warning: the samples are one
// part of a trace, and the rest of it stays readable.
class ChromeSampleCollector
{
public:
    explicit ChromeSampleCollector(ProfileBuilder& builder);

    // An event whose name is one of ChromeEvent::isProfileName.
    void add(const ChromeEvent& e, std::int64_t pid, std::int64_t tid, std::uint64_t index);
    // Builds the tracks; before the trace's metadata names them.
    void finish();

private:
    struct Node {
        std::int64_t id = 0;
        std::optional<std::int64_t> parent;
        std::vector<std::int64_t> children;
        LabelId label = 0;
    };
    struct Profile {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        std::optional<Time> start;
        std::optional<Time> end;
        std::unique_ptr<SampleTree> tree; // the nodes, as chunks bring them
        // Times count from the start, which may come last: kept as deltas.
        std::vector<std::int64_t> samples;
        std::vector<Time> deltas;
    };
    Profile& profile(const ChromeEvent& e, std::int64_t pid, std::int64_t tid);
    void warn(const ChromeEvent& e, std::uint64_t index, const std::string& problem);

    ProfileBuilder& m_builder;
    std::map<std::pair<std::int64_t, std::string>, std::size_t> m_index; // (pid, id) -> profile
    std::vector<Profile> m_profiles;
};

} // namespace runlane
