#pragma once

#include "profilebuilder.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace runlane {

// A sampling profiler's call tree and its timed samples, for one track:
// nodes link to their parent (V8 CPU profiles, Firefox stack tables), each
// sample names its leaf node and when it was taken. Readers feed it as they
// parse; finish() lays the samples out on a track in time order
// (SampleStackLayout): consecutive samples that share the frames from the
// root down to one form one interval of it, so the track reads as a flame
// chart under the thread's traced slices.
//
// Weights: a sample lasts until the next sample of the track (speedscope's
// and DevTools' choice); the last one until `end` when the reader gives it
// (V8 profiles: the median interval, never past endTime, as
// v8samples::SampleClock::lastSampleEnd says), else for the median gap
// between samples (the sampling interval), or 0 when it is the only one.
class SampleTree
{
public:
    // A node whose label is this is left out of every stack: V8's "(root)",
    // a pseudo-frame above everything. Only a root can be: a node given
    // this label that has a parent is a frame really called "(root)" (a
    // Firefox profile converted to a trace has one) and is shown as such.
    static constexpr LabelId kTransparent = kNone;
    // A sample's node when the file gives it no stack (Firefox's null
    // stack): time with no frame, not a missing node.
    static constexpr std::int64_t kNoStack = INT64_MIN;
    static constexpr Time kNoEnd = kTimeMin;

    explicit SampleTree(ProfileBuilder& builder);

    // A node of the file's tree, by the file's id. A second node with the
    // same id makes finish() fail.
    void addNode(std::int64_t id, LabelId label);
    // Its parent, given by the node (`parent`) or by the parent's
    // `children` list; either may come before the node itself.
    void setParent(std::int64_t id, std::int64_t parent);
    void addSample(Time time, std::int64_t node);

    std::size_t sampleCount() const { return m_samples.size(); }
    std::size_t nodeCount() const { return m_nodes.size(); }

    // Lays the samples out on `track`; throws FormatError for a node id
    // given twice, a node with two parents or parent links that form a
    // cycle. Samples of a node the tree lacks are shown with no stack, with
    // a warning.
    void finish(TrackId track, Time end);

private:
    struct Node {
        std::int64_t id = 0;
        LabelId label = kTransparent;
        std::uint32_t parent = kNone; // index, resolved by finish()
    };
    struct Sample {
        Time time = 0;
        std::int64_t node = 0;
    };
    void resolveParents();
    // The stack of node `index`, root first, into m_stack.
    void stackOf(std::uint32_t index);

    ProfileBuilder& m_builder;
    std::vector<Node> m_nodes;
    std::optional<std::int64_t> m_duplicate; // the first id given twice
    std::unordered_map<std::int64_t, std::uint32_t> m_index;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_parentLinks; // (child, parent)
    std::vector<Sample> m_samples;
    std::vector<LabelId> m_stack;
};

} // namespace runlane
