#include "chunkedfilereader.h"

#include "gzipdevice.h"
#include "memoryguard.h"

#include "loaderror.h"

#include <algorithm>
#include <cstring>

namespace runlane {

namespace {

// A chunk, or less for a small file: zeroing and faulting in a MiB costs
// more than reading a small profile (and thousands of them in a test run or
// a fuzzing session).
std::size_t bufferSize(const QIODevice& file, std::size_t alreadyRead)
{
    std::size_t size = ChunkedFileReader::kChunkSize;
    if (!file.isSequential())
        size = std::size_t(std::clamp<qint64>(file.size() - file.pos() + 1, 4096, qint64(size)));
    return std::max(size, alreadyRead);
}

} // namespace

ChunkedFileReader::ChunkedFileReader(QIODevice& file, const LoadControl& control, const QByteArray& alreadyRead)
    : m_file(file), m_control(control), m_buffer(bufferSize(file, std::size_t(alreadyRead.size())))
{
    m_size = file.isSequential() ? 0 : file.size();
    // A pipe's pos() says nothing; what was read before is its start.
    m_consumedBefore = file.isSequential() ? 0 : file.pos() - alreadyRead.size();
    std::copy(alreadyRead.begin(), alreadyRead.end(), m_buffer.begin());
    m_len = std::size_t(alreadyRead.size());
}

bool ChunkedFileReader::refill()
{
    if (m_eof)
        return false;
    if (m_control.cancel && m_control.cancel->load(std::memory_order_relaxed))
        throw LoadCancelled();
    m_consumedBefore += std::int64_t(m_len);
    m_pos = 0;
    m_len = 0;
    const qint64 got = m_file.read(m_buffer.data(), qint64(m_buffer.size()));
    if (got < 0) {
        m_failed = true;
        m_eof = true;
        return false;
    }
    if (got == 0) {
        m_eof = true;
        return false;
    }
    m_len = std::size_t(got);
    if (m_limitStrings)
        scanStrings(0);
    if (m_control.memory)
        m_control.memory->checkWhileReading(m_consumedBefore + got);
    if (m_control.progress) {
        const auto [done, total] = GzipDevice::progress(m_file, m_consumedBefore + got);
        m_control.progress(done, total);
    }
    return true;
}

void ChunkedFileReader::limitJsonStrings()
{
    m_limitStrings = true;
    scanStrings(m_pos);
}

// Outside strings it jumps from quote to quote; inside, from quote or
// backslash to the next: memchr speed, whatever the text.
void ChunkedFileReader::scanStrings(std::size_t from)
{
    auto checkLength = [this](std::size_t upTo) {
        if (m_consumedBefore + std::int64_t(upTo) - m_stringStart > std::int64_t(kMaxJsonString))
            throw FormatError("a string of more than " + std::to_string(kMaxJsonString >> 20)
                                  + " MiB starts here; no profile has names or values that long",
                              -1, m_stringStart);
    };
    const char* data = m_buffer.data();
    std::size_t i = from;
    while (i < m_len) {
        if (!m_inString) {
            const void* quote = std::memchr(data + i, '"', m_len - i);
            if (!quote)
                return;
            i = std::size_t(static_cast<const char*>(quote) - data) + 1;
            m_inString = true;
            m_escaped = false;
            m_stringStart = m_consumedBefore + std::int64_t(i) - 1;
        } else if (m_escaped) {
            m_escaped = false;
            ++i;
        } else {
            const void* quote = std::memchr(data + i, '"', m_len - i);
            const std::size_t end = quote ? std::size_t(static_cast<const char*>(quote) - data) : m_len;
            if (const void* backslash = std::memchr(data + i, '\\', end - i)) {
                i = std::size_t(static_cast<const char*>(backslash) - data) + 1;
                m_escaped = true;
            } else {
                checkLength(end);
                i = quote ? end + 1 : m_len;
                m_inString = quote == nullptr;
            }
        }
    }
    if (m_inString)
        checkLength(m_len);
}

std::int64_t ChunkedFileReader::textSizeHint() const
{
    return GzipDevice::textSizeHint(m_file);
}

bool ChunkedFileReader::skipWhitespace()
{
    for (;;) {
        const int c = peek();
        if (c < 0)
            return false;
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return true;
        ++m_pos;
    }
}

std::string ChunkedFileReader::errorString() const
{
    return m_file.errorString().toStdString();
}

} // namespace runlane
