#pragma once

// gzip-compressing test input with zlib, as `gzip` would write it, so that
// tests build their compressed files from text they control.

#include <QByteArray>

#include <zlib.h>

namespace runlane::test {

inline QByteArray gzip(const QByteArray& text, int level = Z_DEFAULT_COMPRESSION)
{
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
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

} // namespace runlane::test
