#include "chromefastreader.h"

#include "gzipdevice.h"
#include "memoryguard.h"

#include "chromebatchparser.h"
#include "diagnostics.h"
#include "jsonprefix.h"
#include "jsonskipper.h"
#include "loaderror.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace runlane {

namespace {

// Bytes read at a time: the reference reader's chunk, so that progress and
// cancel come as often on either path.
constexpr std::size_t kBlockSize = ChunkedFileReader::kChunkSize;
// One element larger than this goes to the reference path, which refuses a
// string this long; so both paths give the same result for it.
constexpr std::size_t kMaxBuffer = ChunkedFileReader::kMaxJsonString;
// A page: where in it each read lands (Producer::refill).
constexpr std::size_t kReadAlignment = 4096;
constexpr std::size_t kJobEvents = 256; // events parsed at a time
constexpr std::size_t kJobs = 8; // in flight between the threads

// Events between asking for an event's lines and handing it to the sink.
// The events were filled on the other core, and the sink's first read of
// each line waited for it to come over. With 8 ahead the sink's share of
// a 1 M load's samples fell by 13 % (4 ahead: less).
constexpr std::size_t kPrefetchAhead = 8;

// Asks for the lines of the fields every event sets (ChromeEvent's hot
// part, up to `numericArgs`).
void prefetchHot(const ChromeEvent& e)
{
    const auto* const first = reinterpret_cast<const char*>(&e);
    const auto* const end = reinterpret_cast<const char*>(&e.numericArgs + 1);
    for (const char* line = first; line < end; line += 64)
        __builtin_prefetch(line);
}

// Whether `text`, a value the file ends inside, is the start of valid JSON:
// what the reference reader's parser says past the end of the input, and
// nowhere before it (nothing is built: the events are not read here).
bool isCutJson(std::string_view text)
{
    struct Sax {
        std::size_t errorAt = 0;
        bool null() { return true; }
        bool boolean(bool) { return true; }
        bool number_integer(std::int64_t) { return true; }
        bool number_unsigned(std::uint64_t) { return true; }
        bool number_float(double, const std::string&) { return true; }
        bool string(std::string&) { return true; }
        bool binary(std::vector<std::uint8_t>&) { return true; }
        bool start_object(std::size_t) { return true; }
        bool key(std::string&) { return true; }
        bool end_object() { return true; }
        bool start_array(std::size_t) { return true; }
        bool end_array() { return true; }
        bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception&)
        {
            errorAt = position;
            return false;
        }
    } sax;
    if (nlohmann::json::sax_parse(text, &sax))
        return false; // whole: not cut
    return sax.errorAt > text.size();
}

// Thrown inside the producer: the reference reader must take this file.
struct Unsupported {
};
// Thrown inside the producer: cancelled, what was read kept (the elements
// whole in the buffer are queued first).
struct Cut {
};

// A run of events: its text (copied out of the read buffer, so that any
// thread can parse it while reading goes on) and, once parsed, its events.
struct Job {
    enum State : std::uint8_t { Free, Pending, Parsing, Parsed, Failed };
    State state = Free;
    std::vector<char> text; // "[e1,e2,...]" and simdjson's padding
    std::size_t length = 0;
    std::size_t elements = 0;
    std::vector<ChromeEvent> events; // their texts in `text` and `texts`
    TextArena texts;
};

// What the producer hands the consumer, in file order.
struct Item {
    enum Kind : std::uint8_t { Events, Key, Skipped, Warning, Done, Unsupported, Failed, Cancelled, Cut };
    Kind kind = Events;
    std::size_t job = 0; // Events
    std::string kindText; // Key: the key; Skipped: what; Warning: its kind
    std::string message; // Warning
    std::exception_ptr error; // Failed
};

} // namespace

// The producer finds events and queues jobs; both it and the consumer parse
// jobs (whoever is free takes the oldest pending one), and the consumer hands
// parsed events to the sink in file order. Everything shared is under one
// mutex; parsing and reading happen outside it.
class ChromeFastReader::Producer
{
public:
    Producer(QIODevice& file, const LoadControl& control) : m_file(file), m_control(control), m_jobs(kJobs)
    {
        m_size = file.isSequential() ? 0 : file.size();
        // Blocks of a MiB, or the whole of a smaller file at once.
        m_blockSize = file.isSequential()
            ? kBlockSize
            : std::size_t(std::clamp<qint64>(m_size - file.pos() + 1, 4096, qint64(kBlockSize)));
        m_buffer.resize(kReadAlignment + m_blockSize + simdjson::SIMDJSON_PADDING + 1);
    }

    void run()
    {
        try {
            parse();
            push(Item{Item::Done, 0, {}, {}, {}});
        } catch (const struct Unsupported&) {
            push(Item{Item::Unsupported, 0, {}, {}, {}});
        } catch (const struct Cut&) {
            push(Item{Item::Cut, 0, {}, {}, {}});
        } catch (const LoadCancelled&) {
            push(Item{Item::Cancelled, 0, {}, {}, {}});
        } catch (...) {
            push(Item{Item::Failed, 0, {}, {}, std::current_exception()});
        }
    }

    // --- Consumer side.

    // The next item in file order; for events, once its job is parsed
    // (parsing it here if nobody has started).
    Item next(ChromeBatchParser& parser)
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_changed.wait(lock, [this] { return !m_items.empty(); });
            Item& front = m_items.front();
            if (front.kind == Item::Events) {
                Job& job = m_jobs[front.job];
                if (job.state == Job::Pending) {
                    parseJob(job, parser, lock);
                    continue;
                }
                if (job.state == Job::Parsing) {
                    // Parsed elsewhere: parse a later one meanwhile, if any.
                    if (Job* later = oldestPending()) {
                        parseJob(*later, parser, lock);
                        continue;
                    }
                    m_changed.wait(lock, [&job] { return job.state != Job::Parsing; });
                    continue;
                }
            }
            Item item = std::move(front);
            m_items.pop_front();
            return item;
        }
    }
    Job& job(std::size_t index) { return m_jobs[index]; }
    void release(std::size_t index)
    {
        {
            std::lock_guard lock(m_mutex);
            m_jobs[index].state = Job::Free;
        }
        m_changed.notify_all();
    }
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopped.store(true);
        }
        m_changed.notify_all();
    }
    std::int64_t bytesRead() const { return m_fileOffset + std::int64_t(m_end); }

private:
    void push(Item item)
    {
        {
            std::lock_guard lock(m_mutex);
            m_items.push_back(std::move(item));
        }
        m_changed.notify_all();
    }

    // Parses a Pending job; called with the lock held, parses without it.
    void parseJob(Job& job, ChromeBatchParser& parser, std::unique_lock<std::mutex>& lock)
    {
        job.state = Job::Parsing;
        lock.unlock();
        job.texts.clear(); // the events of its last use are consumed
        const long count = parser.parse(job.text.data(), job.length, job.text.size(), job.events, job.texts);
        lock.lock();
        job.state = count == long(job.elements) ? Job::Parsed : Job::Failed;
        m_changed.notify_all();
    }

    // The first job in file order nobody has started parsing (lock held):
    // the consumer's pick, as it needs them in order.
    Job* oldestPending()
    {
        for (const Item& item : m_items) {
            if (item.kind == Item::Events && m_jobs[item.job].state == Job::Pending)
                return &m_jobs[item.job];
        }
        return nullptr;
    }

    // The last such job, if it is not also the first: the producer's pick
    // (when all jobs are in flight), so that it does not hold up the one the
    // consumer needs next.
    Job* newestPending()
    {
        Job* newest = nullptr;
        std::size_t pending = 0;
        for (auto it = m_items.rbegin(); it != m_items.rend(); ++it) {
            if (it->kind == Item::Events && m_jobs[it->job].state == Job::Pending) {
                if (!newest)
                    newest = &m_jobs[it->job];
                ++pending;
            }
        }
        return pending >= 2 ? newest : nullptr;
    }

    // --- The read buffer: buffer byte i holds file byte m_fileOffset + i,
    // up to m_end. The byte before the file's first is scratch, so that
    // every value has a byte before it.

    // Reads more, keeping the bytes from `keep` on. Returns false at the end.
    bool refill(std::size_t keep)
    {
        if (m_eof)
            return false;
        if (m_stopped.load(std::memory_order_relaxed))
            throw LoadCancelled();
        if (m_control.cancel && m_control.cancel->load(std::memory_order_relaxed)) {
            if (m_control.keepsWhatWasRead()) {
                flush();
                throw Cut();
            }
            throw LoadCancelled();
        }
        // Pending elements are offsets into the buffer, which is about to move.
        flush();
        const std::size_t from = keep == 0 ? 0 : keep - 1;
        const std::size_t kept = m_end - from;
        if (kept + kReadAlignment + m_blockSize + simdjson::SIMDJSON_PADDING > m_buffer.size()) {
            if (kept + m_blockSize > kMaxBuffer)
                throw Unsupported(); // one enormous value
            m_buffer.resize(
                std::max(m_buffer.size() * 2, kept + kReadAlignment + m_blockSize + simdjson::SIMDJSON_PADDING));
        }
        // The kept bytes go where the read that follows them lands at the
        // offset within a page its bytes have in the file, and so in the
        // page cache the kernel copies them from. On this AMD EPYC host the
        // copy of a read whose destination lay 1 to 15 bytes past its
        // source's offset took 2.8 x as long (a 100 MB file read in MiB
        // blocks: 42 ms against 15 ms), and where the kept bytes fell at
        // the buffer's start, a load's reads met that case by chance: one
        // load in 15 spent 9 ms more reading.
        const auto next = std::uint64_t(m_fileOffset) + m_end; // the read's first byte in the file
        const auto to = std::size_t((next - kept - reinterpret_cast<std::uintptr_t>(m_buffer.data())) % kReadAlignment);
        std::memmove(m_buffer.data() + to, m_buffer.data() + from, kept);
        m_fileOffset += std::int64_t(from) - std::int64_t(to);
        m_pos = m_pos - from + to;
        m_elementStart = m_elementStart >= from ? m_elementStart - from + to : to;
        m_end = to + kept;
        const qint64 got = m_file.read(m_buffer.data() + m_end, qint64(m_blockSize));
        if (got < 0)
            throw Unsupported(); // the reference reader reports read errors
        if (got == 0) {
            m_eof = true;
            return false;
        }
        m_end += std::size_t(got);
        if (m_control.memory)
            m_control.memory->checkWhileReading(bytesRead());
        if (m_control.progress) {
            const auto [done, total] = GzipDevice::progress(m_file, bytesRead());
            m_control.progress(done, total);
        }
        return true;
    }

    // The next non-blank byte (m_pos at it), or -1 at the end.
    int peekToken()
    {
        for (;;) {
            while (m_pos < m_end && JsonPrefix::isBlank(m_buffer[m_pos]))
                ++m_pos;
            if (m_pos < m_end)
                return static_cast<unsigned char>(m_buffer[m_pos]);
            if (!refill(m_pos))
                return -1;
        }
    }

    // A top-level key: a plain string without escapes. False if the file
    // ends before it is whole.
    bool readKey(std::string& key)
    {
        const int first = peekToken();
        if (first < 0)
            return false;
        if (first != '"')
            throw Unsupported();
        key.clear();
        ++m_pos;
        bool ascii = true;
        for (;;) {
            if (m_pos == m_end && !refill(m_pos)) {
                // Cut inside the key: a cut only if what is there is valid.
                if (!ascii && !isCutJson('"' + key))
                    throw Unsupported();
                return false;
            }
            const char c = m_buffer[m_pos++];
            if (c == '"') {
                // Nothing else here looks at the key's bytes: a key that is
                // not UTF-8 once loaded here and failed on the reference
                // path (found by fuzz_load reading its input both ways).
                if (!ascii && !nlohmann::json::accept('"' + key + '"'))
                    throw Unsupported();
                return true;
            }
            if (c == '\\' || static_cast<unsigned char>(c) < 0x20)
                throw Unsupported();
            ascii = ascii && static_cast<unsigned char>(c) < 0x80;
            key += c;
        }
    }

    // Finds the end of the value at m_pos; on return the value is
    // [m_elementStart, m_pos) in the buffer. False if the file ends inside it.
    bool scanValue()
    {
        m_elementStart = m_pos;
        m_skipper.start(m_buffer[m_pos]);
        std::size_t scanned = m_pos;
        for (;;) {
            const char* end = m_skipper.feed(m_buffer.data() + scanned, m_buffer.data() + m_end);
            if (end) {
                m_pos = std::size_t(end - m_buffer.data());
                return true;
            }
            scanned = m_end;
            // Keep the value's bytes: they are parsed once it is whole.
            const std::size_t before = m_elementStart;
            if (!refill(m_elementStart)) {
                // A scalar ends at the end of the file; a container does not.
                if (!m_skipper.isContainer() && m_skipper.first() != '"') {
                    m_pos = m_end;
                    return true;
                }
                return false;
            }
            scanned -= before - m_elementStart;
        }
    }

    // A value that is not events, checked the way the reference reader
    // would read it (so that the same files are accepted). False if the
    // file ends inside it.
    bool skipOtherValue()
    {
        if (!scanValue()) {
            // Cut inside it: only if what is there is valid up to the end.
            if (!isCutJson(std::string_view(m_buffer.data() + m_elementStart, m_end - m_elementStart)))
                throw Unsupported();
            return false;
        }
        const std::size_t length = m_pos - m_elementStart;
        if (length > (16u << 20))
            throw Unsupported(); // the reference reader judges big ones
        simdjson::padded_string copy(m_buffer.data() + m_elementStart, length);
        simdjson::dom::element element;
        if (m_dom.parse(copy).get(element))
            throw Unsupported();
        return true;
    }

    void parse()
    {
        m_end = 1; // byte 0 is the scratch byte before the first value
        m_pos = 1;
        if (!refill(1))
            throw Unsupported(); // empty: the format detector already said what it is
        // A UTF-8 byte order mark, as nlohmann skips it.
        if (m_end - m_pos >= 3 && std::memcmp(m_buffer.data() + m_pos, "\xEF\xBB\xBF", 3) == 0)
            m_pos += 3;
        const int first = peekToken();
        if (first == '[') {
            ++m_pos;
            if (!events(true))
                return; // a tolerated end: the reference reader stops there too
        } else if (first == '{') {
            ++m_pos;
            if (!objectForm())
                return; // cut short
        } else {
            throw Unsupported();
        }
        trailingData();
    }

    // False if the file was cut short after the event array began (its
    // events are kept, with a warning); a cut before it leaves nothing to
    // read, and the reference reader words the error.
    bool objectForm()
    {
        bool sawEvents = false;
        // Where the file ends after the events: not inside a value, or
        // inside the value of this key (as the reference reader says it).
        auto cutAfterEvents = [this, &sawEvents](std::string_view key) {
            if (!sawEvents)
                throw Unsupported();
            warning("truncated file", ChromeJsonReader::cutAfterEvents(key));
            return false;
        };
        if (peekToken() == '}')
            throw Unsupported(); // no traceEvents: the reference reader words it
        std::string key;
        for (;;) {
            if (!readKey(key))
                return cutAfterEvents("");
            // The reference reader takes the key before it looks for ':'.
            push(Item{Item::Key, 0, key, {}, {}});
            if (key == "samples" || key == "stackFrames")
                push(Item{Item::Skipped, 0, "top-level '" + key + "' (sampled stacks are not imported)", {}, {}});
            const int colon = peekToken();
            if (colon < 0)
                return cutAfterEvents(key);
            if (colon != ':')
                throw Unsupported();
            ++m_pos;
            const int c = peekToken();
            if (c < 0)
                return cutAfterEvents(key);
            if (key == "traceEvents") {
                if (c != '[' || sawEvents)
                    throw Unsupported();
                sawEvents = true;
                ++m_pos;
                if (!events(false))
                    return false;
            } else if (!skipOtherValue()) {
                return cutAfterEvents(key);
            }
            const int next = peekToken();
            if (next == ',') {
                ++m_pos;
                continue;
            }
            if (next == '}') {
                ++m_pos;
                break;
            }
            if (next < 0)
                return cutAfterEvents("");
            throw Unsupported();
        }
        if (!sawEvents)
            throw Unsupported();
        return true;
    }

    // The events array, after its '['. Returns false if it ended in a
    // tolerated way that stops reading: the quirks of the bare form, or
    // (either form) a file cut short.
    bool events(bool bare)
    {
        if (peekToken() == ']') {
            ++m_pos;
            return true;
        }
        auto endWith = [this](const char* kind, const std::string& message) {
            flush();
            warning(kind, message);
            return false;
        };
        // The end of the file between events: a bare array may end so (its
        // ']' is optional), an object is cut short.
        auto ended = [&] {
            if (bare)
                return endWith("unterminated event array", "the event array has no closing ']'");
            return endWith("truncated file", ChromeJsonReader::cutBetweenEvents(m_index + m_pending.size()));
        };
        for (;;) {
            if (peekToken() < 0)
                return ended();
            if (!scanValue()) {
                // A cut event is tolerated as the reference reader
                // tolerates it: only if nothing but its end is missing. A
                // syntax error before the cut is the reference reader's to
                // report (a spliced file once loaded here and failed there),
                // and so is an element that is not an object: the reference
                // reader refuses it at its first byte, cut or not.
                if (m_skipper.first() != '{'
                    || !isCutJson(std::string_view(m_buffer.data() + m_elementStart, m_end - m_elementStart)))
                    throw Unsupported();
                return endWith("truncated file", ChromeJsonReader::cutInsideEvent(m_index + m_pending.size()));
            }
            m_pending.push_back({m_elementStart, m_pos});
            if (m_pending.size() == kJobEvents)
                flush();
            const int next = peekToken();
            if (next == ',') {
                ++m_pos;
                if (peekToken() == ']') {
                    if (!bare)
                        throw Unsupported(); // an error in an object: the reference reader words it
                    return endWith("trailing comma", "a ',' precedes the closing ']' of the event array");
                }
                continue;
            }
            if (next == ']') {
                ++m_pos;
                flush();
                return true;
            }
            if (next < 0)
                return ended();
            throw Unsupported();
        }
    }

    void trailingData()
    {
        if (peekToken() < 0)
            return;
        const std::int64_t at = m_fileOffset + std::int64_t(m_pos);
        m_pos = m_end; // counted, not kept
        while (refill(m_end))
            m_pos = m_end;
        const std::int64_t extra = m_fileOffset + std::int64_t(m_end) - at;
        warning("trailing data",
                std::to_string(extra) + " bytes after the end of the trace (byte " + std::to_string(at) + ") are ignored");
    }

    void warning(std::string kind, std::string message)
    {
        push(Item{Item::Warning, 0, std::move(kind), std::move(message), {}});
    }

    // Makes a job of the pending elements (all in the buffer): their text,
    // with what separates them, as one JSON array.
    void flush()
    {
        if (m_pending.empty())
            return;
        std::size_t index = 0;
        {
            std::unique_lock lock(m_mutex);
            for (;;) {
                if (m_stopped)
                    throw LoadCancelled();
                const auto free = std::find_if(m_jobs.begin(), m_jobs.end(), [](const Job& j) { return j.state == Job::Free; });
                if (free != m_jobs.end()) {
                    index = std::size_t(free - m_jobs.begin());
                    break;
                }
                // All jobs in flight: parse one rather than wait.
                Job* pending = newestPending();
                if (pending)
                    parseJob(*pending, m_parser, lock);
                else
                    m_changed.wait(lock);
            }
        }
        Job& job = m_jobs[index];
        const std::size_t from = m_pending.front().first;
        const std::size_t to = m_pending.back().second;
        job.length = to - from + 2;
        if (job.text.size() < job.length + simdjson::SIMDJSON_PADDING)
            job.text.resize(job.length + simdjson::SIMDJSON_PADDING);
        job.text[0] = '[';
        std::memcpy(job.text.data() + 1, m_buffer.data() + from, to - from);
        job.text[job.length - 1] = ']';
        job.elements = m_pending.size();
        m_index += m_pending.size();
        m_pending.clear();
        {
            std::lock_guard lock(m_mutex);
            job.state = Job::Pending;
            m_items.push_back(Item{Item::Events, index, {}, {}, {}});
        }
        m_changed.notify_all();
    }

    QIODevice& m_file;
    const LoadControl& m_control;
    std::vector<char> m_buffer;
    std::size_t m_blockSize = kBlockSize;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    std::size_t m_elementStart = 0;
    std::int64_t m_fileOffset = -1; // the file byte buffer byte 0 holds (refill)
    std::int64_t m_size = 0;
    bool m_eof = false;
    JsonSkipper m_skipper;
    std::vector<std::pair<std::size_t, std::size_t>> m_pending; // elements not yet in a job
    std::uint64_t m_index = 0;
    ChromeBatchParser m_parser;
    simdjson::dom::parser m_dom;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Item> m_items;
    std::vector<Job> m_jobs;
    std::atomic<bool> m_stopped{false};
};

ChromeFastReader::ChromeFastReader(QIODevice& file, const LoadControl& control, Diagnostics& diagnostics,
                                   ChromeJsonReader::Sink sink)
    : m_file(file), m_control(control), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

ChromeFastReader::~ChromeFastReader() = default;

namespace {
std::atomic<std::uint64_t> g_completedReads{0};
} // namespace

std::uint64_t ChromeFastReader::completedReads()
{
    return g_completedReads.load();
}

bool ChromeFastReader::enabled()
{
    const char* mode = std::getenv("RUNLANE_JSON");
    return !(mode && std::strcmp(mode, "reference") == 0);
}

ChromeFastReader::Outcome ChromeFastReader::read()
{
    Producer producer(m_file, m_control);
    ChromeBatchParser parser; // this thread's, for the jobs it parses
    std::thread thread([&producer] { producer.run(); });
    // The producer must be stopped and joined whatever happens here.
    struct Join {
        Producer& producer;
        std::thread& thread;
        ~Join()
        {
            producer.stop();
            thread.join();
        }
    } join{producer, thread};

    for (;;) {
        Item item = producer.next(parser);
        switch (item.kind) {
        case Item::Events: {
            Job& job = producer.job(item.job);
            if (job.state == Job::Failed)
                return Outcome::Unsupported;
            const std::size_t count = job.elements;
            for (std::size_t i = 0; i < count; ++i) {
                if (i + kPrefetchAhead < count)
                    prefetchHot(job.events[i + kPrefetchAhead]);
                // The name's own bytes, once the line that points to them
                // has come (asked for a few events before).
                if (i + kPrefetchAhead / 2 < count)
                    __builtin_prefetch(job.events[i + kPrefetchAhead / 2].name.data());
                m_sink(job.events[i], m_eventCount++);
            }
            producer.release(item.job);
            // To keep what was read, the producer says where the cut is.
            if (m_control.cancel && m_control.cancel->load(std::memory_order_relaxed)
                && !m_control.keepsWhatWasRead())
                throw LoadCancelled();
            break;
        }
        case Item::Key:
            if (m_keySink)
                m_keySink(item.kindText);
            break;
        case Item::Skipped:
            m_diagnostics.skipped(item.kindText);
            break;
        case Item::Warning:
            m_diagnostics.warn(item.kindText, std::move(item.message));
            break;
        case Item::Done:
            m_bytesRead = producer.bytesRead();
            ++g_completedReads;
            return Outcome::Read;
        case Item::Unsupported:
            return Outcome::Unsupported;
        case Item::Cut:
            m_bytesRead = producer.bytesRead();
            return Outcome::Cut;
        case Item::Cancelled:
            throw LoadCancelled();
        case Item::Failed:
            std::rethrow_exception(item.error);
        }
    }
}

} // namespace runlane
