#include "profileloader.h"

#include "chromefastreader.h"
#include "chromejsonreader.h"
#include "chroprofbuilder.h"
#include "chronosjsonreader.h"
#include "chronoslogbuilder.h"
#include "chrometracebuilder.h"
#include "ensojsonreader.h"
#include "ensologbuilder.h"
#include "foldedstackbuilder.h"
#include "foldedstackreader.h"
#include "memoryguard.h"
#include "profilebuilder.h"
#include "speedscopebuilder.h"
#include "speedscopejsonreader.h"

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

// The fast path: true if it read the file. False if the reference reader
// must (it judges and words what the fast one does not take, such as
// errors, so that either path gives the same profile or the same message).
bool readChromeFast(QFile& file, const LoadControl& control, ProfileBuilder& builder, std::int64_t& bytesRead)
{
    // An event takes at least ~60 bytes of JSON: room for that many, so that
    // the model's vectors never copy themselves while growing.
    builder.reserve(std::size_t(file.size() / 60));
    ChromeTraceBuilder chrome(builder);
    ChromeFastReader reader(file, control, builder.diagnostics(),
                            [&chrome](const ChromeEvent& event, std::uint64_t index) { chrome.addEvent(event, index); });
    try {
        if (reader.read() != ChromeFastReader::Outcome::Read)
            return false;
        chrome.finish();
    } catch (const FormatError&) {
        return false; // the reference reader knows the byte offset
    }
    bytesRead = reader.bytesRead();
    return true;
}

void readChrome(ChunkedFileReader& input, ProfileBuilder& builder)
{
    ChromeTraceBuilder chrome(builder);
    ChromeJsonReader reader(input, builder.diagnostics(),
                            [&chrome](const ChromeEvent& event, std::uint64_t index) { chrome.addEvent(event, index); });
    reader.read();
    chrome.finish();
}

void readEnso(ChunkedFileReader& input, ProfileBuilder& builder)
{
    EnsoLogBuilder enso(builder);
    EnsoJsonReader::Sink sink;
    sink.beginProcess = [&enso](std::size_t process) { enso.beginProcess(process); };
    sink.event = [&enso](const EnsoEvent& event, std::uint64_t index) { enso.addEvent(event, index); };
    sink.endProcess = [&enso] { enso.endProcess(); };
    EnsoJsonReader reader(input, builder.diagnostics(), std::move(sink));
    reader.read();
}

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

void readChronos(ChunkedFileReader& input, ProfileBuilder& builder)
{
    ChronosLogBuilder chronos(builder);
    ChronosJsonReader reader(input, builder.diagnostics(),
                             [&chronos](const ChronosEvent& event, std::uint64_t index) { chronos.addEvent(event, index); });
    reader.read();
    chronos.finish(reader.header().loop);
}

void readChroprof(ChunkedFileReader& input, ProfileBuilder& builder)
{
    ChroprofBuilder chroprof(builder);
    ChroprofJsonReader::Sink sink;
    sink.beginSnapshot = [&chroprof](bool timed, std::int64_t t, std::uint64_t index) {
        chroprof.beginSnapshot(timed, t, index);
    };
    sink.row = [&chroprof](const ChroprofJsonReader::Row& row, std::uint64_t index) { chroprof.addRow(row, index); };
    ChroprofJsonReader reader(input, builder.diagnostics(), std::move(sink));
    reader.read();
    chroprof.finish();
}

void readSpeedscope(ChunkedFileReader& input, ProfileBuilder& builder)
{
    const SpeedscopeFile file = SpeedscopeJsonReader(input).read();
    SpeedscopeBuilder(file, builder).build();
}

void readFolded(ChunkedFileReader& input, ProfileBuilder& builder)
{
    FoldedStackBuilder folded(builder);
    FoldedStackReader reader(input, builder.diagnostics(),
                             [&folded](std::string_view stack, Time count, std::uint64_t line) {
                                 folded.addStack(stack, count, line);
                             });
    reader.read();
    folded.finish();
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

LoadResult ProfileLoader::load(const QString& path, const LoadControl& callerControl, ProfileFormat format)
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
        const QByteArray prefix = file.read(qint64(FormatDetector::kPrefixSize));
        const bool complete = prefix.size() < qint64(FormatDetector::kPrefixSize) && file.atEnd();
        FormatDetector::Result detected;
        if (format == ProfileFormat::Unknown)
            detected = FormatDetector::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())), complete);
        else
            detected.format = format;
        if (detected.format == ProfileFormat::Unknown || detected.format == ProfileFormat::Empty) {
            error.message = detected.reason;
            return result;
        }

        // Folded stacks are the densest input: a sample per short line.
        memory.setPerByte(detected.format == ProfileFormat::FoldedStacks ? 16.0
                          : detected.format == ProfileFormat::Speedscope ? 3.0
                                                                         : 1.5);
        if (info.isFile())
            memory.checkFileSize(info.size());
        const std::string format(FormatDetector::name(detected.format));
        if (detected.format == ProfileFormat::ChromeTrace && ChromeFastReader::enabled() && !file.isSequential()) {
            ProfileBuilder fast(format, error.file);
            std::int64_t bytesRead = 0;
            if (readChromeFast(file, control, fast, bytesRead)) {
                result.profile = fast.build(control.cancel);
                if (control.progress)
                    control.progress(bytesRead, bytesRead);
                return result;
            }
            if (!file.seek(prefix.size()))
                throw std::runtime_error("cannot seek back in the file");
        }
        ProfileBuilder builder(format, error.file);
        ChunkedFileReader input(file, control, prefix);
        if (detected.format != ProfileFormat::FoldedStacks)
            input.limitJsonStrings();
        try {
            switch (detected.format) {
            case ProfileFormat::ChromeTrace:
                readChrome(input, builder);
                break;
            case ProfileFormat::EnsoLog:
                readEnso(input, builder);
                break;
            case ProfileFormat::ChronosLog:
                readChronos(input, builder);
                break;
            case ProfileFormat::ChroprofRows:
            case ProfileFormat::ChroprofSnapshots:
                readChroprof(input, builder);
                break;
            case ProfileFormat::Speedscope:
                readSpeedscope(input, builder);
                break;
            case ProfileFormat::FoldedStacks:
                readFolded(input, builder);
                break;
            case ProfileFormat::Unknown:
            case ProfileFormat::Empty:
                break;
            }
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
