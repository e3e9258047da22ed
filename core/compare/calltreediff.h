#pragma once

#include "calltree.h"
#include "runset.h"

#include <memory>
#include <string>
#include <vector>

namespace runlane {

// The differential flame graph's numbers (README "Compare in the viewer"):
// each call path of the new profile's call tree (semantics.md §7) matched
// with the same path in every base run, and the paths of the base runs that
// the new profile no longer has. A path is its track's name and the labels
// from the root down, each label as the comparison matches labels (name,
// file and line, or the name alone with RunSet::Match::Name). Self and
// total times are per run totals; a base figure is the median over the
// base runs, a run without the path counting 0 — never an averaged
// timeline, only per-path figures.
class CallTreeDiff
{
public:
    struct Base {
        std::shared_ptr<const Profile> profile;
        std::shared_ptr<const CallTree> tree;
    };
    // Per node of the new tree, by node id.
    struct Path {
        double baseSelf = 0; // median over the base runs
        double baseTotal = 0;
        std::uint32_t baseRuns = 0; // base runs that have the path
    };
    // A path of the base runs that the new profile does not have.
    struct Removed {
        std::string track;
        std::vector<std::string> labels; // root first, as shown
        double baseSelf = 0; // medians over the base runs
        double baseTotal = 0;
        std::uint32_t baseRuns = 0;
        bool parentRemoved = false; // its parent path is gone too
    };

    static CallTreeDiff compute(const Profile& next, const CallTree& nextTree, const std::vector<Base>& bases,
                                RunSet::Match match = RunSet::Match::NameFileLine);

    std::size_t baseRunCount() const { return m_baseRuns; }
    const Path& path(std::uint32_t node) const { return m_paths[node]; }
    std::size_t pathCount() const { return m_paths.size(); }
    bool isNew(std::uint32_t node) const { return m_paths[node].baseRuns == 0; }
    // Largest base total first.
    const std::vector<Removed>& removed() const { return m_removed; }

private:
    std::vector<Path> m_paths;
    std::vector<Removed> m_removed;
    std::size_t m_baseRuns = 0;
};

} // namespace runlane
