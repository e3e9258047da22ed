#pragma once

#include "ensoevent.h"
#include "ensorenderstats.h"
#include "profilebuilder.h"

#include <optional>
#include <string>
#include <vector>

namespace runlane {

// Format side of the Enso loader: the profiler's state machine (formats.md
// (a), Enso's data/src/parse.rs) per process. A process's events are kept
// until its array ends, because its `$TimeOffset` header (which makes
// processes comparable) may come last; then they are handed to the builder.
class EnsoLogBuilder
{
public:
    explicit EnsoLogBuilder(ProfileBuilder& builder);
    void beginProcess(std::size_t index);
    // Throws FormatError for events of the wrong shape or types.
    void addEvent(const EnsoEvent& event, std::uint64_t index);
    void endProcess();

    // "name (file:line)" -> parts; the whole text is the name otherwise.
    static void splitLabel(std::string_view text, std::string_view& name, std::string_view& file, std::int32_t& line);

private:
    enum class RunState : std::uint8_t { Paused, Active, Ended };
    struct LocalMeasurement {
        LabelId label;
        std::uint64_t created; // µs since the process's origin
        std::uint32_t creator; // local id or kNone
        RunState state = RunState::Paused;
        bool ended = false;
        std::uint64_t finished = 0;
        std::uint32_t intervals = 0;
        std::uint64_t firstStart = 0;
    };
    struct LocalInterval {
        std::uint32_t measurement;
        std::uint64_t start;
        std::uint64_t end; // kOpenEnd while active
        std::uint32_t order;
    };
    static constexpr std::uint64_t kOpenEnd = ~std::uint64_t(0);

    std::uint64_t requireTime(const EnsoEvent::Field& t, const EnsoEvent& e, std::uint64_t index);
    std::uint32_t requireMeasurement(const EnsoEvent& e, std::uint64_t index) const;
    void create(const EnsoEvent& e, std::uint64_t index);
    void start(const EnsoEvent& e, std::uint64_t index);
    void stop(const EnsoEvent& e, std::uint64_t index, bool end);
    void metadata(const EnsoEvent& e, std::uint64_t index);
    Time toTime(std::uint64_t micros) const;
    void unexpectedState(const char* what, std::uint32_t measurement, std::uint64_t index);
    void resolveHeaders(const std::string& name);

    ProfileBuilder& m_builder;
    std::size_t m_process = 0;
    std::vector<LabelId> m_labels;
    std::vector<LocalMeasurement> m_measurements;
    std::vector<LocalInterval> m_intervals;
    std::vector<std::uint32_t> m_active; // open intervals, innermost last
    std::vector<Mark> m_marks; // times in µs until the process ends
    EnsoRenderStats m_renderStats; // its counters, likewise
    std::uint64_t m_timeOffset = 0;
    // The headers as read: a multi-process file needs both in each array
    // to align its processes; what is missing or wrong is a warning naming
    // the array, and its times are taken on the previous array's clock.
    bool m_hasOffset = false;
    bool m_hasProcess = false;
    std::string m_badOffset; // what $TimeOffset held instead of a number
    std::string m_badProcess; // what $Process held instead of a string
    std::optional<std::uint64_t> m_previousOffset; // the last array's good $TimeOffset
    std::vector<std::string> m_firstArrayWarnings; // said once a second array shows they matter
    std::uint64_t m_firstTime = ~std::uint64_t(0); // every t read, even of ignored events
    std::uint64_t m_lastTime = 0;
    std::string m_processName;
};

} // namespace runlane
