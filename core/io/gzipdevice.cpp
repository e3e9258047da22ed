#include "gzipdevice.h"

#include <zlib.h>

#include <algorithm>
#include <vector>

namespace runlane {

namespace {

// Compressed bytes read from the source at a time.
constexpr std::size_t kInputChunk = 256 * 1024;

} // namespace

struct GzipDevice::Stream {
    z_stream z{};
    // One byte more than a read: room to put back the first byte of a
    // member's magic split across two reads.
    std::vector<unsigned char> input = std::vector<unsigned char>(kInputChunk + 1);
    bool initialised = false;
};

GzipDevice::GzipDevice(QIODevice& source) : m_source(source), m_stream(std::make_unique<Stream>())
{
    if (!source.isSequential())
        m_compressedSize = source.size() - source.pos();
    // 16 + MAX_WBITS: a gzip header and trailer around the deflate data.
    m_stream->initialised = inflateInit2(&m_stream->z, 16 + MAX_WBITS) == Z_OK;
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    if (!m_stream->initialised)
        fail(QStringLiteral("cannot start decompressing: zlib could not be initialised"));
}

GzipDevice::~GzipDevice()
{
    if (m_stream->initialised)
        inflateEnd(&m_stream->z);
}

bool GzipDevice::isGzip(const QByteArray& bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::pair<std::int64_t, std::int64_t> GzipDevice::progress(const QIODevice& device, std::int64_t consumed)
{
    if (const auto* gzip = dynamic_cast<const GzipDevice*>(&device)) {
        const std::int64_t done = gzip->compressedPosition();
        return {done, std::max<std::int64_t>(gzip->compressedSize(), done)};
    }
    const std::int64_t size = device.isSequential() ? 0 : device.size();
    return {consumed, std::max(size, consumed)};
}

void GzipDevice::fail(const QString& why)
{
    m_failed = true;
    setErrorString(why);
}

// More compressed input; false at the source's end (or a read error, which
// is then this device's error).
bool GzipDevice::fillInput()
{
    z_stream& z = m_stream->z;
    const qint64 got = m_source.read(reinterpret_cast<char*>(m_stream->input.data()), qint64(kInputChunk));
    if (got < 0) {
        fail(QStringLiteral("cannot read the compressed file: %1").arg(m_source.errorString()));
        return false;
    }
    z.next_in = m_stream->input.data();
    z.avail_in = uInt(got);
    m_compressedRead += got;
    return got > 0;
}

qint64 GzipDevice::readData(char* data, qint64 maxSize)
{
    // What was decompressed before an error is handed out first; the
    // error comes with the next read.
    if (m_failed)
        return -1;
    if (m_finished || maxSize <= 0)
        return 0;
    z_stream& z = m_stream->z;
    z.next_out = reinterpret_cast<unsigned char*>(data);
    z.avail_out = uInt(std::min<qint64>(maxSize, 1 << 30));
    const uInt wanted = z.avail_out;
    while (z.avail_out == wanted) {
        if (z.avail_in == 0 && !fillInput()) {
            if (m_failed)
                break;
            if (!m_memberEnded) {
                fail(QStringLiteral("the gzip stream is cut short: it ends after %1 compressed bytes, "
                                    "in the middle of its data (an incomplete download or copy?)")
                         .arg(m_compressedRead));
                break;
            }
            m_finished = true;
            break;
        }
        if (m_memberEnded) {
            // After a member: another one, or the end of what gzip reads.
            if (z.avail_in == 1 && z.next_in[0] == 0x1f) {
                // The magic is split across two reads: keep the byte.
                const unsigned char first = z.next_in[0];
                if (!fillInput()) {
                    if (m_failed)
                        break;
                    m_finished = true;
                    break;
                }
                // Put the kept byte back in front of what was just read.
                std::vector<unsigned char>& in = m_stream->input;
                std::move_backward(in.begin(), in.begin() + z.avail_in, in.begin() + z.avail_in + 1);
                in[0] = first;
                z.next_in = in.data();
                ++z.avail_in;
            }
            if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
                m_finished = true;
                break;
            }
            inflateReset(&z);
            m_memberEnded = false;
        }
        const int status = inflate(&z, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            m_memberEnded = true;
            continue;
        }
        const bool stuck = status == Z_BUF_ERROR && z.avail_in > 0 && z.avail_out == wanted;
        if ((status != Z_OK && status != Z_BUF_ERROR) || stuck) {
            const std::int64_t at = m_compressedRead - std::int64_t(z.avail_in);
            fail(QStringLiteral("the gzip data is corrupt at compressed byte %1: %2")
                     .arg(at)
                     .arg(QString::fromLatin1(z.msg ? z.msg : "invalid data")));
            break;
        }
    }
    const qint64 produced = qint64(wanted - z.avail_out);
    return m_failed && produced == 0 ? -1 : produced;
}

} // namespace runlane
