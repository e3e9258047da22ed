#pragma once

#include "profile.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace runlane {

// Per-measurement figures derived from a Profile once, after loading:
// exec (self) time, time with children over the creation tree, and whether a
// measurement is nested under another of the same label (recursion), which
// the rank must not count twice (semantics.md §3-§5).
class MeasurementMetrics
{
public:
    explicit MeasurementMetrics(const Profile& profile);

    Time exec(MeasurementId id) const { return m_exec[id]; }
    Time total(MeasurementId id) const { return m_total[id]; }
    Time wall(MeasurementId id) const;
    bool nestedInSameLabel(MeasurementId id) const { return m_nested[id] != 0; }
    // Σ exec of everything on a track: the time it was busy.
    Time busy(TrackId track) const { return m_busy[track]; }
    const Profile& profile() const { return m_profile; }

    // Time with children of every measurement given per-measurement exec
    // times (e.g. clipped to a range): one pass, creators before creations.
    static std::vector<Time> totalsFrom(const Profile& profile, const std::vector<Time>& exec);
    // busy() of every track alone, without the per-measurement figures.
    static std::vector<Time> busyPerTrack(const Profile& profile);

    // The measurements alive in [from, to): created before `to` and
    // finished after `from` (a zero-length one: at a time in the range), in
    // id order. Skips whole blocks of ids that finished before `from`, so a
    // short range late in a long profile costs far less than all of them.
    std::vector<MeasurementId> aliveIn(Time from, Time to) const;

private:
    struct CreationForest;
    // Sets the recursion flags and the totals under the roots it takes
    // from `forest` (two threads walk it at once).
    void walkCreationTree(CreationForest& forest);
    // For aliveIn only (range ranks), so on its first call rather than for
    // every MeasurementMetrics.
    void findBlockMaxFinished() const;

    const Profile& m_profile;
    std::vector<Time> m_exec;
    std::vector<Time> m_total;
    // Bytes, not std::vector<bool>: two threads set flags side by side.
    std::vector<std::uint8_t> m_nested;
    std::vector<Time> m_busy;
    static constexpr std::size_t kBlock = 256;
    mutable std::once_flag m_blocksFound;
    mutable std::vector<Time> m_blockMaxFinished; // per kBlock ids
};

} // namespace runlane
