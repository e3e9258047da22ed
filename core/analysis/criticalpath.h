#pragma once

#include "profile.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

namespace runlane {

// The critical path of a measurement (semantics.md §9): its lifetime
// [created, finish) split into consecutive segments that say why it took as
// long as it did: its own running (or that of what it waited for), time it
// was ready while the loop ran someone else (queued, named after the
// blocker, or idle), and plain waiting.
//
// The walk goes backwards from the finish. In a gap of the measurement it
// asks the profile's wake source who made it ready (the waker) and when;
// from that instant to the resume it was queued, and before it the time is
// explained by the waker's own critical path over that span, recursively.
// The walk is iterative (an explicit stack): a file may claim 100,000
// nested wakers or a cycle of them, and neither may overflow the stack or
// loop. Each step either explains a span of positive length or descends
// into a waker; a waker already descended into since the last span was
// explained (a cycle of wakes at one instant) counts as no waker.
class CriticalPath
{
public:
    enum class Kind : std::uint8_t { Running, Queued, Idle, Waiting };
    // Every kind, in the order breakdowns and comparisons list them.
    static constexpr std::array<Kind, 4> kAllKinds{Kind::Running, Kind::Queued, Kind::Idle, Kind::Waiting};
    static std::string_view kindName(Kind kind);

    // Who woke a measurement, per format (semantics.md §9 "Other formats"):
    // a fact of the profile, set by its format's reader.
    using WakeSource = runlane::WakeSource;
    static std::string_view wakeSourceName(WakeSource source);
    // Why a profile's paths name no wakers, for the panel; empty when they
    // can. A preview of a loading file has none whatever its format: the
    // format binds its flows, wakes and creators when the load ends
    // (ProfileBuilder::emitPreview), so it is not told "this format records
    // no wakes".
    static std::string_view whyNoWakers(WakeSource source, bool preview);

    struct Segment {
        Time start = 0;
        Time end = 0;
        Kind kind = Kind::Running;
        // Running: the innermost running measurement; Queued: the blocker
        // (innermost running on the waiting measurement's track); Waiting:
        // the measurement that waited; Idle: kNone.
        MeasurementId named = kNone;
        TrackId track = 0;
        // The measurement on the path whose life this segment explains, and
        // how many wakers deep the walk was (0: the measurement asked for).
        MeasurementId pathMeasurement = kNone;
        std::uint32_t depth = 0;

        Time duration() const { return end - start; }
        friend bool operator==(const Segment&, const Segment&) = default;
    };

    // Builds the indexes the walk needs (children by finish, polls by
    // track): O(n log n) once per profile, then a path costs O(k log n) for
    // k segments.
    CriticalPath(const Profile& profile, WakeSource source);
    // The wake source the profile's format gives (Profile::wakeSource).
    static WakeSource sourceOf(const Profile& profile) { return profile.wakeSource(); }

    const Profile& profile() const { return m_profile; }
    WakeSource wakeSource() const { return m_source; }

    // The segments of `measurement`'s path in time order; they cover
    // [created, finished) exactly once. Throws LoadCancelled if `cancel`
    // is set while it walks.
    std::vector<Segment> of(MeasurementId measurement, const std::atomic<bool>* cancel = nullptr) const;
    // The same walk over the span [from, to) of the measurement's life.
    std::vector<Segment> over(MeasurementId measurement, Time from, Time to,
                              const std::atomic<bool>* cancel = nullptr) const;

private:
    struct Waker {
        MeasurementId measurement = kNone; // kNone: known instant, no known waker
        Time at = 0;
    };
    struct Frame;
    class Walk;

    // The gap [g0, g1] of `m` ends at a resume or its finish; `first` when it
    // is the time before its first run (g0 = created).
    bool findWaker(MeasurementId m, Time g0, Time g1, bool first, Waker& waker) const;
    bool childWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const;
    bool wakeWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const;
    bool flowWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const;
    bool creatorWaker(MeasurementId m, Time g0, Time g1, Waker& waker) const;
    // The single measurement polled (an outermost interval running) at `t`
    // other than `except`, or kNone if none or several.
    MeasurementId polledAt(Time t, MeasurementId except) const;

    const Profile& m_profile;
    WakeSource m_source;
    // Children by creator, each run sorted by (finished, created, id): the
    // latest to finish in a gap is a binary search, ties to the one created
    // last (§9).
    std::vector<std::uint32_t> m_childOffsets;
    std::vector<MeasurementId> m_children;
};

} // namespace runlane
