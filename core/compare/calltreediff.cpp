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

double medianPadded(std::vector<double> values, std::size_t runs)
{
    values.resize(std::max(values.size(), runs), 0.0);
    return Statistics::median(std::move(values));
}

} // namespace

CallTreeDiff CallTreeDiff::compute(const Profile& next, const CallTree& nextTree, const std::vector<Base>& bases,
                                   RunSet::Match match)
{
    CallTreeDiff diff;
    diff.m_baseRuns = bases.size();
    diff.m_paths.resize(nextTree.nodeCount());
    const std::vector<std::string> nextTracks = trackNames(next);
    const std::vector<std::uint64_t> nextHashes = pathHashes(next, nextTree, nextTracks, match);
    std::unordered_map<std::uint64_t, std::uint32_t> nextNodes;
    nextNodes.reserve(nextHashes.size());
    for (std::uint32_t n = 0; n < nextHashes.size(); ++n)
        nextNodes.emplace(nextHashes[n], n);

    // Per new node, each base run's self and total (runs without it: none).
    std::vector<std::vector<double>> selves(nextTree.nodeCount());
    std::vector<std::vector<double>> totals(nextTree.nodeCount());
    struct Gone {
        Removed removed;
        std::vector<double> selves;
        std::vector<double> totals;
        std::uint64_t parent = 0; // the parent path's hash, 0 for a root
    };
    std::unordered_map<std::uint64_t, Gone> gone;
    for (const Base& base : bases) {
        const Profile& profile = *base.profile;
        const CallTree& tree = *base.tree;
        const std::vector<std::string> names = matchedTrackNames(profile, nextTracks);
        const std::vector<std::uint64_t> hashes = pathHashes(profile, tree, names, match);
        for (std::uint32_t n = 0; n < tree.nodeCount(); ++n) {
            const CallTree::Node& node = tree.node(n);
            const auto it = nextNodes.find(hashes[n]);
            if (it != nextNodes.end()) {
                selves[it->second].push_back(double(node.self));
                totals[it->second].push_back(double(node.total));
                continue;
            }
            auto [g, added] = gone.try_emplace(hashes[n]);
            if (added) {
                g->second.removed.track = names[node.track];
                for (std::uint32_t a = n; a != kNone; a = tree.node(a).parent)
                    g->second.removed.labels.emplace_back(profile.labelName(tree.node(a).label));
                std::reverse(g->second.removed.labels.begin(), g->second.removed.labels.end());
                g->second.parent = node.parent == kNone ? 0 : hashes[node.parent];
            }
            g->second.selves.push_back(double(node.self));
            g->second.totals.push_back(double(node.total));
        }
    }
    for (std::uint32_t n = 0; n < nextTree.nodeCount(); ++n) {
        Path& path = diff.m_paths[n];
        path.baseRuns = std::uint32_t(selves[n].size());
        path.baseSelf = medianPadded(std::move(selves[n]), bases.size());
        path.baseTotal = medianPadded(std::move(totals[n]), bases.size());
    }
    for (auto& [hash, g] : gone) {
        g.removed.baseRuns = std::uint32_t(g.selves.size());
        g.removed.baseSelf = medianPadded(std::move(g.selves), bases.size());
        g.removed.baseTotal = medianPadded(std::move(g.totals), bases.size());
        g.removed.parentRemoved = g.parent != 0 && gone.count(g.parent) != 0;
        diff.m_removed.push_back(std::move(g.removed));
    }
    std::sort(diff.m_removed.begin(), diff.m_removed.end(), [](const Removed& a, const Removed& b) {
        if (a.baseTotal != b.baseTotal)
            return a.baseTotal > b.baseTotal;
        return std::tie(a.track, a.labels) < std::tie(b.track, b.labels);
    });
    return diff;
}

} // namespace runlane
