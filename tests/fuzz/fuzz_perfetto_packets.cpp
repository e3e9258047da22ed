// libFuzzer target: the Perfetto reader past its framing. fuzz_perfetto
// (fuzz_loader.cpp) hands the reader the input as a whole file, where most
// mutations break the Trace's framing or its first packet and stop there;
// this target puts the input where the reader's deeper code sees it, after
// a valid start (a process and thread track, a clock snapshot with an
// incremental clock, the sequence's defaults and interned names):
//   1. the input as the rest of the Trace (packets of any kind),
//   2. the input as one TrackEvent's body on that sequence,
//   3. the input deflated into a compressed_packets run, which random bytes
//      could never reach through zlib,
//   4. and the same in one zstd frame, a zstd_compressed_packets run.
// Each goes through the loader with the format forced, then every analysis.
// A crash, hang, leak or sanitizer report is a bug; an error result is fine.
#include "../core/formats/common/protoencoder.h"
#include "analyseprofile.h"
#include "formatregistry.h"
#include "profileloader.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>
#include <zstd.h>

#include <cstdint>
#include <cstdlib>

using namespace runlane;
using runlane::test::ProtoEncoder;

namespace {

// A TracePacket on sequence 1, in a Trace.
QByteArray packet(const ProtoEncoder& fields)
{
    return ProtoEncoder().message(1, ProtoEncoder().varint(10, 1).raw(fields.data())).data();
}

// Process 10 "app" (uuid 100), its thread 11 "main" (uuid 1) as the
// sequence's default track, BOOTTIME 1,000,000 = clock 64 (incremental,
// 1,000 ns units) at 500 as the default clock, event names 1 and 2, and a
// slice begun.
const QByteArray& preamble()
{
    static const QByteArray start = [] {
        QByteArray t;
        t += packet(ProtoEncoder().message(
            60, ProtoEncoder().varint(1, 100).message(3, ProtoEncoder().varint(1, 10).bytes(6, "app"))));
        t += packet(ProtoEncoder().message(
            60, ProtoEncoder().varint(1, 1).varint(5, 100).message(
                    4, ProtoEncoder().varint(1, 10).varint(2, 11).bytes(5, "main"))));
        t += packet(ProtoEncoder().varint(13, 1).message(
            6, ProtoEncoder()
                   .message(1, ProtoEncoder().varint(1, 6).varint(2, 1000000))
                   .message(1, ProtoEncoder().varint(1, 64).varint(2, 500).varint(3, 1).varint(4, 1000))));
        t += packet(ProtoEncoder()
                        .varint(13, 2)
                        .message(59, ProtoEncoder().varint(58, 64).message(11, ProtoEncoder().varint(11, 1)))
                        .message(12, ProtoEncoder()
                                         .message(2, ProtoEncoder().varint(1, 1).bytes(2, "alpha"))
                                         .message(2, ProtoEncoder().varint(1, 2).bytes(2, "beta"))));
        t += packet(ProtoEncoder().varint(8, 10).varint(13, 2).message(11, ProtoEncoder().varint(9, 1).varint(10, 1)));
        return t;
    }();
    return start;
}

QString inputPath()
{
    const QString dir = QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
    return QStringLiteral("%1/runlane-fuzz-perfetto-%2.pftrace").arg(dir).arg(::getpid());
}

void load(const QByteArray& trace)
{
    static const QString path = inputPath();
    static const InputFormat* const format = FormatRegistry::find("perfetto");
    if (!format)
        std::abort(); // the build has no Perfetto format
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(trace) != trace.size())
            std::abort(); // the harness itself is broken
    }
    const LoadResult result = ProfileLoader::load(path, {}, format);
    if (result.ok())
        fuzz::analyseProfile(*result.profile);
    else if (result.error.message.empty())
        std::abort(); // every failure must say what went wrong
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray input(reinterpret_cast<const char*>(data), qsizetype(size));
    load(preamble() + input);
    load(preamble() + packet(ProtoEncoder().varint(8, 5).varint(13, 2).bytes(11, input)));
    // qCompress writes the length first (4 bytes), then zlib's stream.
    load(preamble() + packet(ProtoEncoder().bytes(50, qCompress(input).mid(4))));
    QByteArray frame(qsizetype(ZSTD_compressBound(size)), '\0');
    const std::size_t framed = ZSTD_compress(frame.data(), std::size_t(frame.size()), data, size, 1);
    if (ZSTD_isError(framed))
        std::abort(); // the harness itself is broken
    frame.resize(qsizetype(framed));
    load(preamble() + packet(ProtoEncoder().bytes(133, frame)));
    return 0;
}
