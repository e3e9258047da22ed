#pragma once

#include "chronosevent.h"
#include "profilebuilder.h"

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
    std::string m_keyBuffer;
};

} // namespace runlane
