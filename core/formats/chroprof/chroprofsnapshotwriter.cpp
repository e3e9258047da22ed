#include "chroprofsnapshotwriter.h"

#include "jsontext.h"

#include <QFileDevice>

#include <algorithm>
#include <charconv>
#include <utility>

namespace runlane {

namespace {

template<typename Integer>
void appendInteger(Integer value, std::string& out)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, result.ptr);
}

} // namespace

ChroprofSnapshotWriter::ChroprofSnapshotWriter(QIODevice* out) : m_out(out) { }

void ChroprofSnapshotWriter::serialize(const ScrapedSnapshot& snapshot, std::string& out)
{
    out += "{\"t\": ";
    appendInteger(snapshot.time, out);
    out += ", \"rows\": [";
    bool first = true;
    for (const NamedAggregateRow& row : snapshot.rows) {
        const AggregateRow& v = row.values;
        out += first ? "" : ", ";
        first = false;
        out += "{\"location\": {\"procedure\": ";
        JsonText::appendString(out, row.procedure);
        out += ", \"file\": ";
        JsonText::appendString(out, row.file);
        out += ", \"line\": ";
        appendInteger(row.line, out);
        out += '}';
        // The reader's keys, in the order Chroprof's JSON export has them;
        // the reader takes no negative time, so none is written.
        const auto time = [](Time t) { return std::uint64_t(std::max<Time>(t, 0)); };
        const std::pair<std::string_view, std::uint64_t> fields[] = {
            {"execTime", time(v.exec)},
            {"execTimeMax", time(v.execMax)},
            {"childrenExecTime", time(v.childrenExec)},
            {"wallClockTime", time(v.wall)},
            {"callCount", v.calls},
            {"stillbornCount", v.stillborn},
            {"zombieEventCount", v.zombieEvents},
        };
        for (const auto& [key, value] : fields) {
            out += ", \"";
            out += key;
            out += "\": ";
            appendInteger(value, out);
        }
        out += '}';
    }
    out += "]}";
}

bool ChroprofSnapshotWriter::put(const std::string& bytes)
{
    if (!m_out || !m_out->isWritable()) {
        m_error = QStringLiteral("the output is not open for writing");
        return false;
    }
    if (m_out->write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
        m_error = m_out->errorString();
        return false;
    }
    // Into the file now, not when a buffer fills: what a killed process
    // leaves must end at a snapshot's edge or inside the next one.
    if (auto* file = qobject_cast<QFileDevice*>(m_out); file && !file->flush()) {
        m_error = file->errorString();
        return false;
    }
    return true;
}

bool ChroprofSnapshotWriter::begin()
{
    if (m_begun) {
        m_error = QStringLiteral("begin() called twice");
        return false;
    }
    m_begun = true;
    return put("{\"chroprofSnapshots\": 1, \"snapshots\": [\n");
}

bool ChroprofSnapshotWriter::write(const ScrapedSnapshot& snapshot)
{
    if (!m_begun || m_finished) {
        m_error = QStringLiteral("write() outside begin() ... finish()");
        return false;
    }
    m_buffer.clear();
    // The separator goes before a snapshot, not after: a file cut between
    // two writes ends right after a complete one.
    if (m_written > 0)
        m_buffer += ",\n";
    serialize(snapshot, m_buffer);
    if (!put(m_buffer))
        return false;
    ++m_written;
    return true;
}

bool ChroprofSnapshotWriter::finish()
{
    if (!m_begun || m_finished) {
        m_error = QStringLiteral("finish() without begin(), or twice");
        return false;
    }
    m_finished = true;
    return put("\n]}\n");
}

} // namespace runlane
