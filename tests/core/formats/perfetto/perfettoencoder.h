#pragma once

// Perfetto packets written by hand for the Perfetto reader's tests, field
// numbers from google/perfetto's perfetto_trace.proto. Independent of the
// reader under test: only ProtoEncoder's wire format.

#include "core/formats/common/protoencoder.h"

#include <QByteArray>

#include <zstd.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace runlane::test::perfetto {

enum Type : std::uint64_t { SliceBegin = 1, SliceEnd = 2, Instant = 3, Counter = 4 };
enum Flags : std::uint64_t { Cleared = 1, NeedsState = 2 };

// A Trace: the packets as its field 1.
inline QByteArray trace(std::initializer_list<ProtoEncoder> packets)
{
    ProtoEncoder t;
    for (const ProtoEncoder& p : packets)
        t.message(1, p);
    return t.data();
}

inline ProtoEncoder onSequence(std::uint64_t sequence)
{
    ProtoEncoder p;
    p.varint(10, sequence);
    return p;
}

inline ProtoEncoder threadTrack(std::uint64_t uuid, std::uint64_t pid, std::uint64_t tid, const QByteArray& name,
                                std::uint64_t parent = 0)
{
    ProtoEncoder d;
    d.varint(1, uuid);
    if (parent)
        d.varint(5, parent);
    d.message(4, ProtoEncoder().varint(1, pid).varint(2, tid).bytes(5, name));
    return ProtoEncoder().varint(10, 1).message(60, d);
}

inline ProtoEncoder processTrack(std::uint64_t uuid, std::uint64_t pid, const QByteArray& name)
{
    ProtoEncoder d;
    d.varint(1, uuid).message(3, ProtoEncoder().varint(1, pid).bytes(6, name));
    return ProtoEncoder().varint(10, 1).message(60, d);
}

// A track that is neither process nor thread: async under `parent`, or a
// counter with `counter` as its CounterDescriptor.
inline ProtoEncoder childTrack(std::uint64_t uuid, std::uint64_t parent, const QByteArray& name,
                               const ProtoEncoder* counter = nullptr)
{
    ProtoEncoder d;
    d.varint(1, uuid).varint(5, parent).bytes(2, name);
    if (counter)
        d.message(8, *counter);
    return ProtoEncoder().varint(10, 1).message(60, d);
}

// A TrackEvent packet on sequence 1 (the body's other fields given by the caller).
inline ProtoEncoder trackEvent(std::uint64_t ts, std::uint64_t type, const ProtoEncoder& body, std::uint64_t sequence = 1)
{
    ProtoEncoder e;
    e.varint(9, type).raw(body.data());
    return ProtoEncoder().varint(8, ts).varint(10, sequence).message(11, e);
}

inline ProtoEncoder slice(std::uint64_t ts, std::uint64_t type, std::uint64_t track, const QByteArray& name = {})
{
    ProtoEncoder body;
    body.varint(11, track);
    if (!name.isEmpty())
        body.bytes(23, name);
    return trackEvent(ts, type, body);
}

inline ProtoEncoder eventName(std::uint64_t iid, const QByteArray& name)
{
    return ProtoEncoder().varint(1, iid).bytes(2, name);
}

// zlib's deflate (qCompress without its 4-byte length) of the packets.
inline ProtoEncoder compressed(std::initializer_list<ProtoEncoder> packets, std::uint64_t sequence = 1)
{
    const QByteArray z = qCompress(trace(packets)).mid(4);
    return ProtoEncoder().varint(10, sequence).bytes(50, z);
}

// One zstd frame of the packets (zstd_compressed_packets), as the tracing
// service writes it.
inline QByteArray zstdFrame(const QByteArray& bytes)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(bytes.size()))), '\0');
    const std::size_t size = ZSTD_compress(out.data(), std::size_t(out.size()), bytes.constData(), std::size_t(bytes.size()), 3);
    out.resize(ZSTD_isError(size) ? 0 : qsizetype(size));
    return out;
}

inline ProtoEncoder zstdCompressed(std::initializer_list<ProtoEncoder> packets, std::uint64_t sequence = 1)
{
    return ProtoEncoder().varint(10, sequence).bytes(133, zstdFrame(trace(packets)));
}

} // namespace runlane::test::perfetto
