#include "cpuprofilereader.h"

#include "jsonsaxhandler.h"
#include "numberparse.h"
#include "sampletree.h"
#include "v8samples.h"

#include <optional>
#include <vector>

namespace runlane {

namespace {

enum class Context : std::uint8_t { Other, Top, Nodes, Node, CallFrame, Children, Samples, Deltas, Timestamps };

// A number as the file wrote it: an integer, or a decimal's text.
struct Number {
    bool ok = false;
    bool integer = false;
    std::int64_t value = 0;
    Decimal decimal;
};

class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, ProfileBuilder& builder) : JsonSaxHandler(input), tree(builder), m_builder(builder) { }

    struct NodeRecord {
        std::int64_t id = 0;
        std::optional<std::int64_t> parent;
        std::vector<std::int64_t> children;
        std::string function;
        std::string url;
        std::int64_t line = -1;
    };
    SampleTree tree; // the nodes, as they are read
    std::vector<std::int64_t> samples;
    std::vector<Time> deltas;
    std::vector<Time> timestamps; // the legacy form: each sample's time
    bool legacy = false; // a `head` tree instead of `nodes`
    std::optional<Time> startTime;
    std::optional<Time> endTime;

private:
    friend JsonSaxHandler<Handler>;

    void scalar(const JsonScalar& v)
    {
        switch (v.kind) {
        case JsonScalar::Integer:
        case JsonScalar::Unsigned:
            number(v.isInt64() ? Number{true, true, v.int64(), {}} : Number{}, v);
            break;
        case JsonScalar::Float: {
            Number n;
            n.ok = parseDecimal(v.text, n.decimal) == ParseStatus::Ok;
            number(n, v);
            break;
        }
        case JsonScalar::String:
            stringValue(v.text);
            break;
        default:
            expectNoScalar(here(), v.plain());
            break;
        }
    }
    void stringValue(std::string_view v)
    {
        const Context c = here();
        // The legacy form has the call frame's fields in the node itself.
        if (c == Context::CallFrame || (c == Context::Node && legacy)) {
            if (lastKey() == "functionName")
                node().function = v;
            else if (lastKey() == "url")
                node().url = v;
            return;
        }
        expectNoScalar(c, "\"" + jsonsax::describeScalar(v) + "\"");
    }

    void open(char bracket)
    {
        const Context c = here();
        const std::string& key = lastKey();
        Context next = Context::Other;
        if (bracket == '{') {
            if (m_stack.empty())
                next = Context::Top;
            else if (c == Context::Nodes || (c == Context::Top && key == "head"))
                next = startNode();
            else if (c == Context::Children && !m_open.empty())
                next = startNode(); // the legacy form: children are nodes
            else if (c == Context::Node && key == "callFrame")
                next = Context::CallFrame;
            else if (c != Context::Other && c != Context::Node && c != Context::Top)
                throw error("expected a number in '" + keyOf(c) + "', found an object");
        } else {
            if (m_stack.empty())
                throw error("expected a V8 CPU profile object {\"nodes\": [...], ...}, found an array");
            if (c == Context::Top && key == "nodes")
                next = Context::Nodes;
            else if (c == Context::Top && key == "samples")
                next = Context::Samples;
            else if (c == Context::Top && key == "timeDeltas")
                next = Context::Deltas;
            else if (c == Context::Top && key == "timestamps")
                next = Context::Timestamps;
            else if (c == Context::Node && key == "children")
                next = Context::Children;
            else if (c == Context::Nodes || c == Context::Samples || c == Context::Deltas || c == Context::Timestamps
                     || c == Context::Children)
                throw error("expected " + std::string(c == Context::Nodes ? "a node object" : "a number") + " in '"
                            + keyOf(c) + "', found an array");
        }
        m_stack.push_back(next);
    }
    void close(char bracket)
    {
        if (bracket == '}' && here() == Context::Node)
            endNode();
        m_stack.pop_back();
    }
    void member(std::string& key)
    {
        if (m_stack.size() == 1 && key == "head")
            legacy = true;
        JsonSaxHandler::member(key);
    }

    Context here() const { return m_stack.empty() ? Context::Other : m_stack.back(); }

    static std::string keyOf(Context c)
    {
        switch (c) {
        case Context::Nodes:
            return "nodes";
        case Context::Children:
            return "children";
        case Context::Samples:
            return "samples";
        case Context::Deltas:
            return "timeDeltas";
        case Context::Timestamps:
            return "timestamps";
        default:
            return "";
        }
    }

    FormatError error(const std::string& what) const { return FormatError(what, -1, input().offset()); }

    // Nodes nest only in the legacy form (`head`, children as objects):
    // the open ones are a stack, and a node that ends is its parent's child.
    Context startNode()
    {
        if (m_open.size() >= 10000)
            throw error("the call tree nests more than 10000 nodes deep");
        m_open.emplace_back();
        m_hasId.push_back(false);
        return Context::Node;
    }
    void endNode()
    {
        if (!m_hasId.back())
            throw error("node #" + std::to_string(tree.nodeCount()) + " has no 'id'");
        const NodeRecord& n = m_open.back();
        tree.addNode(n.id, v8samples::frameLabel(m_builder, n.function, n.url, n.line));
        if (n.parent)
            tree.setParent(n.id, *n.parent);
        for (const std::int64_t child : n.children)
            tree.setParent(child, n.id);
        const std::int64_t id = n.id;
        m_open.pop_back();
        m_hasId.pop_back();
        if (!m_open.empty())
            m_open.back().children.push_back(id);
    }
    NodeRecord& node() { return m_open.back(); }

    // Microseconds as written, to nanoseconds exactly.
    Time micros(const Number& n, const JsonScalar& v) const
    {
        std::int64_t ns = 0;
        const ParseStatus status = n.integer ? scaleInteger(n.value, 3, ns) : scaleDecimal(n.decimal, 3, ns);
        if (!n.ok || status != ParseStatus::Ok)
            throw error("'" + lastKey() + "': " + jsonsax::describeScalar(v.plain())
                        + " is not a time in microseconds this reader can hold");
        return ns;
    }
    std::int64_t integer(const Number& n, const JsonScalar& v, const std::string& where) const
    {
        if (!n.ok || !n.integer)
            throw error("expected an integer in '" + where + "', found " + jsonsax::describeScalar(v.plain()));
        return n.value;
    }

    // `v` is the number as read, for messages.
    void number(const Number& n, const JsonScalar& v)
    {
        const std::string& key = lastKey();
        switch (here()) {
        case Context::Top:
            // The legacy form gives these in seconds, and rounded: the
            // samples' own timestamps are what counts there.
            if (legacy && (key == "startTime" || key == "endTime"))
                return;
            if (key == "startTime")
                startTime = micros(n, v);
            else if (key == "endTime")
                endTime = micros(n, v);
            return;
        case Context::Node:
            if (key == "id") {
                node().id = integer(n, v, "id");
                m_hasId.back() = true;
            } else if (key == "parent") {
                node().parent = integer(n, v, "parent");
            } else if (key == "lineNumber" && legacy) {
                node().line = n.ok && n.integer ? n.value : -1;
            }
            return;
        case Context::CallFrame:
            if (key == "lineNumber")
                node().line = n.ok && n.integer ? n.value : -1;
            return;
        case Context::Children:
            node().children.push_back(integer(n, v, "children"));
            return;
        case Context::Samples:
            samples.push_back(integer(n, v, "samples"));
            return;
        case Context::Deltas:
            deltas.push_back(micros(n, v));
            return;
        case Context::Timestamps:
            timestamps.push_back(micros(n, v));
            return;
        case Context::Nodes:
            throw error("expected a node object in 'nodes', found " + jsonsax::describeScalar(v.plain()));
        case Context::Other:
            return;
        }
    }
    void expectNoScalar(Context c, const std::string& text) const
    {
        if (m_stack.empty())
            throw error("expected a V8 CPU profile object {\"nodes\": [...], ...}, found " + text);
        if (c == Context::Samples || c == Context::Deltas || c == Context::Timestamps || c == Context::Children)
            throw error("expected a number in '" + keyOf(c) + "', found " + text);
        if (c == Context::Nodes)
            throw error("expected a node object in 'nodes', found " + text);
    }

    ProfileBuilder& m_builder;
    std::vector<Context> m_stack;
    std::vector<NodeRecord> m_open;
    std::vector<bool> m_hasId;
};

} // namespace

CpuProfileReader::CpuProfileReader(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo* track)
    : m_input(input), m_builder(builder), m_track(track)
{
}

void CpuProfileReader::read()
{
    Handler handler(m_input, m_builder);
    if (!handler.parse())
        handler.throwSyntaxError();
    if (handler.tree.nodeCount() == 0)
        throw FormatError("a V8 CPU profile needs 'nodes', the call tree; this file has none");
    SampleTree& tree = handler.tree;
    // Times: deltas from startTime, or (legacy) each sample's timestamp.
    const bool absolute = handler.deltas.empty() && !handler.timestamps.empty();
    const std::vector<Time>& times = absolute ? handler.timestamps : handler.deltas;
    const std::size_t count = std::min(handler.samples.size(), times.size());
    if (handler.samples.size() != times.size())
        m_builder.diagnostics().warn("samples without times",
                                     std::to_string(handler.samples.size()) + " samples but "
                                         + std::to_string(times.size()) + (absolute ? " timestamps" : " timeDeltas")
                                         + "; only the first " + std::to_string(count) + " of each are used");
    const Time start = absolute ? (count > 0 ? times.front() : 0) : handler.startTime.value_or(0);
    v8samples::SampleClock clock(m_builder.diagnostics(), start);
    for (std::size_t i = 0; i < count; ++i)
        tree.addSample(absolute ? clock.at(times[i]) : clock.next(times[i]), handler.samples[i]);
    clock.finish();
    m_builder.extendSpan(start);
    if (handler.endTime)
        m_builder.extendSpan(*handler.endTime);
    TrackInfo info;
    if (m_track)
        info = *m_track;
    else
        info.displayName = m_builder.intern("CPU profile (samples)");
    info.kind = TrackKind::Samples;
    // The profile still spans to endTime; its last sample lasts the median
    // interval, not all the time to it (SampleClock::lastSampleEnd).
    tree.finish(m_builder.addTrack(info), clock.lastSampleEnd(handler.endTime, {}));
}

} // namespace runlane
