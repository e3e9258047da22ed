#include "chroprofsnapshotwriter.h"

#include <QFileDevice>

#include <charconv>

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

void ChroprofSnapshotWriter::appendJsonString(std::string_view text, std::string& out)
{
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t plain = 0; // start of the run of bytes copied as they are
    for (std::size_t k = 0; k < text.size(); ++k) {
        const auto c = static_cast<unsigned char>(text[k]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(text.substr(plain, k - plain));
        plain = k + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    out.append(text.substr(plain));
    out += '"';
}

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
        appendJsonString(row.procedure, out);
        out += ", \"file\": ";
        appendJsonString(row.file, out);
        out += ", \"line\": ";
        appendInteger(row.line, out);
        out += "}, \"execTime\": ";
        appendInteger(v.exec, out);
        out += ", \"execTimeMax\": ";
        appendInteger(v.execMax, out);
        out += ", \"childrenExecTime\": ";
        appendInteger(v.childrenExec, out);
        out += ", \"wallClockTime\": ";
        appendInteger(v.wall, out);
        out += ", \"callCount\": ";
        appendInteger(v.calls, out);
        out += ", \"stillbornCount\": ";
        appendInteger(v.stillborn, out);
        out += ", \"zombieEventCount\": ";
        appendInteger(v.zombieEvents, out);
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
