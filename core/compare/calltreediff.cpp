#include "calltreediff.h"

#include "statistics.h"
#include "texthash.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace runlane {

namespace {

// A path as a 64-bit hash chain: (parent's hash, the label's key). Strings
// of whole paths would cost depth × name bytes per node of a deep tree; a
// collision of two 64-bit hashes among a million paths has a chance of
// about 3e-8.
std::uint64_t chain(std::uint64_t parent, std::uint64_t label)
{
    std::uint64_t h = parent ^ (label + 0x9E3779B97F4A7C15ull + (parent << 6) + (parent >> 2));
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 33);
}

std::uint64_t labelHash(const Profile& profile, LabelId id, RunSet::Match match)
{
    std::uint64_t h = hashText(profile.labelName(id));
    if (match == RunSet::Match::NameFileLine) {
        const Label& label = profile.label(id);
        h = chain(h, hashText(profile.string(label.file)));
        h = chain(h, std::uint64_t(std::uint32_t(label.line)));
    }
    return h;
}

// Per node of `tree`, the hash of its path; tracks are keyed by the names
// `trackNames` gives (a base run's tracks take the new profile's names).
std::vector<std::uint64_t> pathHashes(const Profile& profile, const CallTree& tree,
                                      const std::vector<std::string>& trackNames, RunSet::Match match)
{
    std::vector<std::uint64_t> hashes(tree.nodeCount());
    std::unordered_map<LabelId, std::uint64_t> labels;
    // A parent is always created before its children (CallTree merges
    // shallow rows first), so its hash is ready when a child asks.
    for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
        const CallTree::Node& node = tree.node(n);
        auto it = labels.find(node.label);
        if (it == labels.end())
            it = labels.emplace(node.label, labelHash(profile, node.label, match)).first;
        const std::uint64_t parent = node.parent == kNone ? hashText(trackNames[node.track]) : hashes[node.parent];
        hashes[n] = chain(parent, it->second);
    }
    return hashes;
}

std::vector<std::string> trackNames(const Profile& profile)
{
    std::vector<std::string> names;
    for (const Track& track : profile.tracks())
        names.emplace_back(profile.string(track.name));
    return names;
}

// A base run's tracks named as the new profile's: by name, and where no
// name matches but both have as many tracks (thread ids differ from run to
// run), by position.
std::vector<std::string> matchedTrackNames(const Profile& base, const std::vector<std::string>& next)
{
    std::vector<std::string> names = trackNames(base);
    const std::unordered_set<std::string> known(next.begin(), next.end());
    const bool anyKnown = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return known.count(n) != 0; });
    if (!anyKnown && names.size() == next.size())
        return next;
    return names;
}

} // namespace

CallTreeDiff CallTreeDiff::compute(const Profile& next, const CallTree& nextTree, const std::vector<Base>& bases,
                                   RunSet::Match match)
{
    CallTreeDiff diff;
    const std::size_t runs = bases.size();
    diff.m_baseRuns = runs;
    diff.m_bases = bases;
    diff.m_paths.resize(nextTree.nodeCount());
    const std::vector<std::string> nextTracks = trackNames(next);
    const std::vector<std::uint64_t> nextHashes = pathHashes(next, nextTree, nextTracks, match);
    std::unordered_map<std::uint64_t, std::uint32_t> nextNodes;
    nextNodes.reserve(nextHashes.size());
    for (std::uint32_t n = 0; n < nextHashes.size(); ++n)
        nextNodes.emplace(nextHashes[n], n);

    // Per path and base run, its self and total (0 where the run lacks it):
    // flat arrays, a row of `runs` per path, since a million paths of
    // small vectors would cost more in allocations than in the work.
    std::vector<double> selves(nextTree.nodeCount() * runs, 0.0);
    std::vector<double> totals(nextTree.nodeCount() * runs, 0.0);
    std::vector<double> goneSelves;
    std::vector<double> goneTotals;
    std::vector<std::uint64_t> goneParents; // the parent path's hash, 0 for a root
    std::unordered_map<std::uint64_t, std::uint32_t> gone; // path hash -> index into m_removed
    for (std::size_t r = 0; r < runs; ++r) {
        const Profile& profile = *bases[r].profile;
        const CallTree& tree = *bases[r].tree;
        diff.m_baseTrackNames.push_back(matchedTrackNames(profile, nextTracks));
        const std::vector<std::uint64_t> hashes = pathHashes(profile, tree, diff.m_baseTrackNames.back(), match);
        for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
            const CallTree::Node& node = tree.node(n);
            if (const auto it = nextNodes.find(hashes[n]); it != nextNodes.end()) {
                Path& path = diff.m_paths[it->second];
                ++path.baseRuns;
                selves[it->second * runs + r] = double(node.self);
                totals[it->second * runs + r] = double(node.total);
                continue;
            }
            auto [g, added] = gone.try_emplace(hashes[n], std::uint32_t(diff.m_removed.size()));
            if (added) {
                diff.m_removed.push_back(Removed{std::uint32_t(r), n, 0, 0, 0, false});
                goneSelves.resize(goneSelves.size() + runs, 0.0);
                goneTotals.resize(goneTotals.size() + runs, 0.0);
                goneParents.push_back(node.parent == kNone ? 0 : hashes[node.parent]);
            }
            Removed& removed = diff.m_removed[g->second];
            ++removed.baseRuns;
            goneSelves[std::size_t(g->second) * runs + r] = double(node.self);
            goneTotals[std::size_t(g->second) * runs + r] = double(node.total);
        }
    }
    std::vector<double> row(runs);
    const auto medianOf = [&](const std::vector<double>& values, std::size_t at) {
        if (runs == 0)
            return 0.0;
        std::copy(values.begin() + std::ptrdiff_t(at * runs), values.begin() + std::ptrdiff_t((at + 1) * runs), row.begin());
        return Statistics::median(row);
    };
    for (std::uint32_t n = 0; n < nextTree.nodeCount(); ++n) {
        Path& path = diff.m_paths[n];
        path.baseSelf = medianOf(selves, n);
        path.baseTotal = medianOf(totals, n);
    }
    for (std::size_t i = 0; i < diff.m_removed.size(); ++i) {
        Removed& removed = diff.m_removed[i];
        removed.baseSelf = medianOf(goneSelves, i);
        removed.baseTotal = medianOf(goneTotals, i);
        removed.parentRemoved = goneParents[i] != 0 && gone.count(goneParents[i]) != 0;
    }
    std::sort(diff.m_removed.begin(), diff.m_removed.end(), [](const Removed& a, const Removed& b) {
        if (a.baseTotal != b.baseTotal)
            return a.baseTotal > b.baseTotal;
        return std::tie(a.run, a.node) < std::tie(b.run, b.node);
    });
    return diff;
}

std::string CallTreeDiff::trackOf(const Removed& removed) const
{
    const CallTree& tree = *m_bases[removed.run].tree;
    return m_baseTrackNames[removed.run][tree.node(removed.node).track];
}

std::vector<std::string> CallTreeDiff::labelsOf(const Removed& removed) const
{
    const Profile& profile = *m_bases[removed.run].profile;
    const CallTree& tree = *m_bases[removed.run].tree;
    std::vector<std::string> labels;
    for (std::uint32_t a = removed.node; a != kNone; a = tree.node(a).parent)
        labels.emplace_back(profile.labelName(tree.node(a).label));
    std::reverse(labels.begin(), labels.end());
    return labels;
}

} // namespace runlane
