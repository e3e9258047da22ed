#include "profileloader.h"

#include "formatregistry.h"
#include "memoryguard.h"
#include "profilebuilder.h"

#include <QFileInfo>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace runlane {

namespace {

// Line and column of a byte offset, for messages people check in an editor.
// Only on the error path, so reading the file up to there again is fine.
void locate(QFile& file, LoadError& error)
{
    if (error.byteOffset < 0 || file.isSequential() || !file.seek(0))
        return;
    std::int64_t line = 1;
    std::int64_t lineStart = 0;
    std::int64_t pos = 0;
    QByteArray chunk;
    while (pos < error.byteOffset) {
        chunk = file.read(std::min<qint64>(1 << 20, error.byteOffset - pos));
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

    std::int64_t offset = -1;
    try {
        const QByteArray prefix = file.read(qint64(FormatPrefix::kSize));
        const bool complete = prefix.size() < qint64(FormatPrefix::kSize) && file.atEnd();
        std::string kind;
        if (!format) {
            FormatRegistry::Detection detected
                = FormatRegistry::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())), complete);
            if (!detected.ok()) {
                error.message = std::move(detected.problem);
                error.byteOffset = detected.offset;
                locate(file, error);
                return result;
            }
            format = detected.format;
            kind = detected.name();
        } else {
            kind = format->name();
        }

        memory.setPerByte(format->memoryPerInputByte());
        if (info.isFile())
            memory.checkFileSize(info.size());
        if (format->hasFileReader() && !file.isSequential()) {
            ProfileBuilder fast(kind, error.file);
            std::int64_t bytesRead = 0;
            if (format->readFile(file, control, fast, bytesRead)) {
                result.profile = fast.build(control.cancel);
                if (control.progress)
                    control.progress(bytesRead, bytesRead);
                return result;
            }
            if (!file.seek(prefix.size()))
                throw std::runtime_error("cannot seek back in the file");
        }
        ProfileBuilder builder(kind, error.file);
        ChunkedFileReader input(file, control, prefix);
        if (format->isJson())
            input.limitJsonStrings();
        try {
            format->read(input, builder);
        } catch (const FormatError& e) {
            offset = e.byteOffset() >= 0 ? e.byteOffset() : input.offset();
            throw;
        }
        if (input.failed()) {
            error.byteOffset = input.offset();
            error.message = "read error: " + input.errorString();
            return result;
        }
        result.profile = builder.build(control.cancel);
        if (control.progress)
            control.progress(input.offset(), input.offset());
    } catch (const FormatError& e) {
        error.byteOffset = offset;
        error.eventIndex = e.eventIndex();
        error.message = e.what();
        locate(file, error);
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
