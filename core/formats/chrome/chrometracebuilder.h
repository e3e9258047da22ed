#pragma once

#include "blocklist.h"
#include "chromeasynctask.h"
#include "chromeevent.h"
#include "chromeflowcollector.h"
#include "chromepreviewpairs.h"
#include "chromesamplecollector.h"
#include "nodeasynchooks.h"
#include "profilebuilder.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlane {

// Format side of the Chrome loader (formats.md (b), semantics.md §8): turns
// ChromeEvents into the model. Events may come in any order, so `B/E` and
// async events are collected per thread / per async id and matched in
// finish(), after a stable sort by time.
class ChromeTraceBuilder
{
public:
    // Slices of this category are tasks that ran on their thread's running
    // stack (Runlane's own convert output); other async slices are concurrent.
    static constexpr std::string_view kThreadTaskCategory = "runlane.task";
    // Runlane's concurrent tasks: like any async slices, but their ids name
    // them in links (creator, trigger) and wakes.
    static constexpr std::string_view kAsyncTaskCategory = "runlane.async";
    // Instants of this category only mark where the profile starts or ends
    // (Runlane writes them when nothing else would keep the span).
    static constexpr std::string_view kSpanCategory = "runlane.span";

    explicit ChromeTraceBuilder(ProfileBuilder& builder);
    // Throws FormatError for events that break the format's rules.
    void addEvent(const ChromeEvent& event, std::uint64_t index);
    // A key of the file's top-level object (ChromeJsonReader::KeySink).
    void addTopLevelKey(std::string_view key);
    void finish();
    // Follows the load as it goes (ChromePreviewPairs), before the first
    // event: for its previews, if the builder's are started, and for a load
    // stopped and kept. Null until then.
    void followPartial();
    const ChromePreviewPairs* partial() const { return m_partial.get(); }

private:
    struct BeginEnd {
        Time ts;
        std::uint32_t order;
        LabelId label;
        StringId name; // kEmptyString: an E without a name
        bool begin;
        bool late; // earlier than an event before it in the file
    };
    struct Thread {
        TrackId track = kNone;
        // In blocks: a vector's doubling copied every B and E of a thread
        // again and again into fresh memory, on the thread that reads
        // every event. matchBeginEnd takes them into one array.
        BlockList<BeginEnd> events;
    };
    using AsyncEvent = ChromeAsyncEvent;
    using AsyncTask = ChromeAsyncTask;
    static constexpr std::int8_t kNoState = ChromeAsyncEvent::kNoState;
    static constexpr std::int8_t kOtherState = ChromeAsyncEvent::kOtherState;
    struct Process {
        StringId name = kEmptyString;
        std::int64_t sortIndex = 0;
        TrackId asyncTrack = kNone;
        bool workerPool = false; // metadata runlane_worker_pool
    };
    struct ThreadMeta {
        StringId name = kEmptyString;
        std::int64_t sortIndex = 0;
    };
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const noexcept
        {
            return std::size_t(p.first) * 0x9E3779B97F4A7C15ull ^ std::size_t(p.second);
        }
    };
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    // The event's timestamp; it also extends the profile's span.
    Time requireTs(const ChromeEvent& e, std::uint64_t index);
    std::int64_t resolveId(const ChromeEvent::Value& value, std::string_view field, std::uint64_t index,
                           std::int64_t fallback, StringId* nameOut);
    void resolvePidTid(const ChromeEvent& e, std::uint64_t index, std::int64_t& pid, std::int64_t& tid);
    Thread& thread(std::int64_t pid, std::int64_t tid);
    Process& process(std::int64_t pid);
    LabelId labelFor(const ChromeEvent& e);
    StringId nameFor(const ChromeEvent& e);
    static std::uint32_t orderOf(std::uint64_t index);

    void addComplete(const ChromeEvent& e, std::uint64_t index);
    void addInstant(const ChromeEvent& e, std::uint64_t index);
    void addCounter(const ChromeEvent& e, std::uint64_t index);
    void addMetadata(const ChromeEvent& e, std::uint64_t index);
    void addAsync(const ChromeEvent& e, std::uint64_t index, char kind, bool legacy);
    void addFlow(const ChromeEvent& e, std::uint64_t index, char ph);

    // The process and thread names and sort order metadata gave it.
    void nameTrack(TrackInfo& info) const;
    // `matched(k)` is told every 65,536 events or so, k of the thread's
    // events matched.
    void matchBeginEnd(Thread& thread, const std::function<void(std::size_t)>& matched);
    void buildAsyncTask(AsyncTask& task);
    void linkThreadTasks();
    TrackId asyncTrack(std::int64_t pid);

    ProfileBuilder& m_builder;
    Diagnostics& m_diagnostics;
    ChromeSampleCollector m_samples{m_builder};
    ChromeFlowCollector m_flows{m_builder};
    NodeAsyncHooks m_asyncHooks{m_builder};
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::uint32_t, PairHash> m_threadIndex;
    std::vector<Thread> m_threads;
    std::pair<std::int64_t, std::int64_t> m_lastThreadKey{0, 0};
    std::uint32_t m_lastThread = kNone;
    std::map<std::int64_t, Process> m_processes;
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, ThreadMeta, PairHash> m_threadMeta;
    // Labels of plain event names, by the hash the tokenizer computed:
    // looked up once per event, so a flat table rather than nodes. A slot
    // holds where its name's bytes lie in the pool (which never moves
    // them): comparing a name then reads the slot and those bytes, not the
    // pool's table of views as well, a second miss at every event (a third
    // of labelFor's samples at 1 M events).
    struct NameSlot {
        std::uint64_t hash = 0;
        const char* text = nullptr;
        std::uint32_t size = 0;
        LabelId label = kNone;
    };
    std::vector<NameSlot> m_nameSlots;
    std::size_t m_nameCount = 0;
    std::unordered_map<std::string, std::int64_t, StringHash, std::equal_to<>> m_stringIds;
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> m_asyncIndex;
    std::vector<AsyncTask> m_asyncTasks;
    // Runlane's tasks (kThreadTaskCategory, kAsyncTaskCategory) by their
    // numeric id, for the creators and triggers args name.
    std::unordered_map<std::int64_t, std::uint32_t> m_tasksById;
    bool m_threadTaskLinks = false;
    // The file is viztracer's: its Task-<n> threads are asyncio tasks.
    bool m_viztracer = false;
    // A wake read that is not inferred: a tokio recording converted by
    // runlane-cli (its wakers' operations as instants with args.wake).
    bool m_recordedWakes = false;
    std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> m_counterIndex;
    std::string m_keyBuffer;
    // matchBeginEnd's count of open B per name, reused from thread to thread.
    std::vector<std::uint32_t> m_openBegins;
    std::unique_ptr<ChromePreviewPairs> m_partial;
};

} // namespace runlane
