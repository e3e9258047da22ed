#pragma once

#include <QIODevice>

#include <cstdint>
#include <memory>
#include <utility>

namespace runlane {

// Decompresses a gzip stream from another device as it is read (formats.md
// (m)), so that a loader reads a 2 GB `.json.gz` in chunks like any file
// and never holds the decompressed text. Sequential and unbuffered: the
// reader above it has its own chunks. It inflates with ISA-L's igzip, 3 x
// as fast as zlib: loading is CPU-bound on both cores, so every second of
// inflating shows in the load time of a large trace. Members written one after another (`cat a.gz
// b.gz`, pigz) read as one stream, as gzip itself reads them; bytes after the
// last member that do not start another one are ignored, as gzip does.
//
// A cut stream (no end of member before the end of the file) or corrupt data
// is a read error (read() returns -1) whose errorString() says which and at
// which compressed byte.
class GzipDevice : public QIODevice
{
public:
    // `source` must be open and stay alive; reading starts at its current
    // position.
    explicit GzipDevice(QIODevice& source);
    ~GzipDevice() override;

    // True if `bytes` start with the gzip magic 1f 8b.
    static bool isGzip(const QByteArray& bytes);

    bool isSequential() const override { return true; }
    // Compressed bytes consumed from the source (counted from where it
    // started) and the source's size, -1 if it has none (a pipe): progress
    // by what was read from disk, since the decompressed size is unknown.
    std::int64_t compressedPosition() const { return m_compressedRead; }
    std::int64_t compressedSize() const { return m_compressedSize; }

    // The size of the decompressed text as the last member's trailer
    // states it (modulo 4 GiB: the smallest such size the compressed size
    // allows), -1 if the source is a pipe. A hint, to size buffers: only
    // the last member's with several, wrong for a damaged file.
    std::int64_t statedTextSize() const { return m_statedTextSize; }
    // The text's size for sizing buffers: statedTextSize() for a
    // GzipDevice, capped at kMaxRatio × the compressed size (a damaged
    // trailer must not reserve gigabytes), else the device's size (0 for
    // a pipe).
    static std::int64_t textSizeHint(const QIODevice& device);
    static constexpr std::int64_t kMaxRatio = 40;

    // (done, total) for a progress bar after `consumed` bytes were read
    // from `device`: compressed bytes for a GzipDevice, else `consumed`
    // out of the device's size (0 when it has none).
    static std::pair<std::int64_t, std::int64_t> progress(const QIODevice& device, std::int64_t consumed);

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    bool fillInput();
    void fail(const QString& why);
    void failCorrupt(const QString& why);

    struct Stream;
    QIODevice& m_source;
    std::unique_ptr<Stream> m_stream;
    std::int64_t m_compressedRead = 0;
    std::int64_t m_compressedSize = -1;
    std::int64_t m_statedTextSize = -1;
    bool m_memberEnded = false;
    bool m_finished = false;
    bool m_failed = false;
};

} // namespace runlane
