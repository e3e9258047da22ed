#include "geckoreader.h"

#include "jsonsaxhandler.h"
#include "sampletree.h"

#include <algorithm>
#include <cmath>

namespace runlane {

namespace {

using Json = nlohmann::json;
using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

// Splits the file as it streams: `meta`, `shared` and each thread object
// are handed to the reader as small documents; everything else (libs,
// counters, pages, the DevTools recording's own fields) is skipped.
class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, GeckoReader& reader) : JsonSaxHandler(input), m_reader(reader) { }

    // Strings are handed to the document being captured as they are, without
    // a copy of their text.
    bool string(std::string& v)
    {
        if (m_capture)
            return m_dom->string(v);
        if (m_frames.empty()) {
            scalarOutside("a string");
            return true;
        }
        const Frame& f = m_frames.back();
        // Old gecko versions wrote threads and child processes as strings
        // of JSON.
        if (f.kind == Kind::Threads || f.kind == Kind::Processes) {
            if (f.kind == Kind::Processes) {
                m_reader.takeProcessText(f.process, v);
            } else {
                auto thread = std::make_unique<Json>(parseText(v, "thread"));
                m_reader.takeThread(f.process, std::move(thread));
            }
        }
        return true;
    }

private:
    friend JsonSaxHandler<Handler>;

    // nlohmann's JSON parser never knows a container's size ahead.
    static constexpr std::size_t kUnknownSize = std::size_t(-1);

    void scalar(const JsonScalar& v)
    {
        if (!m_capture) {
            scalarOutside(v.plain());
            return;
        }
        switch (v.kind) {
        case JsonScalar::Null:
            m_dom->null();
            break;
        case JsonScalar::True:
        case JsonScalar::False:
            m_dom->boolean(v.kind == JsonScalar::True);
            break;
        case JsonScalar::Integer:
            m_dom->number_integer(v.i);
            break;
        case JsonScalar::Unsigned:
            m_dom->number_unsigned(v.u);
            break;
        case JsonScalar::Float:
            m_dom->number_float(v.f, std::string()); // the DOM keeps the double only
            break;
        case JsonScalar::String: // string() takes these
            break;
        }
    }
    void member(std::string& k)
    {
        if (m_capture)
            m_dom->key(k);
        else
            JsonSaxHandler::member(k);
    }
    void open(char bracket)
    {
        if (m_capture) {
            if (bracket == '{')
                m_dom->start_object(kUnknownSize);
            else
                m_dom->start_array(kUnknownSize);
        } else if (bracket == '{') {
            openObject();
        } else {
            openArray();
        }
    }
    void close(char bracket)
    {
        if (!m_capture) {
            m_frames.pop_back();
            return;
        }
        if (bracket == '}')
            m_dom->end_object();
        else
            m_dom->end_array();
        if (depth() == m_captureDepth)
            deliver();
    }
    void openObject()
    {
        const std::string& key = lastKey();
        if (m_frames.empty()) {
            m_frames.push_back({Kind::Profile, 0});
            return;
        }
        const Frame f = m_frames.back();
        if (f.kind == Kind::Profile && (key == "meta" || key == "shared"))
            return capture(key == "meta" ? What::Meta : What::Shared, f.process);
        if (f.kind == Kind::Threads)
            return capture(What::Thread, f.process);
        if (f.kind == Kind::Processes) {
            m_frames.push_back({Kind::Profile, m_reader.addProcess(f.process)});
            return;
        }
        // A DevTools recording: the profile is under `profile`.
        if (f.kind == Kind::Profile && m_frames.size() == 1 && key == "profile") {
            m_frames.push_back({Kind::Profile, f.process});
            return;
        }
        m_frames.push_back({Kind::Skip, f.process});
    }
    void openArray()
    {
        if (m_frames.empty())
            throw error("expected a Firefox profile object {\"meta\": {...}, \"threads\": [...]}, found an array");
        const Frame f = m_frames.back();
        if (f.kind == Kind::Threads || f.kind == Kind::Processes)
            throw error(std::string("expected a ") + (f.kind == Kind::Threads ? "thread" : "process") + " object in '"
                        + (f.kind == Kind::Threads ? "threads" : "processes") + "', found an array");
        Kind next = Kind::Skip;
        if (f.kind == Kind::Profile && lastKey() == "threads")
            next = Kind::Threads;
        else if (f.kind == Kind::Profile && lastKey() == "processes")
            next = Kind::Processes;
        m_frames.push_back({next, f.process});
    }

    enum class Kind : std::uint8_t { Profile, Threads, Processes, Skip };
    enum class What : std::uint8_t { Meta, Shared, Thread };
    struct Frame {
        Kind kind = Kind::Skip;
        std::size_t process = 0;
    };

    FormatError error(const std::string& what) const { return FormatError(what, -1, input().offset()); }

    Json parseText(const std::string& text, const char* what) const
    {
        Json value = Json::parse(text, nullptr, false);
        if (value.is_discarded())
            throw error(std::string("a ") + what + " given as a string is not valid JSON");
        return value;
    }

    // A value where the profile's parts are not captured.
    void scalarOutside(const std::string& text)
    {
        if (m_frames.empty())
            throw error("expected a Firefox profile object {\"meta\": {...}, \"threads\": [...]}, found " + jsonsax::describeScalar(text));
        const Kind k = m_frames.back().kind;
        if (k == Kind::Threads || k == Kind::Processes)
            throw error(std::string("expected a ") + (k == Kind::Threads ? "thread" : "process") + " object in '"
                        + (k == Kind::Threads ? "threads" : "processes") + "', found " + jsonsax::describeScalar(text));
    }

    // Reads the object that opens now into a document.
    void capture(What what, std::size_t process)
    {
        m_doc = std::make_unique<Json>();
        m_dom = std::make_unique<DomParser>(*m_doc, false);
        m_capture = true;
        m_what = what;
        m_captureProcess = process;
        m_captureDepth = depth();
        m_dom->start_object(kUnknownSize);
    }

    void deliver()
    {
        m_capture = false;
        m_dom.reset();
        switch (m_what) {
        case What::Meta:
            m_reader.takeMeta(m_captureProcess, *m_doc);
            break;
        case What::Shared:
            m_reader.takeShared(*m_doc);
            break;
        case What::Thread:
            m_reader.takeThread(m_captureProcess, std::move(m_doc));
            break;
        }
        m_doc.reset();
    }

    GeckoReader& m_reader;
    std::vector<Frame> m_frames;
    bool m_capture = false;
    What m_what = What::Meta;
    std::size_t m_captureProcess = 0;
    int m_captureDepth = 0; // depth() outside the captured object
    std::unique_ptr<Json> m_doc;
    std::unique_ptr<DomParser> m_dom;
};

} // namespace

GeckoReader::GeckoReader(ChunkedFileReader& input, ProfileBuilder& builder) : m_input(input), m_builder(builder)
{
    m_processes.emplace_back();
}

GeckoReader::~GeckoReader() = default;

std::size_t GeckoReader::addProcess(std::size_t parent)
{
    if (m_processes.size() >= 100000)
        throw FormatError("more than 100000 child processes");
    Process p;
    p.parent = parent;
    m_processes.push_back(p);
    return m_processes.size() - 1;
}

void GeckoReader::takeMeta(std::size_t process, const Json& meta)
{
    Process& p = m_processes[process];
    p.hasMeta = true;
    if (const auto it = meta.find("startTime"); it != meta.end() && it->is_number())
        p.startTime = it->get<double>();
    if (const auto it = meta.find("interval"); it != meta.end() && it->is_number() && it->get<double>() > 0)
        p.interval = it->get<double>();
    if (const auto it = meta.find("product"); it != meta.end() && it->is_string())
        p.product = it->get<std::string>();
    else if (p.parent != process)
        p.product = m_processes[p.parent].product;
    if (const auto it = meta.find("categories"); it != meta.end() && it->is_array()) {
        for (const Json& c : *it) {
            const auto name = c.is_object() ? c.find("name") : c.end();
            p.categories.push_back(c.is_object() && name != c.end() && name->is_string() ? name->get<std::string>() : "");
        }
    }
    // Threads that waited for this meta.
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->process == process && (m_sharedStrings || it->thread->contains("stringTable") || it->thread->contains("stringArray"))) {
            readThread(it->process, it->order, *it->thread);
            it = m_pending.erase(it);
        } else {
            ++it;
        }
    }
}

void GeckoReader::takeShared(const Json& shared)
{
    const auto it = shared.find("stringArray");
    if (it == shared.end() || !it->is_array())
        return;
    std::vector<std::string> strings;
    strings.reserve(it->size());
    for (const Json& s : *it)
        strings.push_back(s.is_string() ? s.get<std::string>() : std::string());
    m_sharedStrings = std::move(strings);
}

void GeckoReader::takeThread(std::size_t process, std::unique_ptr<Json> thread)
{
    // Gecko version 3 wrote each child process as a string in `threads`.
    if (thread->is_object() && thread->contains("meta") && thread->contains("threads")) {
        takeProcess(process, *thread, 0);
        return;
    }
    const std::size_t order = m_threadCount++;
    const bool ownStrings = thread->is_object() && (thread->contains("stringTable") || thread->contains("stringArray"));
    if (m_processes[process].hasMeta && (ownStrings || m_sharedStrings))
        readThread(process, order, *thread);
    else
        m_pending.push_back(Pending{process, order, std::move(thread)});
}

void GeckoReader::takeProcessText(std::size_t parent, const std::string& text)
{
    const Json profile = Json::parse(text, nullptr, false);
    if (profile.is_discarded() || !profile.is_object())
        throw FormatError("a child process given as a string is not a JSON object");
    takeProcess(parent, profile, 0);
}

void GeckoReader::takeProcess(std::size_t parent, const Json& profile, int depth)
{
    if (depth > 16)
        throw FormatError("child processes nest more than 16 deep");
    const std::size_t process = addProcess(parent);
    if (const auto meta = profile.find("meta"); meta != profile.end() && meta->is_object())
        takeMeta(process, *meta);
    if (const auto threads = profile.find("threads"); threads != profile.end() && threads->is_array()) {
        for (const Json& t : *threads)
            takeThread(process, std::make_unique<Json>(t.is_string() ? Json::parse(t.get<std::string>(), nullptr, false) : t));
    }
    if (const auto children = profile.find("processes"); children != profile.end() && children->is_array()) {
        for (const Json& child : *children) {
            if (child.is_string())
                takeProcessText(process, child.get<std::string>());
            else if (child.is_object())
                takeProcess(process, child, depth + 1);
        }
    }
}

void GeckoReader::readThread(std::size_t process, std::size_t order, const Json& thread)
{
    GeckoThreadReader reader(m_builder, m_processes[process].categories, m_sharedStrings ? &*m_sharedStrings : nullptr);
    if (m_threads.size() <= order)
        m_threads.resize(order + 1);
    m_threads[order] = {process, reader.read(thread, order)};
}

void GeckoReader::read()
{
    Handler handler(m_input, *this);
    if (!handler.parse())
        handler.throwSyntaxError();
    // What still waits has no meta (its times are then taken as they are)
    // or no strings anywhere (reading it says so).
    for (Pending& p : m_pending)
        readThread(p.process, p.order, *p.thread);
    m_pending.clear();
    if (m_threadCount == 0)
        throw FormatError(m_processes.front().hasMeta ? "a Firefox profile needs 'threads'; this file has none"
                                                      : "not a Firefox profile: no 'meta' and no 'threads'");
    emit();
}

Time GeckoReader::toTime(double ms, Time offset) const
{
    const double ns = std::round(ms * 1e6);
    if (!std::isfinite(ns) || std::fabs(ns) > 4e18)
        throw FormatError("a time of " + std::to_string(ms) + " ms is out of the range this reader can hold");
    return offset + Time(ns);
}

void GeckoReader::emit()
{
    m_builder.setUnit(ValueUnit::Nanoseconds);
    for (const auto& [process, thread] : m_threads)
        emitThread(thread, process);
}

void GeckoReader::emitThread(const GeckoThread& thread, std::size_t process)
{
    // One axis: the top profile's start is 0, a child process's times move
    // by how much later it started.
    const Process& p = m_processes[process];
    const Process& root = m_processes.front();
    const Time offset = p.startTime && root.startTime ? toTime(*p.startTime - *root.startTime, 0) : 0;

    TrackInfo info;
    info.kind = TrackKind::Samples;
    info.threadName = m_builder.intern(thread.name);
    const bool main = thread.processType.empty() || thread.processType == "default";
    const std::string product = p.product.empty() ? std::string("Firefox") : p.product;
    info.processName = m_builder.intern(main ? product : product + " " + thread.processType);
    if (thread.hasPid) {
        info.pid = thread.pid;
    } else {
        // No numeric pid: the threads of one child profile, or of one
        // process type, are one process.
        const std::string key = !thread.pidText.empty() ? thread.pidText : thread.processType + "#" + std::to_string(process);
        auto it = std::find(m_pidNames.begin(), m_pidNames.end(), key);
        if (it == m_pidNames.end())
            it = m_pidNames.insert(m_pidNames.end(), key);
        info.pid = std::int64_t(it - m_pidNames.begin()) + 1;
    }
    info.tid = thread.hasTid ? thread.tid : std::int64_t(m_builder.trackCount());
    info.processSortIndex = std::int64_t(process);
    info.threadSortIndex = std::int64_t(m_builder.trackCount());

    if (!thread.ignoredWeightType.empty())
        m_builder.diagnostics().warn("sample weights not shown",
                                     "thread \"" + thread.name + "\" weighs its samples in '" + thread.ignoredWeightType
                                         + "'; each sample is shown lasting until the next one instead");
    if (thread.unpairedMarkers > 0)
        m_builder.diagnostics().warn("unpaired interval markers",
                                     "thread \"" + thread.name + "\": " + std::to_string(thread.unpairedMarkers)
                                         + " interval markers lack their start or end and are left out");

    TrackId samplesTrack = kNone;
    if (!thread.sampleTime.empty()) {
        samplesTrack = m_builder.addTrack(info);
        SampleTree tree(m_builder);
        for (std::size_t s = 0; s < thread.stackLabel.size(); ++s) {
            tree.addNode(std::int64_t(s), thread.stackLabel[s]);
            if (thread.stackPrefix[s] >= 0)
                tree.setParent(std::int64_t(s), thread.stackPrefix[s]);
        }
        double last = thread.sampleTime.front();
        for (std::size_t i = 0; i < thread.sampleTime.size(); ++i) {
            // A null stack is time with no frame.
            const std::int64_t stack = thread.sampleStack[i] < 0 ? SampleTree::kNoStack : thread.sampleStack[i];
            tree.addSample(toTime(thread.sampleTime[i], offset), stack);
            last = std::max(last, thread.sampleTime[i]);
        }
        // Each sample lasts until the next; the last one the sampling
        // interval.
        const Time end = toTime(last + p.interval, offset);
        m_builder.extendSpan(end);
        tree.finish(samplesTrack, end);
    }
    emitMarkers(thread, info, samplesTrack, offset);
}

// Interval markers overlap freely (a network request across a paint), and
// a Thread track nests: markers are packed into as many "markers" tracks
// as it takes for each to hold only markers that nest.
void GeckoReader::emitMarkers(const GeckoThread& thread, const TrackInfo& samples, TrackId samplesTrack, Time offset)
{
    struct Item {
        Time start = 0;
        Time end = 0;
        StringId name = kEmptyString;
    };
    std::vector<Item> intervals;
    for (const GeckoThread::Marker& m : thread.markers) {
        if (m.instant) {
            Mark mark;
            mark.time = toTime(m.start, offset);
            mark.pid = samples.pid;
            mark.name = m.name;
            mark.track = samplesTrack;
            mark.scope = samplesTrack == kNone ? MarkScope::Process : MarkScope::Thread;
            m_builder.addMark(mark);
            m_builder.extendSpan(mark.time);
        } else {
            intervals.push_back({toTime(m.start, offset), toTime(m.end, offset), m.name});
        }
    }
    std::stable_sort(intervals.begin(), intervals.end(), [](const Item& a, const Item& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<std::vector<Time>> open; // per row, the ends of the markers open there
    std::vector<TrackId> tracks;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        const Item& m = intervals[i];
        std::size_t row = 0;
        for (; row < open.size(); ++row) {
            std::vector<Time>& ends = open[row];
            while (!ends.empty() && ends.back() <= m.start)
                ends.pop_back();
            if (ends.empty() || ends.back() >= m.end)
                break;
        }
        if (row == open.size()) {
            open.emplace_back();
            TrackInfo info = samples;
            info.kind = TrackKind::Thread;
            std::string name = thread.name + " markers";
            if (row > 0) { // appended, not " " + std::string: a false -Wrestrict of g++ 12 at -O3 (GCC bug 105329)
                name += ' ';
                name += std::to_string(row + 1);
            }
            info.threadName = m_builder.intern(name);
            tracks.push_back(m_builder.addTrack(info));
        }
        open[row].push_back(m.end);
        m_builder.addCall(tracks[row], m_builder.label(m_builder.string(m.name)), m.start, m.end, std::uint32_t(i));
    }
}

} // namespace runlane
