#include "profileloader.h"

#include "formatregistry.h"
#include "gzipdevice.h"
#include "memoryguard.h"
#include "profilebuilder.h"

#include <QFileInfo>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

namespace runlane {

namespace {

// Line and column of a byte offset, for messages people check in an editor.
// Only on the error path, so reading the text up to there again is fine.
// `text` is at its start: the file, or its decompression.
void locate(QIODevice& text, LoadError& error)
{
    if (error.byteOffset < 0)
        return;
    std::int64_t line = 1;
    std::int64_t lineStart = 0;
    std::int64_t pos = 0;
    QByteArray chunk;
    while (pos < error.byteOffset) {
        chunk = text.read(std::min<qint64>(1 << 20, error.byteOffset - pos));
        if (chunk.isEmpty())
            break;
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            if (chunk[i] == '\n') {
                ++line;
                lineStart = pos + i + 1;
            }
        }
        pos += chunk.size();
    }
    error.line = line;
    error.column = error.byteOffset - lineStart + 1;
}

// Up to `size` bytes, fewer only at the end: a decompressing device returns
// what one step of inflating gave. Null on a read error.
std::optional<QByteArray> readUpTo(QIODevice& device, qint64 size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    qint64 got = 0;
    while (got < size) {
        const qint64 n = device.read(bytes.data() + got, size - got);
        if (n < 0)
            return std::nullopt;
        if (n == 0)
            break;
        got += n;
    }
    bytes.truncate(got);
    return bytes;
}

// The text of a file: the file itself, or what its gzip stream decompresses
// to (formats.md (m): detected by the magic bytes, never by the name).
// Readers see only the text; a regular file can be read again from the
// start (the fast path's fallback, locating an error), a pipe cannot.
class TextSource
{
public:
    explicit TextSource(QFile& file) : m_file(file)
    {
        m_compressed = GzipDevice::isGzip(file.peek(2));
        if (m_compressed)
            m_gzip = std::make_unique<GzipDevice>(file);
    }
    bool compressed() const { return m_compressed; }
    bool rewindable() const { return !m_file.isSequential(); }
    QIODevice& text() { return m_gzip ? static_cast<QIODevice&>(*m_gzip) : m_file; }
    // Back to the start of the text; false if the file cannot seek.
    bool rewind()
    {
        if (!rewindable() || !m_file.seek(0))
            return false;
        if (m_compressed)
            m_gzip = std::make_unique<GzipDevice>(m_file);
        return true;
    }

private:
    QFile& m_file;
    bool m_compressed = false;
    std::unique_ptr<GzipDevice> m_gzip;
};

// Anything but a regular file (a FIFO, a character device, /dev/fd/N of a
// process substitution): opened without blocking, so that a FIFO nobody
// writes to does not hang the open, then waited on for its first bytes in
// short polls that watch the cancel flag.
bool openPipe(QFile& file, const QString& path, const LoadControl& control, LoadError& error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error.message = std::string("cannot open the file: ") + std::strerror(errno);
        return false;
    }
    for (int waited = 0;; waited += 100) {
        pollfd poll{fd, POLLIN, 0};
        const int ready = ::poll(&poll, 1, 100);
        if (ready > 0)
            break; // data, or the writer's end closed (an empty pipe)
        if (ready < 0 && errno != EINTR) {
            error.message = std::string("cannot read the file: ") + std::strerror(errno);
            ::close(fd);
            return false;
        }
        if (control.cancel && control.cancel->load()) {
            ::close(fd);
            error.cancelled = true;
            error.message = "loading was cancelled";
            return false;
        }
        if (waited >= control.pipeWaitMs) {
            ::close(fd);
            error.message = "nothing came through this pipe in " + std::to_string(control.pipeWaitMs / 1000)
                + " s; is anything writing to it?";
            return false;
        }
    }
    // Blocking reads from here on: the writer is there.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return false;
    }
    return true;
}

} // namespace

LoadResult ProfileLoader::load(const QString& path, const LoadControl& callerControl, const InputFormat* format)
{
    // Every read of this load also watches the memory left.
    MemoryGuard memory;
    LoadControl control = callerControl;
    control.memory = &memory;
    LoadResult result;
    LoadError& error = result.error;
    error.file = path.toStdString();

    const QFileInfo info(path);
    if (!info.exists()) {
        error.message = "no such file";
        return result;
    }
    if (info.isDir()) {
        error.message = "this is a directory, not a profile file";
        return result;
    }
    QFile file(path);
    if (info.isFile() ? !file.open(QIODevice::ReadOnly) : !openPipe(file, path, control, error)) {
        if (error.message.empty())
            error.message = "cannot open the file: " + file.errorString().toStdString();
        return result;
    }

    TextSource source(file);
    error.compressed = source.compressed();
    std::int64_t offset = -1;
    try {
        const std::optional<QByteArray> read = readUpTo(source.text(), qint64(FormatPrefix::kSize));
        if (!read) {
            error.message = "read error: " + source.text().errorString().toStdString();
            return result;
        }
        const QByteArray& prefix = *read;
        const bool complete = prefix.size() < qint64(FormatPrefix::kSize);
        std::string kind;
        if (!format) {
            FormatRegistry::Detection detected
                = FormatRegistry::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())), complete);
            if (!detected.ok()) {
                error.message = std::move(detected.problem);
                error.byteOffset = detected.offset;
                if (source.rewind())
                    locate(source.text(), error);
                return result;
            }
            format = detected.format;
            kind = detected.name();
        } else {
            kind = format->name();
        }

        memory.setPerByte(format->memoryPerInputByte());
        // A compressed file's text is larger by a ratio only reading finds
        // out: the guard then watches the text as it is read.
        if (info.isFile() && !source.compressed())
            memory.checkFileSize(info.size());
        bool fromStart = false;
        if (format->hasFileReader() && source.rewind()) {
            ProfileBuilder fast(kind, error.file);
            std::int64_t bytesRead = 0;
            if (format->readFile(source.text(), control, fast, bytesRead)) {
                result.profile = fast.build(control.cancel);
                if (control.progress) {
                    const std::int64_t total = GzipDevice::progress(source.text(), bytesRead).second;
                    control.progress(total, total);
                }
                return result;
            }
            if (!source.rewind())
                throw std::runtime_error("cannot seek back in the file");
            fromStart = true;
        }
        ProfileBuilder builder(kind, error.file);
        ChunkedFileReader input(source.text(), control, fromStart ? QByteArray() : prefix);
        if (format->isJson())
            input.limitJsonStrings();
        try {
            format->read(input, builder);
        } catch (const FormatError& e) {
            // A text cut by a read error (a cut or corrupt gzip stream)
            // fails to parse there; the read error is the cause.
            if (!input.failed()) {
                offset = e.byteOffset() >= 0 ? e.byteOffset() : input.offset();
                throw;
            }
        }
        if (input.failed()) {
            error.byteOffset = input.offset();
            error.message = "read error: " + input.errorString();
            return result;
        }
        result.profile = builder.build(control.cancel);
        if (control.progress) {
            const std::int64_t total = GzipDevice::progress(source.text(), input.offset()).second;
            control.progress(total, total);
        }
    } catch (const FormatError& e) {
        error.byteOffset = offset;
        error.eventIndex = e.eventIndex();
        error.message = e.what();
        // Lines and columns mean nothing in a binary file (pprof).
        if (!(format && format->isBinary()) && source.rewind())
            locate(source.text(), error);
    } catch (const LoadCancelled&) {
        error.cancelled = true;
        error.message = "loading was cancelled";
    } catch (const OutOfMemory& e) {
        error.message = e.what();
    } catch (const std::bad_alloc&) {
        error.message = "not enough memory to load this profile";
    } catch (const std::exception& e) {
        error.message = std::string("unexpected error: ") + e.what();
    }
    return result;
}

} // namespace runlane
