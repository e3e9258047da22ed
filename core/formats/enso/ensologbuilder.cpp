#include "ensologbuilder.h"

#include "loaderror.h"
#include "numberparse.h"

#include <algorithm>

namespace runlane {

namespace {

// The types Enso's IDE and Language Server write (formats.md (n)); any
// other is kept as well, with a warning, as Enso's reader tolerates it.
bool isKnownMetadata(std::string_view type)
{
    return type == "RpcEvent" || type == "RpcRequest" || type == "BackendMessage" || type == "RenderStats"
        || type == "GlyphCacheMiss";
}

// Whether a header's value is of the kind it must be; `has` says a good
// one was read, `bad` what the first wrong one held (a good one wins).
bool readHeader(const EnsoEvent& e, EnsoEvent::Field::Kind kind, bool& has, std::string& bad)
{
    if (e.metaValue.kind == kind) {
        has = true;
        bad.clear();
        return true;
    }
    if (!has)
        bad = e.metaJson.empty() ? "nothing" : e.metaJson.substr(0, 40);
    return false;
}

std::string fieldText(const EnsoEvent::Field& f)
{
    switch (f.kind) {
    case EnsoEvent::Field::Absent:
        return "nothing";
    case EnsoEvent::Field::Null:
        return "null";
    case EnsoEvent::Field::Unsigned:
        return std::to_string(f.u);
    case EnsoEvent::Field::Negative:
        return std::to_string(f.i);
    case EnsoEvent::Field::String:
        return "\"" + f.text.substr(0, 40) + "\"";
    case EnsoEvent::Field::Other:
        return f.text;
    }
    return {};
}

} // namespace

EnsoLogBuilder::EnsoLogBuilder(ProfileBuilder& builder) : m_builder(builder) { }

void EnsoLogBuilder::splitLabel(std::string_view text, std::string_view& name, std::string_view& file,
                                std::int32_t& line)
{
    name = text;
    file = {};
    line = 0;
    const auto space = text.rfind(' ');
    if (space == std::string_view::npos)
        return;
    const std::string_view suffix = text.substr(space + 1);
    if (suffix.size() < 5 || suffix.front() != '(' || suffix.back() != ')')
        return;
    const std::string_view position = suffix.substr(1, suffix.size() - 2);
    const auto colon = position.rfind(':');
    if (colon == std::string_view::npos)
        return;
    const std::string_view fileText = position.substr(0, colon);
    const std::string_view lineText = position.substr(colon + 1);
    std::int64_t lineNumber = 0;
    if (fileText == "?" && lineText == "?") {
        name = text.substr(0, space);
        return;
    }
    if (fileText.empty() || !parseInteger(lineText, lineNumber) || lineNumber < 0 || lineNumber > INT32_MAX)
        return;
    name = text.substr(0, space);
    file = fileText;
    line = std::int32_t(lineNumber);
}

void EnsoLogBuilder::beginProcess(std::size_t index)
{
    m_process = index;
    m_labels.clear();
    m_measurements.clear();
    m_intervals.clear();
    m_active.clear();
    m_marks.clear();
    m_timeOffset = 0;
    m_firstTime = ~std::uint64_t(0);
    m_lastTime = 0;
    m_processName.clear();
    m_hasOffset = false;
    m_hasProcess = false;
    m_badOffset.clear();
    m_badProcess.clear();
    // The first array's missing headers matter once there is a second.
    if (index == 1) {
        for (std::string& message : m_firstArrayWarnings)
            m_builder.diagnostics().warn("missing header", std::move(message));
    }
    m_firstArrayWarnings.clear();
}

std::uint64_t EnsoLogBuilder::requireTime(const EnsoEvent::Field& t, const EnsoEvent& e, std::uint64_t index)
{
    if (t.kind == EnsoEvent::Field::Unsigned) {
        m_firstTime = std::min(m_firstTime, t.u);
        m_lastTime = std::max(m_lastTime, t.u);
        return t.u;
    }
    if (t.kind == EnsoEvent::Field::Absent)
        throw FormatError("missing 't' (time in microseconds) in a '" + e.kindKey + "' event", std::int64_t(index));
    throw FormatError("'t' of a '" + e.kindKey + "' event must be an unsigned integer (microseconds), found "
                          + fieldText(t),
                      std::int64_t(index));
}

std::uint32_t EnsoLogBuilder::requireMeasurement(const EnsoEvent& e, std::uint64_t index) const
{
    if (e.i.kind == EnsoEvent::Field::Absent)
        throw FormatError("missing 'i' (measurement id) in a '" + e.kindKey + "' event", std::int64_t(index));
    if (e.i.kind != EnsoEvent::Field::Unsigned)
        throw FormatError("'i' must be a measurement id, found " + fieldText(e.i), std::int64_t(index));
    if (e.i.u >= m_measurements.size())
        throw FormatError("'" + e.kindKey + "' names measurement " + std::to_string(e.i.u) + " but only "
                              + std::to_string(m_measurements.size()) + " were created so far",
                          std::int64_t(index));
    return std::uint32_t(e.i.u);
}

void EnsoLogBuilder::addEvent(const EnsoEvent& e, std::uint64_t index)
{
    if (!e.isObject)
        throw FormatError("expected an event object such as {\"C\": {...}}, found " + e.foundText, std::int64_t(index));
    if (e.keyCount != 1)
        throw FormatError("an event object must have exactly one key (its kind), found " + std::to_string(e.keyCount),
                          std::int64_t(index));
    if (!e.bodyIsObject)
        throw FormatError("the body of a '" + e.kindKey + "' event must be an object, found " + e.foundText,
                          std::int64_t(index));
    const char kind = e.kindKey.size() == 1 ? e.kindKey[0] : '\0';
    switch (kind) {
    case 'L': {
        if (e.l.kind != EnsoEvent::Field::String)
            throw FormatError("'l' of an 'L' event must be the label text, found " + fieldText(e.l), std::int64_t(index));
        std::string_view name;
        std::string_view file;
        std::int32_t line = 0;
        splitLabel(e.l.text, name, file, line);
        m_labels.push_back(m_builder.label(name, file, line));
        return;
    }
    case 'C':
        create(e, index);
        return;
    case 'S':
        start(e, index);
        return;
    case 'P':
        stop(e, index, false);
        return;
    case 'E':
        stop(e, index, true);
        return;
    case 'X':
        metadata(e, index);
        return;
    default:
        m_builder.diagnostics().skipped("Enso event kind '" + e.kindKey.substr(0, 20) + "'");
        return;
    }
}

void EnsoLogBuilder::create(const EnsoEvent& e, std::uint64_t index)
{
    if (e.l.kind != EnsoEvent::Field::Unsigned)
        throw FormatError("'l' of a 'C' event must be a label id, found " + fieldText(e.l), std::int64_t(index));
    LabelId label = 0;
    if (e.l.u < m_labels.size()) {
        label = m_labels[std::size_t(e.l.u)];
    } else {
        m_builder.diagnostics().warnWith("undefined label", [&] {
            return "event #" + std::to_string(index) + " uses label " + std::to_string(e.l.u)
                + ", which no earlier 'L' event defines";
        });
        label = m_builder.label("<label " + std::to_string(e.l.u) + ">");
    }

    std::uint32_t creator = kNone;
    switch (e.p.kind) {
    case EnsoEvent::Field::Absent:
        // The "current profiler": whoever owns the innermost open interval.
        creator = m_active.empty() ? kNone : m_intervals[m_active.back()].measurement;
        break;
    case EnsoEvent::Field::Negative:
        if (e.p.i != -1)
            throw FormatError("'p' must be -1 (the root) or a measurement id, found " + fieldText(e.p),
                              std::int64_t(index));
        break;
    case EnsoEvent::Field::Unsigned:
        if (e.p.u < m_measurements.size()) {
            creator = std::uint32_t(e.p.u);
        } else {
            m_builder.diagnostics().warnWith("undefined parent", [&] {
                return "event #" + std::to_string(index) + " names parent " + std::to_string(e.p.u)
                    + ", which is not created yet; made a root";
            });
        }
        break;
    default:
        throw FormatError("'p' must be -1 or a measurement id, found " + fieldText(e.p), std::int64_t(index));
    }

    std::uint64_t created = 0;
    if (e.t.kind == EnsoEvent::Field::Null || e.t.kind == EnsoEvent::Field::Absent)
        created = creator == kNone ? 0 : m_measurements[creator].created; // "same start as parent"
    else
        created = requireTime(e.t, e, index);
    m_measurements.push_back(LocalMeasurement{label, created, creator});
}

void EnsoLogBuilder::unexpectedState(const char* what, std::uint32_t measurement, std::uint64_t index)
{
    m_builder.diagnostics().warnWith("unexpected state", [&] {
        static constexpr const char* names[] = {"paused", "active", "ended"};
        return std::string(what) + " event #" + std::to_string(index) + " for measurement "
            + std::to_string(measurement) + ", which is " + names[int(m_measurements[measurement].state)]
            + "; ignored";
    });
}

void EnsoLogBuilder::start(const EnsoEvent& e, std::uint64_t index)
{
    const std::uint32_t id = requireMeasurement(e, index);
    const std::uint64_t t = requireTime(e.t, e, index);
    LocalMeasurement& m = m_measurements[id];
    if (m.state != RunState::Paused) {
        unexpectedState("'S'", id, index);
        return;
    }
    if (m.intervals == 0)
        m.firstStart = t;
    ++m.intervals;
    m.state = RunState::Active;
    m_active.push_back(std::uint32_t(m_intervals.size()));
    m_intervals.push_back(LocalInterval{id, t, kOpenEnd, std::uint32_t(std::min<std::uint64_t>(index, kNone - 1))});
}

void EnsoLogBuilder::stop(const EnsoEvent& e, std::uint64_t index, bool end)
{
    const std::uint32_t id = requireMeasurement(e, index);
    const std::uint64_t t = requireTime(e.t, e, index);
    LocalMeasurement& m = m_measurements[id];
    if (m.state == RunState::Ended || (m.state == RunState::Paused && !end)) {
        unexpectedState(end ? "'E'" : "'P'", id, index);
        return;
    }
    if (m.state == RunState::Active) {
        // Active intervals must nest (LIFO); Enso's reader rejects a pause of
        // any other than the innermost one. We close the right one and warn.
        auto it = std::find_if(m_active.rbegin(), m_active.rend(),
                               [&](std::uint32_t iv) { return m_intervals[iv].measurement == id; });
        if (it != m_active.rbegin()) {
            m_builder.diagnostics().warnWith("intervals do not nest", [&] {
                return "event #" + std::to_string(index) + " stops measurement " + std::to_string(id)
                    + " while measurement " + std::to_string(m_intervals[m_active.back()].measurement)
                    + " started later is still running";
            });
        }
        m_intervals[*it].end = t;
        m_active.erase(std::next(it).base());
    }
    m.state = end ? RunState::Ended : RunState::Paused;
    if (end) {
        m.ended = true;
        m.finished = t;
    }
}

void EnsoLogBuilder::metadata(const EnsoEvent& e, std::uint64_t index)
{
    if (!e.hasD)
        throw FormatError("missing 'd' (the metadata) in an 'X' event", std::int64_t(index));
    if (!e.dIsObject || e.metaType.empty())
        throw FormatError("'d' of an 'X' event must be an object with one key, the metadata type", std::int64_t(index));
    // Headers are stamped t = 0 by convention; they are not events in time.
    const bool header = e.metaType == "$TimeOffset" || e.metaType == "$Process";
    if (header && e.t.kind != EnsoEvent::Field::Unsigned)
        requireTime(e.t, e, index); // throws the right message
    const std::uint64_t t = header ? 0 : requireTime(e.t, e, index);
    // A bad header loses only the alignment or the name of its process:
    // resolveHeaders says so once the array's name is known.
    if (e.metaType == "$TimeOffset") {
        if (readHeader(e, EnsoEvent::Field::Unsigned, m_hasOffset, m_badOffset))
            m_timeOffset = e.metaValue.u;
        return;
    }
    if (e.metaType == "$Process") {
        if (readHeader(e, EnsoEvent::Field::String, m_hasProcess, m_badProcess))
            m_processName = e.metaValue.text;
        return;
    }
    if (!isKnownMetadata(e.metaType)) {
        m_builder.diagnostics().warnWith("unknown metadata", [&] {
            return "event #" + std::to_string(index) + " carries metadata of unknown type '" + e.metaType.substr(0, 40)
                + "'; kept as a mark";
        });
    }
    Mark mark;
    mark.time = Time(t); // converted in endProcess, once the offset is known
    mark.name = m_builder.intern(e.metaType);
    mark.detail = m_builder.intern(e.metaJson);
    mark.pid = std::int64_t(m_process);
    m_marks.push_back(mark);
    if (e.metaType == "RenderStats")
        m_renderStats.add(t, e.metaJson, index, m_builder.diagnostics());
}

Time EnsoLogBuilder::toTime(std::uint64_t micros) const
{
    std::int64_t ns = 0;
    if (micros > ~std::uint64_t(0) - m_timeOffset
        || scaleUnsigned(micros + m_timeOffset, 3, ns) != ParseStatus::Ok)
        throw FormatError("a time of " + std::to_string(micros) + " µs (+ $TimeOffset " + std::to_string(m_timeOffset)
                          + ") is out of range");
    return ns;
}

void EnsoLogBuilder::resolveHeaders(const std::string& name)
{
    const std::string array = "event array " + std::to_string(m_process + 1);
    const std::string named = array + (m_hasProcess ? " (" + name + ")" : "");
    // Without its own clock an array is taken on the one before it: the
    // processes of one file ran together, while an offset of 0 would put
    // them decades apart.
    const std::string clock = m_previousOffset
        ? "its times are taken on the previous array's clock ($TimeOffset " + std::to_string(*m_previousOffset) + ")"
        : "its times are taken as they are ($TimeOffset 0)";
    if (!m_hasOffset && m_previousOffset)
        m_timeOffset = *m_previousOffset;
    std::vector<std::string> missing;
    if (!m_badProcess.empty()) {
        m_builder.diagnostics().warn("bad header", array + ": $Process is " + m_badProcess
                                                        + ", not a string; its track is named '" + name + "'");
    } else if (!m_hasProcess) {
        missing.push_back(array + " has no $Process header; its track is named '" + name + "'");
    }
    if (!m_badOffset.empty()) {
        m_builder.diagnostics().warn("bad header", named + ": $TimeOffset is " + m_badOffset
                                                        + ", not a whole number of microseconds since the epoch; "
                                                        + clock);
    } else if (!m_hasOffset) {
        missing.push_back(named + " has no $TimeOffset header; " + clock);
    }
    if (m_hasOffset)
        m_previousOffset = m_timeOffset;
    if (m_process == 0) {
        m_firstArrayWarnings = std::move(missing);
        return;
    }
    for (std::string& message : missing)
        m_builder.diagnostics().warn("missing header", std::move(message));
}

void EnsoLogBuilder::endProcess()
{
    TrackInfo info;
    info.kind = TrackKind::Thread;
    info.pid = std::int64_t(m_process);
    info.processSortIndex = std::int64_t(m_process);
    const std::string name = m_processName.empty() ? "Process " + std::to_string(m_process + 1) : m_processName;
    resolveHeaders(name);
    info.processName = m_builder.intern(name);
    info.displayName = info.processName;
    const TrackId track = m_builder.addTrack(info);
    if (m_firstTime <= m_lastTime) {
        m_builder.extendSpan(toTime(m_firstTime));
        m_builder.extendSpan(toTime(m_lastTime));
    }

    std::vector<MeasurementId> ids(m_measurements.size());
    for (std::size_t k = 0; k < m_measurements.size(); ++k) {
        const LocalMeasurement& m = m_measurements[k];
        const Time created = toTime(m.created);
        // Async: created paused and started later, or resumed after a pause.
        const bool async = m.intervals != 1 || m.firstStart != m.created;
        const MeasurementId creator = m.creator == kNone ? kNone : ids[m.creator];
        ids[k] = m_builder.addMeasurement(track, m.label, created, creator, async ? AsyncMeasurement : 0);
        if (m.ended)
            m_builder.finish(ids[k], toTime(m.finished), FinalState::Ended);
    }
    for (const LocalInterval& iv : m_intervals) {
        const Time end = iv.end == kOpenEnd ? ProfileBuilder::kOpen : toTime(iv.end);
        m_builder.addInterval(ids[iv.measurement], toTime(iv.start), end, iv.order);
    }
    for (Mark mark : m_marks) {
        mark.time = toTime(std::uint64_t(mark.time));
        mark.track = track;
        m_builder.addMark(mark);
    }
    m_renderStats.flush(m_builder, std::int64_t(m_process), [this](std::uint64_t t) { return toTime(t); });
}

} // namespace runlane
