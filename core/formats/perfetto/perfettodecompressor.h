#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace runlane {

// The payload of a Perfetto packet's compressed run of packets, expanded:
// compressed_packets (zlib's deflate) and zstd_compressed_packets (one zstd
// frame, as the tracing service writes it when TraceConfig.compression asks
// for zstd). Both expand in slices up to a cap, so a decompression bomb
// stops there, not at the end of memory; data that is not valid, a stream
// cut short and, for zstd, bytes after its frame are a FormatError at
// `offset` saying which.
struct PerfettoDecompressor {
    // What a run of compressed packets may expand to.
    static constexpr std::size_t kMaxExpanded = std::size_t(1) << 30;

    static std::string inflate(std::string_view bytes, std::int64_t offset);
    static std::string zstd(std::string_view bytes, std::int64_t offset);
};

} // namespace runlane
