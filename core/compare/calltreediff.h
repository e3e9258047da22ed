#pragma once

#include "calltree.h"
#include "runset.h"

#include <memory>
#include <string>
#include <vector>

namespace runlane {

// The differential flame graph's numbers (docs/compare.md, "Compare in the viewer"):
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
    // A path of the base runs that the new profile does not have: where
    // it is in the first base run that has it (its names are read from
    // there on demand: two unrelated profiles can differ in a million
    // paths, whose names are not worth holding).
    struct Removed {
        std::uint32_t run = 0; // index into the bases
        std::uint32_t node = 0; // in that run's call tree
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
    // A removed path's track name and labels, root first, as shown.
    std::string trackOf(const Removed& removed) const;
    std::vector<std::string> labelsOf(const Removed& removed) const;

private:
    std::vector<Path> m_paths;
    std::vector<Removed> m_removed;
    std::vector<Base> m_bases; // what removed paths refer to
    std::vector<std::vector<std::string>> m_baseTrackNames;
    std::size_t m_baseRuns = 0;
};

} // namespace runlane
