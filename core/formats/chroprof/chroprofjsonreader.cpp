#include "chroprofjsonreader.h"

#include "chroprofformat.h"

#include "jsonsaxhandler.h"

#include <vector>

namespace runlane {

namespace {

// Depths count open containers. Bare rows: a row's fields at depth 2, its
// location's at 3. Snapshots: a snapshot's fields at 3, a row's at 5, its
// location's at 6. A snapshot's rows are held until its "t" is known, since
// JSON keys come in any order.
class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, const ChroprofJsonReader::Sink& sink) : JsonSaxHandler(input), m_sink(sink) { }

    bool snapshotForm() const { return m_snapshots; }
    bool inSnapshotArray() const { return m_inSnapshots; }
    // The array is closed, the object not: a cut in the file's last bytes.
    bool afterSnapshotArray() const { return m_afterSnapshots; }
    std::uint64_t snapshotsRead() const { return m_snapshotIndex; }
    bool hasMarker() const { return m_marker; }
    std::int64_t version() const { return m_version; }
    std::int64_t currentRow() const { return m_inRow ? std::int64_t(m_rowIndex) : -1; }

private:
    friend JsonSaxHandler<Handler>;

    int rowDepth() const { return m_snapshots ? 5 : 2; }

    void metric(std::int64_t& slot, const JsonScalar& v)
    {
        if (!v.isInt64() || v.int64() < 0)
            throw FormatError("'" + lastKey() + "' must be a non-negative integer (nanoseconds or a count), found "
                                  + (v.kind == JsonScalar::String ? "\"" + jsonsax::describeScalar(v.plain()) + "\"" : v.plain()),
                              std::int64_t(m_rowIndex));
        slot = v.int64();
    }

    void scalar(const JsonScalar& v)
    {
        const std::string& key = lastKey();
        if (depth() == 0)
            throw FormatError("expected '[' (rows) or '{' (snapshots) at the start of Chroprof metrics", -1, 0);
        if (m_snapshots && depth() == 1 && key == "chroprofSnapshots") {
            if (!v.isInt64())
                throw FormatError("'chroprofSnapshots' must be the format version, an integer", -1, input().offset());
            m_marker = true;
            m_version = v.int64();
        } else if (m_snapshots && depth() == 3 && m_inSnapshot && key == "t") {
            if (!v.isInt64())
                throw FormatError("'t' of a snapshot must be integer nanoseconds, found " + v.plain(), -1, input().offset());
            m_snapshotTime = v.int64();
            m_hasTime = true;
        } else if (m_inRow && depth() == rowDepth()) {
            ChroprofJsonReader::Row& r = m_row;
            if (key == "execTime")
                metric(r.execTime, v);
            else if (key == "execTimeMax")
                metric(r.execTimeMax, v);
            else if (key == "childrenExecTime")
                metric(r.childrenExecTime, v);
            else if (key == "wallClockTime")
                metric(r.wallClockTime, v);
            else if (key == "callCount")
                metric(r.callCount, v);
            else if (key == "stillbornCount")
                metric(r.stillbornCount, v);
            else if (key == "zombieEventCount")
                metric(r.zombieEventCount, v);
            else if (key == "location")
                throw FormatError("'location' must be an object {procedure, file, line}", std::int64_t(m_rowIndex));
        } else if (m_inLocation && depth() == rowDepth() + 1) {
            if (key == "procedure" && v.kind == JsonScalar::String) {
                m_row.procedure = v.text;
                m_row.hasProcedure = true;
            } else if (key == "file" && v.kind == JsonScalar::String) {
                m_row.file = v.text;
            } else if (key == "line" && v.isInt64()) {
                m_row.line = v.int64();
            } else if (key == "procedure" || key == "file" || key == "line") {
                throw FormatError("'" + key + "' of a location must be " + (key == "line" ? "an integer" : "a string")
                                      + ", found " + v.plain(),
                                  std::int64_t(m_rowIndex));
            }
        } else if (!m_snapshots && depth() == 1) {
            throw FormatError("expected a row object, found " + v.plain(), std::int64_t(m_rowIndex));
        }
    }

    void open(char bracket)
    {
        const bool object = bracket == '{';
        const std::string& key = lastKey();
        if (depth() == 0) {
            m_snapshots = object;
        } else if (!m_snapshots && depth() == 1) {
            if (!object)
                throw FormatError("expected a row object, found an array", std::int64_t(m_rowIndex));
            beginRow();
        } else if (m_snapshots && depth() == 1 && key == "snapshots") {
            m_inSnapshots = !object;
            if (object)
                throw FormatError("'snapshots' must be an array", -1, input().offset());
        } else if (m_snapshots && depth() == 2 && m_inSnapshots) {
            if (!object)
                throw FormatError("expected a snapshot object {t, rows}, found an array", -1, input().offset());
            m_inSnapshot = true;
            m_hasTime = false;
            m_held.clear();
        } else if (m_snapshots && depth() == 3 && m_inSnapshot && key == "rows") {
            m_inRows = !object;
        } else if (m_snapshots && depth() == 4 && m_inRows) {
            beginRow();
        } else if (m_inRow && depth() == rowDepth() && key == "location") {
            m_inLocation = object;
        }
    }

    void close(char)
    {
        if (m_inRow && depth() == rowDepth() - 1) {
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
        } else if (m_inLocation && depth() == rowDepth()) {
            m_inLocation = false;
        } else if (m_snapshots && depth() == 3 && m_inRows) {
            m_inRows = false;
        } else if (m_snapshots && depth() == 2 && m_inSnapshot) {
            m_inSnapshot = false;
            if (!m_hasTime)
                throw FormatError("snapshot #" + std::to_string(m_snapshotIndex) + " has no \"t\" (its time in ns)", -1,
                                  input().offset());
            m_sink.beginSnapshot(true, m_snapshotTime, m_snapshotIndex++);
            for (std::size_t k = 0; k < m_held.size(); ++k)
                m_sink.row(m_held[k], m_rowIndex - m_held.size() + k);
        } else if (m_snapshots && depth() == 1 && m_inSnapshots) {
            m_inSnapshots = false;
            m_afterSnapshots = true;
        }
    }

    void beginRow()
    {
        m_row = ChroprofJsonReader::Row();
        m_inRow = true;
    }

    const ChroprofJsonReader::Sink& m_sink;
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
};

} // namespace

ChroprofJsonReader::ChroprofJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void ChroprofJsonReader::read()
{
    Handler handler(m_input, m_sink);
    if (!handler.parse()) {
        const jsonsax::SyntaxError& e = handler.syntaxError();
        // Snapshots cut short (the process died while writing them) keep
        // the ones before the cut, as an event log does.
        if (!e.atEnd || !handler.snapshotForm() || !handler.hasMarker()
            || !(handler.inSnapshotArray() || handler.afterSnapshotArray()))
            handler.throwSyntaxError(handler.currentRow());
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
