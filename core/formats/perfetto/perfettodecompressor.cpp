#include "perfettodecompressor.h"

#include "loaderror.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <memory>

namespace runlane {

namespace {

constexpr std::size_t kSlice = 256 * 1024;

} // namespace

std::string PerfettoDecompressor::inflate(std::string_view bytes, std::int64_t offset)
{
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK)
        throw FormatError("compressed packets: zlib could not start", -1, offset);
    std::string out;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = uInt(std::min<std::size_t>(bytes.size(), UINT32_MAX));
    int status = Z_OK;
    while (status == Z_OK) {
        if (out.size() >= kMaxExpanded) {
            inflateEnd(&zs);
            throw FormatError("compressed packets inflate to more than 1 GiB", -1, offset);
        }
        const std::size_t was = out.size();
        out.resize(was + kSlice);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + was);
        zs.avail_out = kSlice;
        status = ::inflate(&zs, Z_NO_FLUSH);
        out.resize(out.size() - zs.avail_out);
        if (status == Z_BUF_ERROR && zs.avail_in == 0)
            break;
        if (status == Z_BUF_ERROR)
            status = Z_OK; // more room was all it needed
    }
    inflateEnd(&zs);
    if (status != Z_STREAM_END)
        throw FormatError(status == Z_BUF_ERROR ? std::string("compressed packets are cut short")
                                                : "compressed packets are not valid zlib data",
                          -1, offset);
    return out;
}

std::string PerfettoDecompressor::zstd(std::string_view bytes, std::int64_t offset)
{
    const std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!stream || ZSTD_isError(ZSTD_initDStream(stream.get())))
        throw FormatError("zstd compressed packets: zstd could not start", -1, offset);
    // zstd's default window limit stays (128 MiB, ZSTD_WINDOWLOG_LIMIT_DEFAULT):
    // a frame's header asking for more is refused, so a hostile one cannot
    // make it allocate more, and the tracing service's frames need far less.
    std::string out;
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    std::size_t left = 1; // what the frame still needs; 0 when it is whole
    while (left != 0) {
        if (out.size() >= kMaxExpanded)
            throw FormatError("zstd compressed packets decompress to more than 1 GiB", -1, offset);
        const std::size_t was = out.size();
        out.resize(was + kSlice);
        ZSTD_outBuffer slice{out.data() + was, kSlice, 0};
        left = ZSTD_decompressStream(stream.get(), &slice, &in);
        out.resize(was + slice.pos);
        if (ZSTD_isError(left))
            throw FormatError(std::string("zstd compressed packets are not a valid zstd frame (")
                                  + ZSTD_getErrorName(left) + ")",
                              -1, offset);
        // All input read and the last slice not filled: the frame wants
        // more than there is.
        if (left != 0 && in.pos == in.size && slice.pos < kSlice)
            throw FormatError("zstd compressed packets are cut short", -1, offset);
    }
    // One frame per run, as Perfetto's trace processor reads it.
    if (in.pos != in.size)
        throw FormatError("zstd compressed packets hold " + std::to_string(in.size - in.pos)
                              + " bytes after their frame",
                          -1, offset);
    return out;
}

} // namespace runlane
