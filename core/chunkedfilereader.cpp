#include "chunkedfilereader.h"

#include "memoryguard.h"

#include "loaderror.h"

#include <algorithm>

namespace runlane {

ChunkedFileReader::ChunkedFileReader(QFile& file, const LoadControl& control, const QByteArray& alreadyRead)
    : m_file(file), m_control(control), m_buffer(std::max<std::size_t>(kChunkSize, std::size_t(alreadyRead.size())))
{
    m_size = file.isSequential() ? 0 : file.size();
    m_consumedBefore = file.pos() - alreadyRead.size();
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
    if (m_control.memory)
        m_control.memory->checkWhileReading(m_consumedBefore + got);
    if (m_control.progress)
        m_control.progress(m_consumedBefore + got, std::max<std::int64_t>(m_size, m_consumedBefore + got));
    return true;
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
