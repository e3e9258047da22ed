#include "profileloader.h"

#include "addedthread.h"
#include "creatingfunctions.h"
#include "formatregistry.h"
#include "gzipdevice.h"
#include "memoryguard.h"
#include "profilebuilder.h"

#include <QFileInfo>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
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

// Opens `path`: a regular file, or a pipe (openPipe). False with `error` set.
bool openInput(QFile& file, const QFileInfo& info, const QString& path, const LoadControl& control, LoadError& error)
{
    if (!info.exists()) {
        error.message = "no such file";
        return false;
    }
    if (info.isDir()) {
        error.message = "this is a directory, not a profile file";
        return false;
    }
    if (info.isFile() ? !file.open(QIODevice::ReadOnly) : !openPipe(file, path, control, error)) {
        if (error.message.empty())
            error.message = "cannot open the file: " + file.errorString().toStdString();
        return false;
    }
    return true;
}

// The message of what a read ended with, other than a FormatError; call
// from a catch block.
void describeFailure(LoadError& error)
{
    try {
        throw;
    } catch (const LoadCancelled&) {
        error.cancelled = true;
        error.message = "loading was cancelled";
    } catch (const OutOfMemory& e) {
        error.message = e.what();
    } catch (const std::bad_alloc&) {
        error.message = "not enough memory to load this profile";
    } catch (const std::exception& e) {
        error.message = std::string("unexpected error: ") + e.what();
    } catch (...) {
        error.message = "unexpected error";
    }
}

// The first bytes of the text, for detection; false with `error` set on a
// read error.
bool readPrefix(TextSource& source, QByteArray& prefix, LoadError& error)
{
    const std::optional<QByteArray> read = readUpTo(source.text(), qint64(FormatPrefix::kSize));
    if (!read) {
        error.message = "read error: " + source.text().errorString().toStdString();
        return false;
    }
    prefix = *read;
    return true;
}

// The format whose probe claims `prefix`, and what exactly the file is;
// null with `error` set (at its line and column) when none does.
// What the first bytes of a text (all of it if shorter than
// FormatPrefix::kSize) say it is.
FormatRegistry::Detection detectPrefix(const QByteArray& prefix)
{
    return FormatRegistry::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())),
                                  prefix.size() < qint64(FormatPrefix::kSize));
}

const InputFormat* detectFormat(TextSource& source, const QByteArray& prefix, std::string& kind, LoadError& error)
{
    FormatRegistry::Detection detected = detectPrefix(prefix);
    if (!detected.ok()) {
        error.message = std::move(detected.problem);
        error.byteOffset = detected.offset;
        if (source.rewind())
            locate(source.text(), error);
        return nullptr;
    }
    kind = detected.name();
    return detected.format;
}

// Streams `input` through `read`. A text cut by a read error (a cut or
// corrupt gzip stream) fails to parse there, but the read error is the
// cause: then false with `error` saying so. A FormatError of the text
// itself is thrown on, `offset` set to where it is.
template<typename Read>
bool readStream(ChunkedFileReader& input, std::int64_t& offset, LoadError& error, Read&& read)
{
    try {
        read();
    } catch (const FormatError& e) {
        if (!input.failed()) {
            offset = e.byteOffset() >= 0 ? e.byteOffset() : input.offset();
            throw;
        }
    }
    if (input.failed()) {
        error.byteOffset = input.offset();
        error.message = "read error: " + input.errorString();
        return false;
    }
    return true;
}

// `error` for a FormatError caught at `offset`, with its line and column in
// a text format (they mean nothing in a binary one: pprof).
void describeFormatError(const FormatError& e, std::int64_t offset, const InputFormat* format, TextSource& source,
                         LoadError& error)
{
    error.byteOffset = offset;
    error.eventIndex = e.eventIndex();
    error.message = e.what();
    if (const auto* unknown = dynamic_cast<const UnknownVariantError*>(&e)) {
        error.unknownVariant = true;
        error.variants = unknown->variants();
    }
    if (!(format && format->isBinary()) && source.rewind())
        locate(source.text(), error);
}

std::string fileName(const std::string& path)
{
    return QFileInfo(QString::fromStdString(path)).fileName().toStdString();
}

// "1.234 s": a distance between two clocks' readings, for a warning.
std::string seconds(Time ns)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f s", double(ns) / 1e9);
    return text;
}

// The time a builder's measurements [from, to) cover; empty (lo > hi) if none.
std::pair<Time, Time> coverage(const ProfileBuilder& builder, std::size_t from, std::size_t to)
{
    Time lo = kTimeMax;
    Time hi = kTimeMin;
    for (std::size_t m = from; m < to; ++m) {
        const Measurement& measurement = builder.measurement(MeasurementId(m));
        lo = std::min(lo, measurement.created);
        hi = std::max(hi, measurement.created);
        if (measurement.finished != ProfileBuilder::kOpen)
            hi = std::max(hi, measurement.finished);
    }
    return {lo, hi};
}

// The samples track of an addition: on the chosen thread, named like a
// trace's own samples of it ("node / JavaScriptMainThread (samples)"); when
// the thread has samples already (DevTools recorded them), a band of its own
// that names the file, never merged with them.
TrackInfo additionTrack(ProfileBuilder& builder, const AddedThread::Candidate& thread, const std::string& path)
{
    TrackInfo track;
    bool sampled = false;
    for (TrackId t = 0; t < builder.trackCount(); ++t) {
        const TrackInfo& info = builder.trackInfo(t);
        if (info.pid != thread.pid || info.tid != thread.tid)
            continue;
        if (info.kind == TrackKind::Thread)
            track = info;
        sampled = sampled || info.kind == TrackKind::Samples;
    }
    track.kind = TrackKind::Samples;
    if (sampled)
        track.displayName = builder.intern(thread.name + " (samples: " + fileName(path) + ")");
    return track;
}

// One progress bar over the trace and the files added to it: bytes read out
// of all their sizes on disk (a compressed file's compressed bytes, as
// GzipDevice::progress counts them), so that the bar goes on through each
// added file instead of resting full, or going back to the start, which
// would say the load began again. A trace read from a pipe has no size:
// then each added file's reads are not reported.
class LoadProgress
{
public:
    using Report = std::function<void(std::int64_t, std::int64_t)>;

    LoadProgress(const LoadControl& caller, std::int64_t traceSize) : m_report(caller.progress), m_trace(traceSize)
    {
        for (const ProfileAddition& addition : caller.additions)
            m_added += sizeOf(addition);
    }
    static std::int64_t sizeOf(const ProfileAddition& addition)
    {
        const QFileInfo info(QString::fromStdString(addition.path));
        return info.isFile() ? info.size() : 0;
    }
    // For the trace's reads: (bytes, the trace's size) of all.
    Report trace() const
    {
        if (!m_report || m_added == 0 || m_trace <= 0)
            return m_report;
        return [report = m_report, added = m_added](std::int64_t done, std::int64_t total) {
            report(done, total + added);
        };
    }
    // For the reads of the added file that starts `before` bytes into the
    // added files.
    Report addition(std::int64_t before, std::int64_t size) const
    {
        if (!m_report || m_trace <= 0)
            return nullptr;
        return [report = m_report, base = m_trace + before, size, all = m_trace + m_added](std::int64_t done,
                                                                                         std::int64_t) {
            report(base + std::min(done, size), all);
        };
    }
    // Everything read: the trace's `total` as its reads counted it.
    void finish(std::int64_t total) const
    {
        if (!m_report)
            return;
        const std::int64_t all = m_trace > 0 ? total + m_added : total;
        m_report(all, all);
    }

private:
    Report m_report;
    std::int64_t m_trace;
    std::int64_t m_added = 0;
};

// The track of an added file that is a process of its own (InputFormat::
// addsProcess): the next pid after the trace's. It is on the trace's clock
// (an Enso IDE profile and its Language Server's log: µs since the epoch).
TrackInfo processTrack(const ProfileBuilder& builder)
{
    TrackInfo track;
    for (TrackId t = 0; t < builder.trackCount(); ++t)
        track.pid = std::max(track.pid, builder.trackInfo(t).pid + 1);
    track.processSortIndex = track.pid;
    return track;
}

// Reads one added file into `builder`, after the trace. False with `error`
// about that file (its path, its offsets), not the trace. `progress`
// reports its reads.
bool addFile(const ProfileAddition& addition, ProfileBuilder& builder, const LoadControl& control,
             LoadProgress::Report progress, MemoryGuard& memory, LoadError& error)
{
    error = LoadError();
    error.file = addition.path;
    const QString path = QString::fromStdString(addition.path);
    const QFileInfo info(path);
    QFile file(path);
    if (!openInput(file, info, path, control, error))
        return false;
    TextSource source(file);
    error.compressed = source.compressed();
    const InputFormat* format = nullptr;
    std::int64_t offset = -1;
    try {
        QByteArray prefix;
        if (!readPrefix(source, prefix, error))
            return false;
        // Always detected: --input-format names the trace's format.
        std::string kind;
        format = detectFormat(source, prefix, kind, error);
        if (!format)
            return false;
        if (!format->canBeAdded()) {
            error.message = "this is a " + kind + " file; only V8 CPU profiles (.cpuprofile) and Enso Language "
                                                  "Server message logs can be added to a trace";
            return false;
        }
        // A process of its own goes beside the trace's; samples go under
        // one of its threads.
        const bool process = format->addsProcess();
        const std::vector<AddedThread::Candidate> threads
            = process ? std::vector<AddedThread::Candidate>() : AddedThread::candidates(builder);
        const AddedThread::Candidate* thread = nullptr;
        if (!process) {
            if (threads.empty()) {
                error.message = "cannot be added to " + fileName(builder.sourcePath())
                    + ": that profile has no threads; a CPU profile is added to a trace of the same run";
                return false;
            }
            thread = addition.thread ? AddedThread::find(threads, *addition.thread) : AddedThread::pick(threads);
            if (!thread) {
                error.message = "the trace has no thread " + std::to_string(addition.thread->pid) + ":"
                    + std::to_string(addition.thread->tid) + " (pid:tid) to add this to; its threads: "
                    + AddedThread::list(threads);
                return false;
            }
        }
        memory.setPerByte(format->memoryPerInputByte());
        if (info.isFile() && !source.compressed())
            memory.checkFileSize(info.size());
        LoadControl own = control;
        own.progress = std::move(progress);
        const std::size_t before = builder.measurementCount();
        ChunkedFileReader input(source.text(), own, prefix);
        if (format->limitsJsonStrings())
            input.limitJsonStrings();
        const TrackInfo track = process ? processTrack(builder) : additionTrack(builder, *thread, addition.path);
        if (!readStream(input, offset, error, [&] { format->readAddition(input, builder, track); }))
            return false;
        builder.addAddedFile(AddedFile{addition.path, std::string(format->name()), track.pid, process ? 0 : thread->tid});
        if (process)
            return true; // no measurements to compare
        // One clock, but not proof of one run: a profile of another run
        // lies somewhere else entirely.
        const auto [traceFrom, traceTo] = coverage(builder, 0, before);
        const auto [addedFrom, addedTo] = coverage(builder, before, builder.measurementCount());
        if (traceFrom <= traceTo && addedFrom <= addedTo && (addedTo < traceFrom || addedFrom > traceTo))
            builder.diagnostics().warn(
                "added profile outside the trace",
                fileName(addition.path) + ": its samples lie " + seconds(addedTo < traceFrom ? traceFrom - addedTo : addedFrom - traceTo)
                    + (addedTo < traceFrom ? " before the trace begins" : " after the trace ends")
                    + " and overlap none of it; recorded in another run?");
        return true;
    } catch (const FormatError& e) {
        describeFormatError(e, offset, format, source, error);
    } catch (...) {
        describeFailure(error);
    }
    return false;
}

// Every addition, in order, into the trace's builder; false with the first
// failure's error.
bool addFiles(ProfileBuilder& builder, const LoadControl& control, const LoadProgress& progress, MemoryGuard& memory,
              LoadError& error)
{
    std::int64_t before = 0;
    for (const ProfileAddition& addition : control.additions) {
        const std::int64_t size = LoadProgress::sizeOf(addition);
        if (!addFile(addition, builder, control, progress.addition(before, size), memory, error))
            return false;
        before += size;
    }
    if (!control.additions.empty())
        CreatingFunctions::apply(builder);
    return true;
}

// Progressive loading: the trace's progress as last reported (a preview's
// and a cut's bytes; written on the fast reader's producer thread).
struct SeenProgress {
    std::atomic<std::int64_t> done{0};
    std::atomic<std::int64_t> total{-1};
};

// Records the trace's progress for the previews and a cut, when the load
// wants either; a plain load keeps its own callback as it was.
void watchProgress(LoadControl& control, const LoadControl& caller, SeenProgress& seen)
{
    if (!caller.preview && !caller.keepPartial)
        return;
    control.progress = [&seen, report = std::move(control.progress)](std::int64_t done, std::int64_t total) {
        seen.done = done;
        seen.total = total > 0 ? total : -1;
        if (report)
            report(done, total);
    };
}

// What a build may be cancelled by. For a caller that can keep what was
// read (LoadControl::keepPartial), only `abandon`: its `cancel` also comes
// with a stop, which must not throw away what it kept, nor, once the whole
// file is read (the stop then keeps it all), the whole profile being built.
// Decided by what the caller can do, not by what it did so far: a stop
// during the build came after the build began.
const std::atomic<bool>* buildCancel(const LoadControl& control)
{
    return control.keepPartial ? control.abandon : control.cancel;
}

// What the caller follows of the builder: its previews, the build's steps.
void followBuilder(ProfileBuilder& builder, const LoadControl& caller, const SeenProgress& seen,
                   std::chrono::steady_clock::time_point start)
{
    builder.setBuildReport(caller.building, buildCancel(caller));
    if (!caller.preview)
        return;
    PreviewSettings settings;
    settings.emit = caller.preview;
    settings.bytes = [&seen] { return std::pair<std::int64_t, std::int64_t>(seen.done, seen.total); };
    settings.firstMs = caller.previewFirstMs;
    settings.everyMs = caller.previewEveryMs;
    settings.taskBudget = caller.previewTaskBudget;
    settings.start = start;
    builder.setPreviewSettings(std::move(settings));
}

// A load stopped and kept: the format set the builder's PartialLoad (Cut)
// and read what came before; here its bytes and the warning. True if so.
bool finishCut(ProfileBuilder& builder, const SeenProgress& seen)
{
    builder.stopPreviews();
    if (!builder.partial())
        return false;
    PartialLoad cut = *builder.partial();
    cut.bytesRead = seen.done;
    cut.totalBytes = seen.total;
    builder.setPartial(cut);
    std::string at = "loading was stopped at byte " + std::to_string(cut.bytesRead);
    if (cut.totalBytes > 0)
        at += " of " + std::to_string(cut.totalBytes) + " (" + std::to_string(cut.bytesRead * 100 / cut.totalBytes)
            + " %)";
    builder.diagnostics().warn("load stopped", at + ": the profile holds the events read before");
    return true;
}

} // namespace

FormatRegistry::Detection ProfileLoader::detect(const QString& path)
{
    FormatRegistry::Detection detected;
    const QFileInfo info(path);
    QFile file(path);
    if (!info.isFile() || !file.open(QIODevice::ReadOnly)) {
        detected.problem = "not a file that can be read";
        return detected;
    }
    try {
        TextSource source(file);
        QByteArray prefix;
        LoadError error;
        if (!readPrefix(source, prefix, error)) {
            detected.problem = error.message;
            return detected;
        }
        return detectPrefix(prefix);
    } catch (...) {
        detected = FormatRegistry::Detection();
        detected.problem = "cannot be read";
    }
    return detected;
}

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
    QFile file(path);
    if (!openInput(file, info, path, control, error))
        return result;

    TextSource source(file);
    error.compressed = source.compressed();
    const std::int64_t traceSize = GzipDevice::progress(source.text(), 0).second;
    const LoadProgress progress(callerControl, traceSize);
    control.progress = progress.trace();
    const auto started = std::chrono::steady_clock::now();
    SeenProgress seen;
    seen.total = traceSize > 0 ? traceSize : -1;
    watchProgress(control, callerControl, seen);
    std::int64_t offset = -1;
    try {
        QByteArray prefix;
        if (!readPrefix(source, prefix, error))
            return result;
        std::string kind;
        if (!format) {
            format = detectFormat(source, prefix, kind, error);
            if (!format)
                return result;
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
            followBuilder(fast, callerControl, seen, started);
            std::int64_t bytesRead = 0;
            if (format->readFile(source.text(), control, fast, bytesRead)) {
                if (finishCut(fast, seen)) {
                    result.profile = fast.build(control.abandon);
                    return result;
                }
                if (!addFiles(fast, control, progress, memory, error))
                    return result;
                result.profile = fast.build(buildCancel(control));
                progress.finish(GzipDevice::progress(source.text(), bytesRead).second);
                return result;
            }
            if (!source.rewind())
                throw std::runtime_error("cannot seek back in the file");
            fromStart = true;
        }
        ProfileBuilder builder(kind, error.file);
        followBuilder(builder, callerControl, seen, started);
        ChunkedFileReader input(source.text(), control, fromStart ? QByteArray() : prefix);
        if (format->limitsJsonStrings())
            input.limitJsonStrings();
        if (!readStream(input, offset, error, [&] { format->read(input, builder); }))
            return result;
        if (finishCut(builder, seen)) {
            result.profile = builder.build(control.abandon);
            return result;
        }
        if (!addFiles(builder, control, progress, memory, error))
            return result;
        result.profile = builder.build(buildCancel(control));
        progress.finish(GzipDevice::progress(source.text(), input.offset()).second);
    } catch (const FormatError& e) {
        describeFormatError(e, offset, format, source, error);
    } catch (...) {
        describeFailure(error);
    }
    return result;
}

} // namespace runlane
