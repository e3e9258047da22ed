// libFuzzer target: the gzip layer under every reader (GzipDevice), alone.
// The loader targets reach it too, but through a format's probe that gives
// up at the first bytes of text that are not its own; here every input is
// decompressed to its end. Checked besides "no crash, no leak, no hang":
// - the result does not depend on how the reader slices its reads (chunks
//   of every size from 1 byte to 1 MiB, chosen by the input's own bytes
//   for the first 64 Ki reads, against 64 KiB reads): the same text, or
//   the same error (see agree());
// - progress (compressed bytes consumed) never goes back and never passes
//   the input's size;
// - what decompressed, compressed again (zlib, gzip wrapper) and read back,
//   is the same text;
// - zlib, the reference gzip reader, reading the input the same way (member
//   after member, bytes after the last one ignored) gets the same text and
//   the same verdict: GzipDevice inflates with ISA-L, which must neither
//   accept what zlib refuses nor refuse what it accepts.
#include "../gzipsupport.h"
#include "gzipdevice.h"

#include <QBuffer>

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace runlane;

namespace {

// Decompressed text beyond this is not read: a 64 KiB input may inflate
// to 64 MiB, and read a byte at a time that would be a hang.
constexpr qsizetype kLimit = 4 << 20;

// Reads whose sizes the input's bytes choose; the rest are 64 KiB. Even to
// kLimit, reads of a byte or two are too many: a 64 KiB input of bytes
// small modulo 21 that inflates to kLimit took 3.6 M reads, 3.3 s under
// ASan alone, and CI once stopped at a "slow unit" of 12 s beside another
// target. 64 Ki reads let each byte of the largest input (-max_len)
// choose one.
constexpr std::size_t kSlicedReads = 1 << 16;

struct Outcome {
    QByteArray text;
    bool failed = false;
    QString error; // GzipDevice's message
    bool limited = false; // stopped at kLimit, the end not reached
};

// Two readings of one input agree: read to the end, the same verdict (and,
// both from GzipDevice, the same message); the text is the same, or one
// is a prefix of the other where one of them stopped early. Where both
// failed, the last window (32 KiB) before the failure may differ: what a
// decoder writes from corrupt data before it notices is garbage, and
// ISA-L's depends on how much room it had to write into. The verdict and
// the message do not.
bool agree(const Outcome& a, const Outcome& b, bool sameMessage)
{
    if (!a.limited && !b.limited) {
        if (a.failed != b.failed || (sameMessage && a.error != b.error))
            return false;
        if (!a.failed && a.text != b.text)
            return false;
    }
    qsizetype common = std::min(a.text.size(), b.text.size());
    if (a.failed && b.failed)
        common = std::max<qsizetype>(0, common - 32768);
    return a.text.left(common) == b.text.left(common);
}

// Decompresses `input`, reads of `sizeOf(n)` bytes for the n-th read.
template<typename SizeOf>
Outcome decompress(const QByteArray& input, SizeOf sizeOf)
{
    QByteArray copy = input;
    QBuffer source(&copy);
    source.open(QIODevice::ReadOnly);
    GzipDevice gzip(source);
    gzip.open(QIODevice::ReadOnly);
    Outcome outcome;
    std::int64_t lastPosition = 0;
    for (std::size_t n = 0;; ++n) {
        const qint64 want = sizeOf(n);
        QByteArray chunk(want, Qt::Uninitialized);
        const qint64 got = gzip.read(chunk.data(), want);
        if (gzip.compressedPosition() < lastPosition || gzip.compressedPosition() > input.size())
            std::abort(); // progress went back or past the file
        lastPosition = gzip.compressedPosition();
        if (got < 0) {
            if (gzip.errorString().isEmpty())
                std::abort(); // a read error must say what went wrong
            outcome.failed = true;
            outcome.error = gzip.errorString();
            return outcome;
        }
        if (got == 0)
            return outcome;
        outcome.text.append(chunk.constData(), got);
        if (outcome.text.size() >= kLimit) {
            outcome.text.truncate(kLimit);
            outcome.limited = true;
            return outcome;
        }
    }
}

// What zlib makes of `input`, read as GzipDevice reads it.
Outcome zlibReference(const QByteArray& input)
{
    Outcome outcome;
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        std::abort();
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.constData()));
    z.avail_in = uInt(input.size());
    QByteArray chunk(1 << 16, Qt::Uninitialized);
    for (;;) {
        z.next_out = reinterpret_cast<Bytef*>(chunk.data());
        z.avail_out = uInt(chunk.size());
        const int status = inflate(&z, Z_NO_FLUSH);
        outcome.text.append(chunk.constData(), chunk.size() - qsizetype(z.avail_out));
        if (outcome.text.size() >= kLimit) {
            outcome.text.truncate(kLimit);
            outcome.limited = true;
            break;
        }
        if (status == Z_STREAM_END) {
            // Another member, or the end of what gzip reads.
            if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b)
                break;
            inflateReset(&z);
            continue;
        }
        if (status != Z_OK || (z.avail_in == 0 && z.avail_out > 0)) {
            outcome.failed = true; // corrupt, or cut short
            break;
        }
    }
    inflateEnd(&z);
    return outcome;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    const Outcome plain = decompress(input, [](std::size_t) { return qint64(1) << 16; });
    // Read sizes from the input's bytes: 1, 2, ..., up to 1 MiB.
    const Outcome sliced = decompress(input, [data, size](std::size_t n) {
        if (n >= kSlicedReads)
            return qint64(1) << 16;
        const std::uint8_t b = size ? data[n % size] : 0;
        return qint64(1) << (b % 21);
    });
    if (!agree(plain, sliced, true))
        std::abort(); // the slicing of reads changed the result
    if (!agree(plain, zlibReference(input), false))
        std::abort(); // ISA-L and zlib disagree
    if (!plain.failed && !plain.limited && !plain.text.isEmpty()) {
        const Outcome again = decompress(runlane::test::gzip(plain.text), [](std::size_t) { return qint64(1) << 16; });
        if (again.failed || again.text != plain.text)
            std::abort(); // a stream zlib wrote did not read back
    }
    return 0;
}
