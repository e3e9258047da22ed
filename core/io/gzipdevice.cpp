#include "gzipdevice.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>
#include <vector>

namespace runlane {

namespace {

// Compressed bytes read from the source at a time.
constexpr std::size_t kInputChunk = 256 * 1024;
constexpr std::size_t kPutBack = 16;

} // namespace

struct GzipDevice::Stream {
    inflate_state state{};
    // Room past a read to put back bytes in front of it (putBack): the
    // first byte of a member's magic split across two reads, or what ISA-L
    // read ahead.
    std::vector<unsigned char> input = std::vector<unsigned char>(kInputChunk + kPutBack);

    // The parts of a member's header (RFC 1952), in order; the optional
    // ones are there if the flags say so.
    enum class Part : std::uint8_t { Fixed, ExtraLength, Extra, Name, Comment, HeaderCrc, Body };
    static constexpr unsigned kHeaderCrc = 2, kExtra = 4, kName = 8, kComment = 16, kReserved = 0xe0;

    Part part = Part::Fixed;
    unsigned flags = 0;
    std::uint32_t crc = 0; // of the header so far, for its CRC-16
    std::array<unsigned char, 10> field{}; // the fixed part, a length, a CRC-16
    std::uint32_t got = 0; // of `field`
    std::uint32_t extraLeft = 0;

    // A member begins: its header comes first.
    void startMember()
    {
        part = Part::Fixed;
        crc = 0;
        got = 0;
    }

    // Reads the header from the input: true once it is whole and the
    // deflate data begins, false when the input is used up first or
    // (with `error` set) the header is wrong, as gzip would refuse it.
    //
    // Why not ISA-L's own header reading (ISAL_GZIP): igzip 2.30 checks a
    // header CRC-16 against the bytes of the last call only, so a header
    // split across two reads (a pipe) failed as corrupt.
    bool readHeader(QString& error)
    {
        while (part != Part::Body) {
            if (state.avail_in == 0)
                return false;
            switch (part) {
            case Part::Fixed:
            case Part::ExtraLength:
            case Part::HeaderCrc: {
                const std::uint32_t need = part == Part::Fixed ? 10 : 2;
                const std::uint32_t n = std::min(need - got, state.avail_in);
                std::memcpy(field.data() + got, state.next_in, n);
                if (part != Part::HeaderCrc)
                    crc = crc32_gzip_refl(crc, state.next_in, n);
                consume(n);
                got += n;
                if (got < need)
                    return false;
                got = 0;
                const unsigned value = field[0] | (unsigned(field[1]) << 8);
                if (part == Part::Fixed) {
                    if (field[0] != 0x1f || field[1] != 0x8b)
                        return refuse(error, QStringLiteral("not a gzip header"));
                    if (field[2] != 8)
                        return refuse(error, QStringLiteral("unknown compression method"));
                    flags = field[3];
                    if (flags & kReserved)
                        return refuse(error, QStringLiteral("unknown header flags set"));
                } else if (part == Part::ExtraLength) {
                    extraLeft = value;
                } else if (value != (crc & 0xffff)) {
                    return refuse(error, QStringLiteral("the header's CRC-16 does not match it"));
                }
                break;
            }
            case Part::Extra: {
                const std::uint32_t n = std::min(extraLeft, state.avail_in);
                crc = crc32_gzip_refl(crc, state.next_in, n);
                consume(n);
                extraLeft -= n;
                if (extraLeft > 0)
                    return false;
                break;
            }
            case Part::Name:
            case Part::Comment: {
                // Up to and with the NUL that ends it.
                const void* end = std::memchr(state.next_in, 0, state.avail_in);
                const auto n = end ? std::uint32_t(static_cast<const std::uint8_t*>(end) - state.next_in) + 1 : state.avail_in;
                crc = crc32_gzip_refl(crc, state.next_in, n);
                consume(n);
                if (!end)
                    return false;
                break;
            }
            case Part::Body:
                break;
            }
            part = nextPart(part);
        }
        startBody();
        return true;
    }

    // The part after `after`: the next optional one the flags ask for.
    Part nextPart(Part after) const
    {
        if (after == Part::ExtraLength)
            return Part::Extra;
        static constexpr std::array<std::pair<Part, unsigned>, 4> optional{
            {{Part::ExtraLength, kExtra}, {Part::Name, kName}, {Part::Comment, kComment}, {Part::HeaderCrc, kHeaderCrc}}};
        for (const auto& candidate : optional) {
            if (candidate.first > after && (flags & candidate.second))
                return candidate.first;
        }
        return Part::Body;
    }

    void consume(std::uint32_t n)
    {
        state.next_in += n;
        state.avail_in -= n;
    }

    static bool refuse(QString& error, const QString& why)
    {
        error = QStringLiteral("invalid gzip header: %1").arg(why);
        return false;
    }

    // The deflate data, then the trailer: ISA-L checks its CRC-32 and length.
    void startBody()
    {
        // init clears the buffers' pointers too; they stay where they are.
        std::uint8_t* in = state.next_in;
        const std::uint32_t available = state.avail_in;
        std::uint8_t* out = state.next_out;
        const std::uint32_t room = state.avail_out;
        isal_inflate_init(&state);
        state.crc_flag = ISAL_GZIP_NO_HDR_VER;
        state.next_in = in;
        state.avail_in = available;
        state.next_out = out;
        state.avail_out = room;
    }

    // Puts `count` (at most kPutBack) bytes back in front of the unread
    // input.
    void putBack(const unsigned char* bytes, std::size_t count)
    {
        std::memmove(input.data() + count, state.next_in, state.avail_in);
        std::memcpy(input.data(), bytes, count);
        state.next_in = input.data();
        state.avail_in += std::uint32_t(count);
    }

    // ISA-L reads input 8 bytes ahead into a bit buffer. At the end of a
    // member, what it holds there is the start of what follows (the next
    // member, or bytes gzip ignores): it goes back in front of the input.
    void putBackReadAhead()
    {
        const auto count = std::size_t(std::max(0, state.read_in_length) / 8);
        const std::uint64_t bits = state.read_in >> (state.read_in_length % 8);
        std::array<unsigned char, 8> bytes{};
        for (std::size_t i = 0; i < count; ++i)
            bytes[i] = static_cast<unsigned char>(bits >> (8 * i));
        putBack(bytes.data(), count);
        state.read_in = 0;
        state.read_in_length = 0;
    }

    // Compressed bytes ISA-L has read but not used yet.
    std::int64_t unused() const { return std::int64_t(state.avail_in) + std::max(0, state.read_in_length) / 8; }
};

namespace {

// What an ISA-L error code means, in the words gzip would use. (The header
// is read here, so the codes about it do not come.)
QString inflateError(int status)
{
    switch (status) {
    case ISAL_INVALID_BLOCK:
        return QStringLiteral("invalid deflate block");
    case ISAL_INVALID_SYMBOL:
        return QStringLiteral("invalid code in a deflate block");
    case ISAL_INVALID_LOOKBACK:
        return QStringLiteral("a back-reference too far back");
    case ISAL_INCORRECT_CHECKSUM:
        return QStringLiteral("the decompressed data does not match the CRC-32 or the length in the gzip trailer");
    default:
        return QStringLiteral("invalid data (code %1)").arg(status);
    }
}

// The text's size the last trailer states (ISIZE, its last 4 bytes: the
// size modulo 2^32), read without moving `source`; -1 if it cannot be read.
std::int64_t trailerTextSize(QIODevice& source, std::int64_t compressedSize)
{
    const qint64 start = source.pos();
    unsigned char isize[4];
    std::int64_t size = -1;
    if (compressedSize >= 18 && source.seek(source.size() - 4) && source.read(reinterpret_cast<char*>(isize), 4) == 4) {
        size = std::int64_t(isize[0]) | (std::int64_t(isize[1]) << 8) | (std::int64_t(isize[2]) << 16)
            | (std::int64_t(isize[3]) << 24);
        // Deflate adds at most 5 bytes a 16 KiB block to the text, and the
        // header a name: a text much smaller than its compressed data has
        // wrapped around 4 GiB.
        while (size + size / 1000 + 65536 < compressedSize)
            size += std::int64_t(1) << 32;
    }
    source.seek(start);
    return size;
}

} // namespace

GzipDevice::GzipDevice(QIODevice& source) : m_source(source), m_stream(std::make_unique<Stream>())
{
    if (!source.isSequential()) {
        m_compressedSize = source.size() - source.pos();
        m_statedTextSize = trailerTextSize(source, m_compressedSize);
    }
    m_stream->startMember();
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

GzipDevice::~GzipDevice() = default;

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

std::int64_t GzipDevice::textSizeHint(const QIODevice& device)
{
    if (const auto* gzip = dynamic_cast<const GzipDevice*>(&device))
        return gzip->statedTextSize() < 0 ? 0 : std::min(gzip->statedTextSize(), gzip->compressedSize() * kMaxRatio);
    return device.isSequential() ? 0 : device.size();
}

void GzipDevice::fail(const QString& why)
{
    m_failed = true;
    setErrorString(why);
}

// Where the bytes read but not yet used begin is where the fault was seen.
void GzipDevice::failCorrupt(const QString& why)
{
    fail(QStringLiteral("the gzip data is corrupt at compressed byte %1: %2").arg(m_compressedRead - m_stream->unused()).arg(why));
}

// More compressed input; false at the source's end (or a read error, which
// is then this device's error).
bool GzipDevice::fillInput()
{
    inflate_state& z = m_stream->state;
    const qint64 got = m_source.read(reinterpret_cast<char*>(m_stream->input.data()), qint64(kInputChunk));
    if (got < 0) {
        fail(QStringLiteral("cannot read the compressed file: %1").arg(m_source.errorString()));
        return false;
    }
    z.next_in = m_stream->input.data();
    z.avail_in = std::uint32_t(got);
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
    inflate_state& z = m_stream->state;
    z.next_out = reinterpret_cast<std::uint8_t*>(data);
    z.avail_out = std::uint32_t(std::min<qint64>(maxSize, 1 << 30));
    const std::uint32_t wanted = z.avail_out;
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
                m_stream->putBack(&first, 1);
            }
            if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
                m_finished = true;
                break;
            }
            m_stream->startMember();
            m_memberEnded = false;
        }
        if (m_stream->part != Stream::Part::Body) {
            QString error;
            if (!m_stream->readHeader(error)) {
                if (error.isEmpty())
                    continue; // more input
                failCorrupt(error);
                break;
            }
        }
        const std::uint32_t inputBefore = z.avail_in;
        const int status = isal_inflate(&z);
        if (status < 0 || status == ISAL_NEED_DICT) {
            failCorrupt(inflateError(status));
            break;
        }
        if (z.block_state == ISAL_BLOCK_FINISH) {
            m_stream->putBackReadAhead();
            m_memberEnded = true;
            continue;
        }
        // ISA-L returns when the input is used up or the output is full;
        // anything else would loop for ever.
        if (z.avail_in > 0 && z.avail_in == inputBefore && z.avail_out == wanted) {
            failCorrupt(inflateError(status));
            break;
        }
    }
    const qint64 produced = qint64(wanted - z.avail_out);
    return m_failed && produced == 0 ? -1 : produced;
}

} // namespace runlane
