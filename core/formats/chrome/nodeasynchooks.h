#pragma once

#include "chromeevent.h"
#include "profilebuilder.h"

#include <simdjson.h>

#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Node.js async_hooks trace events (formats.md (j)) as Runlane's task model
// (semantics.md), instead of generic async slices:
// * every async resource is a task: its `b` (init) creates it, labelled by
//   its type (PROMISE, Timeout, TCPWRAP, ...), its `e` (destroy) completes it;
// * each `<TYPE>_CALLBACK` `b`/`e` pair with the same id is one Running
//   interval of that task, on the thread that ran it, so a callback nests
//   under the slice that called it and over what it called; the task is
//   Paused between callbacks;
// * its creator is the resource whose callback was running when it was
//   created (`args.data.executionAsyncId`; 1, the main script, and 0, no JS,
//   make it a root); `args.data.triggerAsyncId` ("because of whom") becomes a
//   trigger link (Profile::triggeredBy).
// A resource never destroyed is unfinished (Node often never destroys
// promises): one warning line counts them all, by type.
// Events of these categories: ChromeEvent::isAsyncHooksCategory.
class NodeAsyncHooks
{
public:
    explicit NodeAsyncHooks(ProfileBuilder& builder) : m_builder(builder) { }

    // True for the name of a callback run (`<TYPE>_CALLBACK`).
    static bool isCallback(std::string_view name);

    // An async `b`, `e` or `n` of such a category on the thread of `track`.
    // `label` is the event name's label for a resource's `b`, `name` the
    // event's name.
    void add(const ChromeEvent& e, char kind, Time ts, std::uint32_t order, TrackId track, LabelId label,
             StringId name);
    // Builds the tasks; call before the builder lays out intervals.
    void finish();

private:
    struct Resource {
        Time init = 0;
        Time destroy = kTimeMax; // kTimeMax: never destroyed
        std::uint32_t order = 0;
        TrackId track = kNone;
        LabelId label = kNone;
        StringId type = kEmptyString;
        bool initSeen = false;
        std::int64_t execution = 0;
        std::int64_t trigger = 0;
    };
    struct Callback {
        std::uint32_t resource;
        Time ts;
        std::uint32_t order;
        bool begin;
    };

    // Async ids are per thread (a worker thread counts its own).
    struct Key {
        TrackId track;
        std::int64_t asyncId;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept
        {
            return std::size_t(k.asyncId) * 0x9E3779B97F4A7C15ull ^ std::size_t(k.track);
        }
    };

    static bool parseAsyncId(const ChromeEvent::Value& id, std::int64_t& asyncId);
    std::uint32_t resourceFor(Key key, Time ts, std::uint32_t order, StringId type);
    void readIds(const ChromeEvent& e, Resource& resource);
    MeasurementId measurementOf(TrackId track, std::int64_t asyncId, const std::vector<MeasurementId>& measurements) const;
    void buildCallbacks(const std::vector<MeasurementId>& measurements);
    void warnUnfinished(const std::map<StringId, std::uint64_t>& neverDestroyed);

    ProfileBuilder& m_builder;
    std::vector<Resource> m_resources;
    std::unordered_map<Key, std::uint32_t, KeyHash> m_byAsyncId;
    std::vector<Callback> m_callbacks;
    std::uint64_t m_badIds = 0; // events whose id is no async id (Node writes -1)
    simdjson::dom::parser m_parser;
};

} // namespace runlane
