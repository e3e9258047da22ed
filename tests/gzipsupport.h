#pragma once

// gzip-compressing test input with zlib, as `gzip` would write it, so that
// tests build their compressed files from text they control.

#include <QByteArray>

#include <zlib.h>

namespace runlane::test {

// zlib's deflate of `text`: a gzip member with `windowBits` 16 + MAX_WBITS,
// raw deflate data (no wrapper) with -MAX_WBITS; stored blocks at level 0,
// fixed codes with the strategy Z_FIXED.
inline QByteArray deflated(const QByteArray& text, int level, int windowBits, int strategy = Z_DEFAULT_STRATEGY)
{
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, windowBits, 8, strategy) != Z_OK)
        return {};
    QByteArray out(int(deflateBound(&z, uLong(text.size()))) + 64, Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.constData()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    const int status = deflate(&z, Z_FINISH);
    out.truncate(qsizetype(z.total_out));
    deflateEnd(&z);
    return status == Z_STREAM_END ? out : QByteArray();
}

inline QByteArray gzip(const QByteArray& text, int level = Z_DEFAULT_COMPRESSION)
{
    return deflated(text, level, 16 + MAX_WBITS);
}

} // namespace runlane::test
