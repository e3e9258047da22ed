#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

class Profile;

class MemoryGuard;

// A file read into the same profile as the one loaded: a V8 CPU profile of
// the run a trace recorded, on the trace's clock (docs/formats.md, "Adding a
// CPU profile to a trace").
struct ProfileAddition {
    // A thread of the trace, by its process and thread ids.
    struct Thread {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        bool operator==(const Thread&) const = default;
    };
    std::string path; // UTF-8
    // Where its samples go; none: the trace's main thread (AddedThread::pick).
    std::optional<Thread> thread;
};

// Progress and cancellation handed to a load by its caller.
struct LoadControl {
    // Called from the loading thread with (bytes read, total bytes).
    std::function<void(std::int64_t, std::int64_t)> progress;
    const std::atomic<bool>* cancel = nullptr;
    // A pipe (FIFO, `<(zcat trace.json.gz)`) is waited on this long for its
    // first bytes; a pipe nobody writes to is an error, not a hang.
    int pipeWaitMs = 30'000;
    // Set by ProfileLoader: checked once per chunk read.
    const MemoryGuard* memory = nullptr;
    // Which of the file's variants to load (a pprof sample type, a perf
    // event), by name; empty: the format's default. A format that has
    // variants lists them in Profile::variants(); one that has none
    // ignores this.
    std::string variant;
    // Files read into the same profile after the loaded one, in this order
    // (ProfileLoader::load); each has its own errors, offsets and format.
    std::vector<ProfileAddition> additions;
    // Progressive loading. `preview`, when set, is called on the loading
    // thread with a look at the profile so far (Profile::partial() says
    // what it holds: PartialLoad::Preview): the first about previewFirstMs
    // after the load began, then at least every previewEveryMs until the
    // file is read. Formats that cannot show a part of their file call it
    // never. Null (the CLI, most tests): no previews, nothing spent on them.
    std::function<void(std::shared_ptr<const Profile>)> preview;
    int previewFirstMs = 150;
    int previewEveryMs = 1000;
    // At most this many tasks in a preview, for the formats that add their
    // tasks (PreviewSettings::taskBudget): the longest-lived so far.
    std::size_t previewTaskBudget = 10'000;
    // Called on the loading thread as the profile is built once the file
    // is read (seconds, for the biggest): step `step` (from 1) of `steps`
    // (ProfileBuilder::kBuildSteps) begins, doing `what`. A long step is
    // told again as it goes, under the same number, `what` then its name,
    // ": " and how far it is (BuildProgress). Null: not asked.
    std::function<void(int step, int steps, const char* what)> building;
    // Read once `cancel` is seen: when set, the load returns what was read
    // before the cut (Profile::partial(): PartialLoad::Cut) instead of
    // LoadError::cancelled, for the formats that can (Chrome, Perfetto);
    // the others are cancelled as before. A caller that gives it stops the
    // build (ProfileBuilder::build) only with `abandon`: its `cancel` may
    // come with a stop, and the flag that cut the reading must not throw
    // away what it kept; a stop seen only after the last byte (during the
    // build) gives the whole profile.
    const std::atomic<bool>* keepPartial = nullptr;
    // Whether what was read is to be kept, should the load be cancelled.
    bool keepsWhatWasRead() const { return keepPartial && keepPartial->load(); }
    // Stops the build of a caller that gives keepPartial, a kept load's
    // too: the user went back, before or after stopping, or opened another
    // file. The build of 78 % of a 2 GB trace takes seconds, which the next
    // load would otherwise wait for. Null: nothing stops it.
    const std::atomic<bool>* abandon = nullptr;
};

// Streams a file in fixed-size chunks so that a loader never holds more than
// one chunk of text, whatever the file's size. Reports progress and checks the
// cancel flag once per chunk (LoadCancelled is thrown from the refill).
class ChunkedFileReader
{
public:
    static constexpr std::size_t kChunkSize = 1 << 20;

    // `alreadyRead` are the file's first bytes, read before (to detect the
    // format); they are served first, so pipes work without seeking back.
    ChunkedFileReader(QIODevice& file, const LoadControl& control, const QByteArray& alreadyRead = {});

    // Next byte, or -1 at the end of the file.
    int get()
    {
        if (m_pos < m_len || refill())
            return static_cast<unsigned char>(m_buffer[m_pos++]);
        return -1;
    }
    int peek()
    {
        if (m_pos < m_len || refill())
            return static_cast<unsigned char>(m_buffer[m_pos]);
        return -1;
    }
    bool atEnd() { return !(m_pos < m_len || refill()); }
    // The bytes read and not yet consumed, refilled when none are left;
    // empty at the end. Text readers find line ends in them with memchr
    // rather than byte by byte. Valid until the next call that reads.
    std::string_view buffered()
    {
        if (m_pos < m_len || refill())
            return {m_buffer.data() + m_pos, m_len - m_pos};
        return {};
    }
    // Consumes `count` bytes of buffered().
    void consume(std::size_t count) { m_pos += std::min(count, m_len - m_pos); }
    // Skips blanks; true if anything but blanks is left.
    bool skipWhitespace();

    // JSON input: a string longer than this (a 2 GB name) is a FormatError
    // at its first byte, found as chunks arrive, before a JSON parser has
    // copied it into memory. Call before reading anything.
    static constexpr std::size_t kMaxJsonString = std::size_t(64) << 20;
    void limitJsonStrings();

    // Bytes consumed so far, i.e. the offset of the next byte (of the
    // decompressed text, for a compressed file).
    std::int64_t offset() const { return m_consumedBefore + std::int64_t(m_pos); }
    std::int64_t size() const { return m_size; }
    // The text's size, to size buffers by: the file's, or what a gzip
    // file's trailer states (GzipDevice::textSizeHint); 0 if unknown.
    std::int64_t textSizeHint() const;
    // The load's options (LoadControl::variant) for the format's reader.
    const LoadControl& control() const { return m_control; }
    // True if a read error (rather than the end) stopped the stream.
    bool failed() const { return m_failed; }
    // For a reader that reads ahead on another thread (PerfBlockPipeline)
    // and stops at an error before the point where reading failed: read
    // one chunk at a time, the file would not have got that far, so its
    // error is the load's rather than the read error.
    void forgetFailure() { m_failed = false; }
    std::string errorString() const;

    // An input iterator over the remaining bytes, the form nlohmann's SAX
    // parser accepts; all copies share this reader's position.
    class Iterator
    {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = char;
        using difference_type = std::ptrdiff_t;
        using pointer = const char*;
        using reference = const char&;

        Iterator() = default; // the end
        explicit Iterator(ChunkedFileReader* reader) : m_reader(reader) { }
        reference operator*() const { return m_reader->m_buffer[m_reader->m_pos]; }
        Iterator& operator++()
        {
            ++m_reader->m_pos;
            return *this;
        }
        bool operator==(const Iterator& other) const { return atEnd() == other.atEnd(); }
        bool operator!=(const Iterator& other) const { return !(*this == other); }

    private:
        bool atEnd() const { return m_reader == nullptr || m_reader->atEnd(); }
        ChunkedFileReader* m_reader = nullptr;
    };
    Iterator begin() { return Iterator(this); }
    Iterator end() { return Iterator(); }

private:
    bool refill();
    void scanStrings(std::size_t from);

    QIODevice& m_file;
    LoadControl m_control;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::int64_t m_consumedBefore = 0;
    std::int64_t m_size = 0;
    bool m_eof = false;
    bool m_failed = false;
    // limitJsonStrings(): where the scan stands (inside a string since
    // m_stringStart, after a backslash).
    bool m_limitStrings = false;
    bool m_inString = false;
    bool m_escaped = false;
    std::int64_t m_stringStart = 0;
};

} // namespace runlane
