#pragma once

#include "chronosevent.h"
#include "profilebuilder.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of the Chronos future event log: the extended future state
// machine Pending -> Running <-> Paused -> Completed | Failed | Cancelled,
// per future, on one event loop (semantics.md §2-§4).
//
// A future's creator is the future on top of the loop's running stack when
// it becomes Pending; its active intervals are its Running segments, so a
// child's synchronous first segment nests inside its creator's segment and
// is billed to the child. Transitions the state machine does not allow are
// warnings naming the event; loading goes on.
//
// Wakes (Profile::wakes, for the scheduling delay): Chronos logs none, but a
// paused future is resumed by a callback scheduled when what it awaits
// completes, and what it awaits is almost always a future it created. So
// the last completion (or failure, cancellation) of a future it created
// while it was paused is taken as its wake (Wake::Inferred), and the wait
// from there to its next Running is its scheduling delay: the time the
// resumed continuation spent queued behind other work on the loop. The
// last, not the first: `await allFutures(a, b)` is woken by the later one,
// and a fire-and-forget child finishing early is not what it waited for.
// A pause that no child's end falls in (a timer, an event, a future made
// by another) has no wake and no delay.
class ChronosLogBuilder
{
public:
    explicit ChronosLogBuilder(ProfileBuilder& builder);
    // Throws FormatError for events of the wrong shape or types.
    void addEvent(const ChronosEvent& event, std::uint64_t index);
    // Names the loop's track and closes what is still open.
    void finish(const std::string& loopName);

private:
    enum class State : std::uint8_t { Pending, Running, Paused };
    struct Live {
        MeasurementId measurement;
        State state;
        Time runningSince;
        std::uint32_t order;
    };

    std::string idKey(const ChronosEvent& e, std::uint64_t index) const;
    LabelId labelOf(const ChronosEvent& e, std::uint64_t index, std::string_view id);
    MeasurementId create(const ChronosEvent& e, std::uint64_t index, const std::string& id, Time t,
                         std::uint8_t flags);
    void stopRunning(Live& future, Time t, std::uint64_t index, const std::string& id);
    void warnTransition(std::uint64_t index, const std::string& id, std::string_view state, std::string_view now);

    ProfileBuilder& m_builder;
    TrackId m_track;
    std::unordered_map<std::string, Live> m_live;
    std::vector<std::string> m_running; // ids, innermost last
    std::unordered_map<std::string, LabelId> m_labels;
    // By measurement: kNotPaused, kNotWoken (paused, nothing of its ended
    // yet) or the time of the wake so far.
    static constexpr Time kNotPaused = kTimeMax;
    static constexpr Time kNotWoken = kTimeMin;
    std::vector<Time> m_wokenAt;
    void setWokenAt(MeasurementId m, Time t)
    {
        if (m_wokenAt.size() <= m)
            m_wokenAt.resize(std::max<std::size_t>(m + 1, m_wokenAt.size() * 2), kNotPaused);
        m_wokenAt[m] = t;
    }
    Time wokenAt(MeasurementId m) const { return m < m_wokenAt.size() ? m_wokenAt[m] : kNotPaused; }
    std::string m_keyBuffer;
};

} // namespace runlane
