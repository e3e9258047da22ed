#include "chroprofjsonreader.h"

#include "chroprofformat.h"

#include "jsonsaxsupport.h"

#include <vector>

namespace runlane {

namespace {

using jsonsax::Json;

// Depths count open containers. Bare rows: a row's fields at depth 2, its
// location's at 3. Snapshots: a snapshot's fields at 3, a row's at 5, its
// location's at 6. A snapshot's rows are held until its "t" is known, since
// JSON keys come in any order.
class Handler
{
public:
    Handler(ChunkedFileReader& input, const ChroprofJsonReader::Sink& sink)
        : m_input(input), m_sink(sink), m_startOffset(input.offset())
    {
    }

    bool null() { return scalar(Kind::Other, 0, "null"); }
    bool boolean(bool v) { return scalar(Kind::Other, 0, v ? "true" : "false"); }
    bool number_integer(Json::number_integer_t v) { return scalar(Kind::Integer, v, std::to_string(v)); }
    bool number_unsigned(Json::number_unsigned_t v)
    {
        return v > std::uint64_t(INT64_MAX) ? scalar(Kind::Other, 0, std::to_string(v))
                                            : scalar(Kind::Integer, std::int64_t(v), std::to_string(v));
    }
    bool number_float(Json::number_float_t, const std::string& text) { return scalar(Kind::Other, 0, text); }
    bool string(std::string& v) { return scalar(Kind::String, 0, v); }
    bool binary(Json::binary_t&) { return true; }

    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& k)
    {
        m_key = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }
    const jsonsax::SyntaxError& error() const { return m_error; }
    bool snapshotForm() const { return m_snapshots; }
    bool inSnapshotArray() const { return m_inSnapshots; }
    // The array is closed, the object not: a cut in the file's last bytes.
    bool afterSnapshotArray() const { return m_afterSnapshots; }
    std::uint64_t snapshotsRead() const { return m_snapshotIndex; }
    bool hasMarker() const { return m_marker; }
    std::int64_t version() const { return m_version; }
    std::int64_t currentRow() const { return m_inRow ? std::int64_t(m_rowIndex) : -1; }

private:
    enum class Kind : std::uint8_t { Integer, String, Other };

    int rowDepth() const { return m_snapshots ? 5 : 2; }

    void metric(std::int64_t& slot, Kind kind, std::int64_t value, const std::string& text)
    {
        if (kind != Kind::Integer || value < 0)
            throw FormatError("'" + m_key + "' must be a non-negative integer (nanoseconds or a count), found "
                                  + (kind == Kind::String ? "\"" + jsonsax::describeScalar(text) + "\"" : text),
                              std::int64_t(m_rowIndex));
        slot = value;
    }

    bool scalar(Kind kind, std::int64_t value, const std::string& text)
    {
        if (m_depth == 0)
            throw FormatError("expected '[' (rows) or '{' (snapshots) at the start of Chroprof metrics", -1, 0);
        if (m_snapshots && m_depth == 1 && m_key == "chroprofSnapshots") {
            if (kind != Kind::Integer)
                throw FormatError("'chroprofSnapshots' must be the format version, an integer", -1, m_input.offset());
            m_marker = true;
            m_version = value;
        } else if (m_snapshots && m_depth == 3 && m_inSnapshot && m_key == "t") {
            if (kind != Kind::Integer)
                throw FormatError("'t' of a snapshot must be integer nanoseconds, found " + text, -1, m_input.offset());
            m_snapshotTime = value;
            m_hasTime = true;
        } else if (m_inRow && m_depth == rowDepth()) {
            ChroprofJsonReader::Row& r = m_row;
            if (m_key == "execTime")
                metric(r.execTime, kind, value, text);
            else if (m_key == "execTimeMax")
                metric(r.execTimeMax, kind, value, text);
            else if (m_key == "childrenExecTime")
                metric(r.childrenExecTime, kind, value, text);
            else if (m_key == "wallClockTime")
                metric(r.wallClockTime, kind, value, text);
            else if (m_key == "callCount")
                metric(r.callCount, kind, value, text);
            else if (m_key == "stillbornCount")
                metric(r.stillbornCount, kind, value, text);
            else if (m_key == "zombieEventCount")
                metric(r.zombieEventCount, kind, value, text);
            else if (m_key == "location")
                throw FormatError("'location' must be an object {procedure, file, line}", std::int64_t(m_rowIndex));
        } else if (m_inLocation && m_depth == rowDepth() + 1) {
            if (m_key == "procedure" && kind == Kind::String) {
                m_row.procedure = text;
                m_row.hasProcedure = true;
            } else if (m_key == "file" && kind == Kind::String) {
                m_row.file = text;
            } else if (m_key == "line" && kind == Kind::Integer) {
                m_row.line = value;
            } else if (m_key == "procedure" || m_key == "file" || m_key == "line") {
                throw FormatError("'" + m_key + "' of a location must be " + (m_key == "line" ? "an integer" : "a string")
                                      + ", found " + text,
                                  std::int64_t(m_rowIndex));
            }
        } else if (!m_snapshots && m_depth == 1) {
            throw FormatError("expected a row object, found " + text, std::int64_t(m_rowIndex));
        }
        return true;
    }

    bool open(bool object)
    {
        if (m_depth == 0) {
            m_snapshots = object;
        } else if (!m_snapshots && m_depth == 1) {
            if (!object)
                throw FormatError("expected a row object, found an array", std::int64_t(m_rowIndex));
            beginRow();
        } else if (m_snapshots && m_depth == 1 && m_key == "snapshots") {
            m_inSnapshots = !object;
            if (object)
                throw FormatError("'snapshots' must be an array", -1, m_input.offset());
        } else if (m_snapshots && m_depth == 2 && m_inSnapshots) {
            if (!object)
                throw FormatError("expected a snapshot object {t, rows}, found an array", -1, m_input.offset());
            m_inSnapshot = true;
            m_hasTime = false;
            m_held.clear();
        } else if (m_snapshots && m_depth == 3 && m_inSnapshot && m_key == "rows") {
            m_inRows = !object;
        } else if (m_snapshots && m_depth == 4 && m_inRows) {
            beginRow();
        } else if (m_inRow && m_depth == rowDepth() && m_key == "location") {
            m_inLocation = object;
        }
        ++m_depth;
        return true;
    }

    bool close()
    {
        --m_depth;
        if (m_inRow && m_depth == rowDepth() - 1) {
            m_inRow = false;
            if (!m_row.hasProcedure)
                throw FormatError("a row needs \"location\": {\"procedure\": ...}", std::int64_t(m_rowIndex));
            if (m_snapshots) {
                m_held.push_back(m_row);
            } else {
                if (m_rowIndex == 0)
                    m_sink.beginSnapshot(false, 0, 0);
                m_sink.row(m_row, m_rowIndex);
            }
            ++m_rowIndex;
        } else if (m_inLocation && m_depth == rowDepth()) {
            m_inLocation = false;
        } else if (m_snapshots && m_depth == 3 && m_inRows) {
            m_inRows = false;
        } else if (m_snapshots && m_depth == 2 && m_inSnapshot) {
            m_inSnapshot = false;
            if (!m_hasTime)
                throw FormatError("snapshot #" + std::to_string(m_snapshotIndex) + " has no \"t\" (its time in ns)", -1,
                                  m_input.offset());
            m_sink.beginSnapshot(true, m_snapshotTime, m_snapshotIndex++);
            for (std::size_t k = 0; k < m_held.size(); ++k)
                m_sink.row(m_held[k], m_rowIndex - m_held.size() + k);
        } else if (m_snapshots && m_depth == 1 && m_inSnapshots) {
            m_inSnapshots = false;
            m_afterSnapshots = true;
        }
        return true;
    }

    void beginRow()
    {
        m_row = ChroprofJsonReader::Row();
        m_inRow = true;
    }

    ChunkedFileReader& m_input;
    const ChroprofJsonReader::Sink& m_sink;
    std::int64_t m_startOffset;
    int m_depth = 0;
    std::string m_key;
    bool m_snapshots = false;
    bool m_marker = false;
    std::int64_t m_version = 0;
    bool m_inSnapshots = false;
    bool m_afterSnapshots = false;
    bool m_inSnapshot = false;
    bool m_inRows = false;
    bool m_inRow = false;
    bool m_inLocation = false;
    bool m_hasTime = false;
    std::int64_t m_snapshotTime = 0;
    std::uint64_t m_snapshotIndex = 0;
    std::uint64_t m_rowIndex = 0;
    ChroprofJsonReader::Row m_row;
    std::vector<ChroprofJsonReader::Row> m_held;
    jsonsax::SyntaxError m_error;
};

} // namespace

ChroprofJsonReader::ChroprofJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void ChroprofJsonReader::read()
{
    Handler handler(m_input, m_sink);
    const bool complete = Json::sax_parse(m_input.begin(), m_input.end(), &handler, nlohmann::json::input_format_t::json,
                                          /*strict=*/false);
    if (!complete) {
        const jsonsax::SyntaxError& e = handler.error();
        // Snapshots cut short (the process died while writing them) keep
        // the ones before the cut, as an event log does.
        if (!e.atEnd || !handler.snapshotForm() || !handler.hasMarker()
            || !(handler.inSnapshotArray() || handler.afterSnapshotArray()))
            throw FormatError(e.message, handler.currentRow(), e.offset);
        m_diagnostics.warn("truncated file", (handler.inSnapshotArray() ? "the file ends inside the snapshot array after "
                                                                         : "the file ends before its closing '}' after ")
                                                 + std::to_string(handler.snapshotsRead())
                                                 + " snapshot(s); the rest is missing");
    }
    if (handler.snapshotForm()) {
        if (!handler.hasMarker())
            throw FormatError("missing \"chroprofSnapshots\": 1, the marker of Chroprof metric snapshots", -1, 0);
        if (handler.version() != 1)
            throw FormatError(ChroprofFormat::unsupportedVersion(handler.version()), -1, 0);
    }
    if (m_input.skipWhitespace())
        m_diagnostics.warn("trailing data", "bytes after the end of the metrics (byte "
                                                + std::to_string(m_input.offset()) + ") are ignored");
}

} // namespace runlane
