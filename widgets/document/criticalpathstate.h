#pragma once

#include "criticalpath.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace runlane {

// The critical path the viewer shows (semantics.md §9): whose path it is,
// its segments in time order and the wakes along it. The document owns one;
// the lanes, the icicle and the Critical path panel draw from it and never
// from each other. It is dropped on every profile change (a live
// recording's next version included: the path would be of an older life).
//
// One path is computed on the GUI thread when asked for: a walk costs
// O(k log n) for k segments (docs/performance.md, "Critical path"); the
// index it walks (CriticalPath) is built once per profile, on first use,
// and shared with the label aggregates the panel computes off the thread.
class CriticalPathState : public QObject
{
    Q_OBJECT

public:
    // What a measurement is on the shown path, for the views' tints; a
    // measurement may be several (bits).
    enum Role : std::uint8_t {
        NotOnPath = 0,
        // The walk explains part of its life: the measurement asked for or
        // a waker the walk descended into.
        Explained = 1u << 0,
        // Named by a running segment: its code is on the path.
        RunsOnPath = 1u << 1,
        // Named by a queued segment: the loop ran it while the path was
        // ready to go on (the blocker).
        Blocks = 1u << 2,
    };
    // A wake on the path: the walk explained `woken`'s gap up to `at` by
    // `waker`'s path, and `woken` ran again at `resume` (later than `at`
    // when it was queued behind someone, the queued segment between).
    struct WakeEdge {
        MeasurementId waker = kNone;
        MeasurementId woken = kNone;
        Time at = 0;
        Time resume = 0;
        friend bool operator==(const WakeEdge&, const WakeEdge&) = default;
    };

    explicit CriticalPathState(QObject* parent = nullptr);
    ~CriticalPathState() override;

    // The profile paths are of (null: none); drops the path shown.
    void setProfile(std::shared_ptr<const Profile> profile);

    bool isActive() const { return m_measurement != kNone; }
    MeasurementId measurement() const { return m_measurement; }
    const std::vector<CriticalPath::Segment>& segments() const { return m_segments; }
    const std::vector<WakeEdge>& wakes() const { return m_wakes; }
    // The segments that overlap [from, to), for a paint: O(log k).
    std::span<const CriticalPath::Segment> segmentsIn(Time from, Time to) const;
    // Role bits of `measurement` on the path shown (NotOnPath when none is).
    std::uint8_t roleOf(MeasurementId measurement) const;
    // Who wakes what in this profile's format, and why there are no wakers
    // when there are none (CriticalPath::whyNoWakers).
    CriticalPath::WakeSource wakeSource() const;

    // The walk's index for this profile, built on first use; it keeps the
    // profile alive, so a worker may use it after a switch. Null without a
    // profile.
    std::shared_ptr<const CriticalPath> paths();

    // Shows `measurement`'s path (its whole life). False, and nothing
    // shown, for an id the profile does not have.
    bool show(MeasurementId measurement);
    void clear();

Q_SIGNALS:
    // The path shown changed (shown, cleared, or dropped with its profile).
    void changed();

private:
    void indexPath();

    std::shared_ptr<const Profile> m_profile;
    std::shared_ptr<const CriticalPath> m_paths;
    MeasurementId m_measurement = kNone;
    std::vector<CriticalPath::Segment> m_segments;
    std::vector<WakeEdge> m_wakes;
    std::unordered_map<MeasurementId, std::uint8_t> m_roles;
};

} // namespace runlane
