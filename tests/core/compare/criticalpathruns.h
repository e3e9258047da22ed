#pragma once

// Runs of criticalpathworkload.h loaded as CriticalPathComparison reads
// them, for the comparison's text and viewer tests: one base as generated
// against a new run with its waker's time at `percent` and its blocker
// named `blocker`.

#include "core/compare/criticalpathworkload.h"
#include "criticalpathcomparison.h"
#include "testsupport.h"

#include <memory>
#include <string>
#include <vector>

namespace runlane::test {

struct CriticalPathRuns {
    // What the comparison's runs point into.
    std::vector<std::shared_ptr<const Profile>> profiles;
    std::vector<std::unique_ptr<CriticalPathSummary>> summaries;

    // The workload's `handler` tasks as one run.
    CriticalPathComparison::Run runOf(const CriticalPathWorkload& workload)
    {
        LoadResult r = loadText(workload.log());
        if (!r.ok())
            qFatal("the generated log does not load: %s", r.error.toString().c_str());
        const Profile& p = *r.profile;
        const LabelId handler = labelNamed(p, "handler");
        const CriticalPath path(p, CriticalPath::sourceOf(p));
        summaries.push_back(std::make_unique<CriticalPathSummary>(
            CriticalPathSummary::compute(path, CriticalPathSummary::tasksOf(p, std::span(&handler, 1)), false)));
        profiles.push_back(r.profile);
        return {profiles.back().get(), summaries.back().get(), CriticalPathComparison::busyOf(p), "run"};
    }

    CriticalPathComparison compare(int percent, const std::string& blocker = CriticalPathWorkload().blocker)
    {
        CriticalPathWorkload next;
        next.percent = percent;
        next.blocker = blocker;
        const auto base = runOf({});
        return CriticalPathComparison::compute({base}, {runOf(next)}, CompareOptions{});
    }
};

} // namespace runlane::test
