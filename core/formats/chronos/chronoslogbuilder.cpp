#include "chronoslogbuilder.h"

#include "loaderror.h"

#include <algorithm>

namespace runlane {

namespace {

std::string fieldText(const ChronosEvent::Field& f)
{
    switch (f.kind) {
    case ChronosEvent::Field::Absent:
        return "nothing";
    case ChronosEvent::Field::Integer:
        return std::to_string(f.number);
    case ChronosEvent::Field::String:
        return "\"" + f.text.substr(0, 40) + "\"";
    case ChronosEvent::Field::Other:
        break;
    }
    return f.text;
}

std::uint32_t orderOf(std::uint64_t index)
{
    return index < kNone - 1 ? std::uint32_t(index) : kNone - 1;
}

} // namespace

ChronosLogBuilder::ChronosLogBuilder(ProfileBuilder& builder) : m_builder(builder)
{
    TrackInfo info;
    info.kind = TrackKind::Thread;
    m_track = m_builder.addTrack(info);
}

std::string ChronosLogBuilder::idKey(const ChronosEvent& e, std::uint64_t index) const
{
    if (e.id.kind == ChronosEvent::Field::Integer)
        return std::to_string(e.id.number);
    if (e.id.kind == ChronosEvent::Field::String)
        return "\"" + e.id.text;
    if (e.id.kind == ChronosEvent::Field::Absent)
        throw FormatError("missing 'id' (the future's id)", std::int64_t(index));
    throw FormatError("'id' must be an integer, found " + fieldText(e.id), std::int64_t(index));
}

LabelId ChronosLogBuilder::labelOf(const ChronosEvent& e, std::uint64_t index, std::string_view id)
{
    auto require = [&](const ChronosEvent::Field& f, const char* name, ChronosEvent::Field::Kind kind) {
        if (f.kind == ChronosEvent::Field::Absent)
            throw FormatError("missing '" + std::string(name) + "': the first event of future " + std::string(id)
                                  + " must say its proc, file and line",
                              std::int64_t(index));
        if (f.kind != kind)
            throw FormatError("'" + std::string(name) + "' must be "
                                  + (kind == ChronosEvent::Field::String ? "a string" : "an integer") + ", found "
                                  + fieldText(f),
                              std::int64_t(index));
    };
    require(e.proc, "proc", ChronosEvent::Field::String);
    require(e.file, "file", ChronosEvent::Field::String);
    require(e.line, "line", ChronosEvent::Field::Integer);
    m_keyBuffer = e.proc.text;
    m_keyBuffer += '\x1f';
    m_keyBuffer += e.file.text;
    m_keyBuffer += '\x1f';
    m_keyBuffer += std::to_string(e.line.number);
    auto it = m_labels.find(m_keyBuffer);
    if (it == m_labels.end()) {
        const auto line = std::int32_t(std::clamp<std::int64_t>(e.line.number, 0, INT32_MAX));
        it = m_labels.emplace(m_keyBuffer, m_builder.label(e.proc.text, e.file.text, line)).first;
    }
    return it->second;
}

MeasurementId ChronosLogBuilder::create(const ChronosEvent& e, std::uint64_t index, const std::string& id, Time t,
                                        std::uint8_t flags)
{
    const LabelId label = labelOf(e, index, id);
    // Created by the future running now: the top of the loop's running stack.
    const MeasurementId creator = m_running.empty() ? kNone : m_live.at(m_running.back()).measurement;
    return m_builder.addMeasurement(m_track, label, t, creator, flags | AsyncMeasurement);
}

void ChronosLogBuilder::warnTransition(std::uint64_t index, const std::string& id, std::string_view state,
                                       std::string_view now)
{
    m_builder.diagnostics().warnWith("invalid transition", [&] {
        return "event #" + std::to_string(index) + ": " + std::string(state) + " for future "
            + (id.empty() || id[0] != '"' ? id : id.substr(1)) + ", which is " + std::string(now) + "; ignored";
    });
}

void ChronosLogBuilder::stopRunning(Live& future, Time t, std::uint64_t index, const std::string& id)
{
    m_builder.addInterval(future.measurement, future.runningSince, t, future.order);
    auto it = std::find(m_running.rbegin(), m_running.rend(), id);
    if (it != m_running.rbegin()) {
        m_builder.diagnostics().warnWith("running stack", [&] {
            return "event #" + std::to_string(index) + ": future " + id
                + " stops running while a future it started is still running";
        });
    }
    if (it != m_running.rend())
        m_running.erase(std::next(it).base());
}

void ChronosLogBuilder::addEvent(const ChronosEvent& e, std::uint64_t index)
{
    if (!e.isObject)
        throw FormatError("expected an event object, found " + e.foundText, std::int64_t(index));
    if (e.t.kind == ChronosEvent::Field::Absent)
        throw FormatError("missing 't' (the time in integer nanoseconds)", std::int64_t(index));
    if (e.t.kind != ChronosEvent::Field::Integer)
        throw FormatError("'t' must be integer nanoseconds, found " + fieldText(e.t), std::int64_t(index));
    if (e.state.kind != ChronosEvent::Field::String)
        throw FormatError(e.state.kind == ChronosEvent::Field::Absent
                              ? std::string("missing 'state' (Pending, Running, Paused, Completed, Failed or Cancelled)")
                              : "'state' must be a string, found " + fieldText(e.state),
                          std::int64_t(index));
    const Time t = e.t.number;
    m_builder.extendSpan(t);
    const std::string id = idKey(e, index);
    const std::string& state = e.state.text;
    auto live = m_live.find(id);
    const bool isLive = live != m_live.end();
    static constexpr const char* stateNames[] = {"pending", "running", "paused"};
    const char* now = isLive ? stateNames[int(live->second.state)] : "not pending";

    if (state == "Pending") {
        if (isLive) {
            warnTransition(index, id, state, now);
            return;
        }
        const MeasurementId m = create(e, index, id, t, 0);
        m_live.emplace(id, Live{m, State::Pending, 0, orderOf(index)});
    } else if (state == "Running") {
        if (!isLive && e.proc.kind == ChronosEvent::Field::Absent) {
            warnTransition(index, id, state, "already finished or unknown");
            return;
        }
        if (!isLive) {
            // Its Pending is missing (the log started late): created now.
            m_builder.diagnostics().warnWith("missing Pending", [&] {
                return "event #" + std::to_string(index) + ": future " + id + " runs without being Pending first";
            });
            const MeasurementId m = create(e, index, id, t, 0);
            live = m_live.emplace(id, Live{m, State::Pending, 0, orderOf(index)}).first;
        } else if (live->second.state == State::Running) {
            warnTransition(index, id, state, now);
            return;
        }
        if (const Time woken = wokenAt(live->second.measurement); woken != kNotPaused) {
            if (woken != kNotWoken)
                m_builder.addWake(Wake{woken, live->second.measurement, Wake::Inferred});
            setWokenAt(live->second.measurement, kNotPaused);
        }
        live->second.state = State::Running;
        live->second.runningSince = t;
        live->second.order = orderOf(index);
        m_running.push_back(id);
    } else if (state == "Paused") {
        if (!isLive || live->second.state != State::Running) {
            warnTransition(index, id, state, now);
            return;
        }
        stopRunning(live->second, t, index, id);
        live->second.state = State::Paused;
        setWokenAt(live->second.measurement, kNotWoken);
    } else if (state == "Completed" || state == "Failed" || state == "Cancelled") {
        const FinalState final = state == "Completed" ? FinalState::Completed
            : state == "Failed"                       ? FinalState::Failed
                                                      : FinalState::Cancelled;
        if (!isLive) {
            if (e.proc.kind == ChronosEvent::Field::Absent) {
                warnTransition(index, id, state, "already finished or unknown");
                return;
            }
            // Born finished: a stillborn future.
            const MeasurementId m = create(e, index, id, t, BornFinished);
            m_builder.finish(m, t, final);
            return;
        }
        if (live->second.state == State::Running)
            stopRunning(live->second, t, index, id);
        m_builder.finish(live->second.measurement, t, final);
        if (live->second.state == State::Paused)
            setWokenAt(live->second.measurement, kNotPaused);
        // Its creator, if paused, may have been waiting for it.
        const MeasurementId creator = m_builder.measurement(live->second.measurement).creator;
        if (creator != kNone && wokenAt(creator) != kNotPaused)
            setWokenAt(creator, t);
        m_live.erase(live); // the id may be used again
    } else {
        m_builder.diagnostics().warnWith("unknown state", [&] {
            return "event #" + std::to_string(index) + ": unknown state " + fieldText(e.state) + "; ignored";
        });
    }
}

void ChronosLogBuilder::finish(const std::string& loopName)
{
    TrackInfo& info = m_builder.trackInfo(m_track);
    info.displayName = m_builder.intern(loopName.empty() ? std::string("event loop") : loopName);
    // Still running at the end: the segment ends with the profile.
    for (auto& [id, future] : m_live) {
        if (future.state == State::Running)
            m_builder.addInterval(future.measurement, future.runningSince, ProfileBuilder::kOpen, future.order);
    }
    m_live.clear();
    m_running.clear();
}

} // namespace runlane
