#pragma once

#include "chromeevent.h"
#include "profilebuilder.h"

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// The flow events of a Chrome trace (formats.md, `s`/`t`/`f` and flow v2),
// handed to ProfileBuilder as flow points, which binds them to slices once
// the intervals are laid out (FlowBinder):
// * v1 `s`, `t`, `f` events, matched by (`cat`, `name`, `id` or `id2`,
//   `scope`) as Perfetto matches them (plus `id2`, scoped like async ids).
//   `s` and `t` bind to the enclosing slice on their thread, `f` to the next
//   slice that begins at or after it there, or with `bp: "e"` to the
//   enclosing one.
// * v2 `bind_id` on a slice (`X`, `B`, `b`): `flow_out` makes it a source,
//   `flow_in` a sink, both a pass-through.
// String ids are hexadecimal, as Perfetto reads them: "0x402", "402" and
// 1026 are one id.
class ChromeFlowCollector
{
public:
    explicit ChromeFlowCollector(ProfileBuilder& builder) : m_builder(builder) { }

    // A v1 `s`, `t` or `f` on thread (pid, tid). Its track is looked up at
    // finish(): a flow event alone makes no track of an empty thread.
    void addFlowEvent(const ChromeEvent& e, std::uint32_t order, char ph, std::int64_t pid, std::int64_t tid, Time ts);
    // Looked at for every slice: the cold fields' flag first, so that a
    // slice without any (nearly all) reads no further than its hot lines.
    static bool hasBinding(const ChromeEvent& e)
    {
        return e.hasCold && e.bindId.kind != ChromeEvent::Value::Absent;
    }
    // The v2 fields of a slice starting at `ts` whose measurement is known.
    void addSlice(const ChromeEvent& e, std::uint32_t order, Time ts, TrackId track, MeasurementId measurement);
    // Those of a slice built later (`B`, `b`): sliceBuilt() binds them.
    void deferSlice(const ChromeEvent& e, std::uint32_t order, Time ts);
    void sliceBuilt(std::uint32_t order, TrackId track, MeasurementId measurement)
    {
        if (!m_deferred.empty())
            bindDeferred(order, track, measurement);
    }
    // Hands the v1 points over, on the tracks `threadTrack(pid, tid)` gives
    // (kNone: a thread without slices); slices that were never built leave
    // their flows unbound.
    void finish(const std::function<TrackId(std::int64_t pid, std::int64_t tid)>& threadTrack);

private:
    bool slicePoint(const ChromeEvent& e, std::uint32_t order, Time ts, FlowBinder::Point& point);
    void bindDeferred(std::uint32_t order, TrackId track, MeasurementId measurement);
    std::uint32_t keyOf(const std::string& key);
    static std::string idText(const ChromeEvent::Value& value);

    ProfileBuilder& m_builder;
    std::unordered_map<std::string, std::uint32_t> m_keys;
    std::unordered_map<std::uint32_t, FlowBinder::Point> m_deferred; // by event order
    struct ThreadPoint {
        FlowBinder::Point point;
        std::int64_t pid;
        std::int64_t tid;
    };
    std::vector<ThreadPoint> m_threadPoints;
    std::string m_key;
};

} // namespace runlane
