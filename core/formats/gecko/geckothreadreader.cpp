#include "geckothreadreader.h"

#include "loaderror.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace runlane {

using nlohmann::json;

namespace {

bool isIndex(const json& v)
{
    return v.is_number_integer() || v.is_number_unsigned();
}

const json* member(const json& object, const char* key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

// "name (file:line:col)" or "name (file:line)", as the gecko profile
// writes a JS frame's location; anything else ("0x1234", "Startup::XRE_Main",
// "foo (in libxul.so)") is the name as is.
void splitLocation(std::string_view location, std::string_view& name, std::string_view& file, std::int64_t& line)
{
    name = location;
    file = {};
    line = 0;
    const std::size_t open = location.rfind(" (");
    if (location.empty() || location.back() != ')' || open == std::string_view::npos)
        return;
    std::string_view inner = location.substr(open + 2, location.size() - open - 3);
    // Peel up to two trailing ":digits" (column, then line).
    std::int64_t numbers[2] = {0, 0};
    int found = 0;
    while (found < 2) {
        const std::size_t colon = inner.rfind(':');
        if (colon == std::string_view::npos || colon + 1 == inner.size() || inner.size() - colon > 10)
            break;
        std::int64_t value = 0;
        bool digits = true;
        for (const char c : inner.substr(colon + 1)) {
            digits = digits && c >= '0' && c <= '9';
            value = value * 10 + (c - '0');
        }
        if (!digits)
            break;
        numbers[found++] = value;
        inner = inner.substr(0, colon);
    }
    if (found == 0)
        return;
    name = location.substr(0, open);
    file = inner;
    line = found == 2 ? numbers[1] : numbers[0];
}

} // namespace

// A gecko table: `{schema: {column: index}, data: [[...], ...]}`.
struct GeckoThreadReader::Table {
    const char* name = "";
    const json* data = nullptr;
    const json* schema = nullptr;

    std::size_t rows() const { return data ? data->size() : 0; }
    std::optional<std::size_t> column(const char* key) const
    {
        const json* c = schema ? member(*schema, key) : nullptr;
        if (!c || !isIndex(*c) || c->get<std::int64_t>() < 0)
            return std::nullopt;
        return std::size_t(c->get<std::int64_t>());
    }
    // Null, a missing column and a short row all read as nothing.
    const json* cell(std::size_t row, std::optional<std::size_t> col) const
    {
        const json& r = (*data)[row];
        if (!col || *col >= r.size())
            return nullptr;
        const json& v = r[*col];
        return v.is_null() ? nullptr : &v;
    }
};

GeckoThreadReader::GeckoThreadReader(ProfileBuilder& builder, const std::vector<std::string>& categories,
                                     const std::vector<std::string>* sharedStrings)
    : m_builder(builder), m_categories(categories), m_sharedStrings(sharedStrings)
{
}

void GeckoThreadReader::fail(const std::string& what) const
{
    throw FormatError("thread " + std::to_string(m_index) + " (\"" + m_thread.name + "\"): " + what);
}

const std::string& GeckoThreadReader::string(const json& value, const char* table, std::size_t row, const char* column) const
{
    const std::int64_t i = index(value, m_strings->size(), table, row, column, "the string table", false);
    return (*m_strings)[std::size_t(i)];
}

std::int64_t GeckoThreadReader::index(const json& value, std::size_t size, const char* table, std::size_t row,
                                      const char* column, const char* target, bool nullable) const
{
    if (nullable && value.is_null())
        return -1;
    const std::string where = std::string(table) + " row " + std::to_string(row) + ": '" + column + "' ";
    if (!isIndex(value))
        fail(where + "should be an index into " + target + ", found " + value.dump());
    const std::int64_t i = value.get<std::int64_t>();
    if (i < 0 || std::uint64_t(i) >= size)
        fail(where + std::to_string(i) + " is out of range of " + target + " (" + std::to_string(size) + " entries)");
    return i;
}

GeckoThread GeckoThreadReader::read(const json& thread, std::size_t index)
{
    m_index = index;
    m_thread = GeckoThread{};
    m_open.clear();
    if (!thread.is_object())
        throw FormatError("thread " + std::to_string(index) + ": expected a thread object, found " + std::string(thread.type_name()));
    readIdentity(thread);
    readStrings(thread);
    const json* samples = member(thread, "samples");
    if (samples && member(*samples, "schema"))
        readGeckoTables(thread);
    else
        readProcessedTables(thread);
    closeMarkers();
    return std::move(m_thread);
}

void GeckoThreadReader::readIdentity(const json& thread)
{
    if (const json* name = member(thread, "name"); name && name->is_string())
        m_thread.name = name->get<std::string>();
    if (const json* type = member(thread, "processType"); type && type->is_string())
        m_thread.processType = type->get<std::string>();
    if (const json* pid = member(thread, "pid")) {
        if (isIndex(*pid)) {
            m_thread.pid = pid->get<std::int64_t>();
            m_thread.hasPid = true;
        } else if (pid->is_string()) {
            // The profiler writes pids as strings in newer versions.
            const std::string text = pid->get<std::string>();
            char* end = nullptr;
            const long long value = std::strtoll(text.c_str(), &end, 10);
            if (!text.empty() && end && *end == '\0') {
                m_thread.pid = value;
                m_thread.hasPid = true;
            } else {
                m_thread.pidText = text;
            }
        }
    }
    if (const json* tid = member(thread, "tid"); tid && isIndex(*tid)) {
        m_thread.tid = tid->get<std::int64_t>();
        m_thread.hasTid = true;
    }
}

void GeckoThreadReader::readStrings(const json& thread)
{
    m_ownStrings.clear();
    const json* strings = member(thread, "stringTable");
    if (!strings)
        strings = member(thread, "stringArray");
    if (strings) {
        if (!strings->is_array())
            fail("the string table should be an array of strings");
        m_ownStrings.reserve(strings->size());
        for (const json& s : *strings)
            m_ownStrings.push_back(s.is_string() ? s.get<std::string>() : std::string());
        m_strings = &m_ownStrings;
    } else if (m_sharedStrings) {
        m_strings = m_sharedStrings;
    } else {
        fail("no string table: neither 'stringTable', 'stringArray' nor the profile's 'shared.stringArray'");
    }
}

LabelId GeckoThreadReader::frameLabel(std::string_view location, std::int64_t line, const json* category)
{
    std::string_view name;
    std::string_view file;
    std::int64_t parsedLine = 0;
    splitLocation(location, name, file, parsedLine);
    if (line <= 0)
        line = parsedLine;
    const LabelId label = m_builder.label(name.empty() ? std::string_view("(unnamed)") : name, file,
                                          line > 0 && line < INT32_MAX ? std::int32_t(line) : 0);
    // Firefox has no idle frame: the frames the profiler files under the
    // "Idle" category (waiting for events) are the thread with nothing to do.
    if (category && isIndex(*category)) {
        const std::int64_t c = category->get<std::int64_t>();
        if (c >= 0 && std::uint64_t(c) < m_categories.size() && m_categories[std::size_t(c)] == "Idle")
            m_builder.markIdle(label);
    }
    return label;
}

void GeckoThreadReader::readGeckoTables(const json& thread)
{
    const auto table = [&](const char* name, bool required) {
        Table t;
        t.name = name;
        const json* object = member(thread, name);
        if (!object) {
            if (required)
                fail("no '" + std::string(name) + "' table");
            return t;
        }
        t.schema = member(*object, "schema");
        t.data = member(*object, "data");
        if (!t.schema || !t.schema->is_object() || !t.data || !t.data->is_array())
            fail("'" + std::string(name) + "' should be {\"schema\": {...}, \"data\": [[...], ...]}");
        for (std::size_t r = 0; r < t.data->size(); ++r) {
            if (!(*t.data)[r].is_array())
                fail(std::string(name) + " row " + std::to_string(r) + " should be an array, found "
                     + (*t.data)[r].type_name());
        }
        return t;
    };
    const Table samples = table("samples", true);
    const Table stacks = table("stackTable", true);
    const Table frames = table("frameTable", true);

    const auto location = frames.column("location");
    const auto line = frames.column("line");
    const auto category = frames.column("category");
    std::vector<LabelId> frameLabels(frames.rows());
    for (std::size_t f = 0; f < frames.rows(); ++f) {
        const json* loc = frames.cell(f, location);
        if (!loc)
            fail("frameTable row " + std::to_string(f) + " has no 'location'");
        const json* l = frames.cell(f, line);
        frameLabels[f] = frameLabel(string(*loc, "frameTable", f, "location"), l && isIndex(*l) ? l->get<std::int64_t>() : 0,
                                    frames.cell(f, category));
    }

    const auto prefix = stacks.column("prefix");
    const auto frame = stacks.column("frame");
    m_stackFrame.assign(stacks.rows(), -1);
    m_thread.stackPrefix.assign(stacks.rows(), -1);
    static const json null;
    for (std::size_t s = 0; s < stacks.rows(); ++s) {
        const json* p = stacks.cell(s, prefix);
        m_thread.stackPrefix[s] = index(p ? *p : null, stacks.rows(), "stackTable", s, "prefix", "stackTable", true);
        const json* fr = stacks.cell(s, frame);
        m_stackFrame[s] = index(fr ? *fr : null, frames.rows(), "stackTable", s, "frame", "frameTable", false);
    }
    m_thread.stackLabel.resize(stacks.rows());
    for (std::size_t s = 0; s < stacks.rows(); ++s)
        m_thread.stackLabel[s] = frameLabels[std::size_t(m_stackFrame[s])];

    const auto stack = samples.column("stack");
    const auto time = samples.column("time");
    const auto deltas = samples.column("timeDeltas");
    if (!time && !deltas)
        fail("the samples' schema has neither 'time' nor 'timeDeltas'");
    if (samples.column("weight")) {
        const json* type = member(*member(thread, "samples"), "weightType");
        if (type && type->is_string() && type->get<std::string>() != "samples")
            m_thread.ignoredWeightType = type->get<std::string>();
    }
    double clock = 0;
    for (std::size_t r = 0; r < samples.rows(); ++r) {
        const json* st = samples.cell(r, stack);
        m_thread.sampleStack.push_back(index(st ? *st : null, stacks.rows(), "samples", r, "stack", "stackTable", true));
        const json* t = samples.cell(r, time ? time : deltas);
        if (!t || !t->is_number())
            fail("samples row " + std::to_string(r) + ": '" + (time ? "time" : "timeDeltas") + "' should be a number");
        clock = time ? t->get<double>() : clock + t->get<double>();
        m_thread.sampleTime.push_back(clock);
    }

    if (member(thread, "markers"))
        readGeckoMarkers(table("markers", false));
}

void GeckoThreadReader::readGeckoMarkers(const Table& markers)
{
    const auto name = markers.column("name");
    const auto start = markers.column("startTime");
    const auto end = markers.column("endTime");
    const auto phase = markers.column("phase");
    const auto time = markers.column("time");
    const auto data = markers.column("data");
    for (std::size_t r = 0; r < markers.rows(); ++r) {
        const json* n = markers.cell(r, name);
        if (!n)
            fail("markers row " + std::to_string(r) + " has no 'name'");
        const StringId id = m_builder.intern(string(*n, "markers", r, "name"));
        addMarker(id, markers.cell(r, start), markers.cell(r, end), markers.cell(r, phase), markers.cell(r, time),
                  markers.cell(r, data), r);
    }
}

void GeckoThreadReader::readProcessedTables(const json& thread)
{
    // A column of a processed table: an array, or nothing.
    const auto column = [&](const json* table, const char* tableName, const char* key, bool required) -> const json* {
        const json* c = table ? member(*table, key) : nullptr;
        if (c && !c->is_array())
            fail("'" + std::string(tableName) + "." + key + "' should be an array, found " + c->type_name());
        if (!c && required)
            fail("no '" + std::string(tableName) + "." + key + "' column");
        return c;
    };
    const auto at = [](const json* c, std::size_t row) -> const json& {
        static const json null;
        return c && row < c->size() ? (*c)[row] : null;
    };
    const json* samples = member(thread, "samples");
    const json* stacks = member(thread, "stackTable");
    const json* frames = member(thread, "frameTable");
    const json* funcs = member(thread, "funcTable");
    if (!samples || !stacks || !frames || !funcs)
        fail("a processed thread needs 'samples', 'stackTable', 'frameTable' and 'funcTable'");

    const json* funcName = column(funcs, "funcTable", "name", true);
    const json* funcFile = column(funcs, "funcTable", "fileName", false);
    const json* funcLine = column(funcs, "funcTable", "lineNumber", false);
    const json* frameFunc = column(frames, "frameTable", "func", true);
    const json* frameLine = column(frames, "frameTable", "line", false);
    const json* frameCategory = column(frames, "frameTable", "category", false);
    std::vector<LabelId> frameLabels(frameFunc->size());
    for (std::size_t f = 0; f < frameFunc->size(); ++f) {
        const std::size_t func = std::size_t(index(at(frameFunc, f), funcName->size(), "frameTable", f, "func", "funcTable", false));
        const std::string& name = string(at(funcName, func), "funcTable", func, "name");
        const json& file = at(funcFile, func);
        const std::string fileName = file.is_null() ? std::string() : string(file, "funcTable", func, "fileName");
        const json& line = isIndex(at(frameLine, f)) ? at(frameLine, f) : at(funcLine, func);
        std::int64_t lineNumber = isIndex(line) ? line.get<std::int64_t>() : 0;
        const LabelId label = m_builder.label(name.empty() ? std::string_view("(unnamed)") : std::string_view(name), fileName,
                                              lineNumber > 0 && lineNumber < INT32_MAX ? std::int32_t(lineNumber) : 0);
        const json& category = at(frameCategory, f);
        if (isIndex(category)) {
            const std::int64_t c = category.get<std::int64_t>();
            if (c >= 0 && std::uint64_t(c) < m_categories.size() && m_categories[std::size_t(c)] == "Idle")
                m_builder.markIdle(label);
        }
        frameLabels[f] = label;
    }

    const json* stackFrame = column(stacks, "stackTable", "frame", true);
    const json* stackPrefix = column(stacks, "stackTable", "prefix", true);
    const std::size_t stackCount = stackFrame->size();
    m_thread.stackPrefix.assign(stackCount, -1);
    m_thread.stackLabel.resize(stackCount);
    for (std::size_t s = 0; s < stackCount; ++s) {
        m_thread.stackPrefix[s] = index(at(stackPrefix, s), stackCount, "stackTable", s, "prefix", "stackTable", true);
        const std::int64_t f = index(at(stackFrame, s), frameLabels.size(), "stackTable", s, "frame", "frameTable", false);
        m_thread.stackLabel[s] = frameLabels[std::size_t(f)];
    }

    const json* stack = column(samples, "samples", "stack", true);
    const json* time = column(samples, "samples", "time", false);
    const json* deltas = time ? nullptr : column(samples, "samples", "timeDeltas", false);
    if (!time && !deltas)
        fail("the samples have neither 'time' nor 'timeDeltas'");
    if (column(samples, "samples", "weight", false)) {
        const json* type = member(*samples, "weightType");
        if (type && type->is_string() && type->get<std::string>() != "samples")
            m_thread.ignoredWeightType = type->get<std::string>();
    }
    double clock = 0;
    const json* times = time ? time : deltas;
    for (std::size_t r = 0; r < stack->size(); ++r) {
        m_thread.sampleStack.push_back(index(at(stack, r), stackCount, "samples", r, "stack", "stackTable", true));
        const json& t = at(times, r);
        if (!t.is_number())
            fail("samples row " + std::to_string(r) + ": '" + (time ? "time" : "timeDeltas") + "' should be a number, found "
                 + t.dump());
        clock = time ? t.get<double>() : clock + t.get<double>();
        m_thread.sampleTime.push_back(clock);
    }
    readProcessedMarkers(thread);
}

void GeckoThreadReader::readProcessedMarkers(const json& thread)
{
    const json* markers = member(thread, "markers");
    if (!markers)
        return;
    const auto col = [&](const char* key) -> const json* {
        const json* c = member(*markers, key);
        if (c && !c->is_array())
            fail("'markers." + std::string(key) + "' should be an array, found " + c->type_name());
        return c;
    };
    const auto cell = [](const json* c, std::size_t row) -> const json* {
        return c && row < c->size() && !(*c)[row].is_null() ? &(*c)[row] : nullptr;
    };
    const json* name = col("name");
    if (!name)
        fail("the markers have no 'name' column");
    const json* start = col("startTime");
    const json* end = col("endTime");
    const json* phase = col("phase");
    const json* time = col("time");
    const json* data = col("data");
    // `length` is the row count; older files wrote columns a row longer.
    std::size_t rows = name->size();
    if (const json* length = member(*markers, "length"); length && isIndex(*length))
        rows = std::min(rows, std::size_t(length->get<std::int64_t>()));
    for (std::size_t r = 0; r < rows; ++r) {
        const StringId id = m_builder.intern(string((*name)[r], "markers", r, "name"));
        addMarker(id, cell(start, r), cell(end, r), cell(phase, r), cell(time, r), cell(data, r), r);
    }
}

// Markers are instants (phase 0), intervals (1), or the start (2) and end
// (3) of one given as two markers of the same name; before phases existed,
// a `time` and a payload with `startTime`/`endTime` or `interval`
// "start"/"end" said the same.
void GeckoThreadReader::addMarker(StringId name, const json* start, const json* end, const json* phase, const json* time,
                                  const json* data, std::size_t row)
{
    const auto number = [&](const json* v, const char* what) {
        if (!v || !v->is_number())
            fail("markers row " + std::to_string(row) + ": '" + what + "' should be a number");
        return v->get<double>();
    };
    enum { Instant, Interval, Begin, End } kind = Instant;
    double from = 0;
    double to = 0;
    if (phase && isIndex(*phase)) {
        const std::int64_t p = phase->get<std::int64_t>();
        kind = p == 1 ? Interval : p == 2 ? Begin : p == 3 ? End : Instant;
        from = kind == End ? 0 : number(start, "startTime");
        to = kind == Interval || kind == End ? number(end, "endTime") : from;
    } else if (time) {
        from = to = number(time, "time");
        const json* dataStart = data ? member(*data, "startTime") : nullptr;
        const json* dataEnd = data ? member(*data, "endTime") : nullptr;
        const json* interval = data ? member(*data, "interval") : nullptr;
        if (dataStart && dataEnd && dataStart->is_number() && dataEnd->is_number()) {
            kind = Interval;
            from = dataStart->get<double>();
            to = dataEnd->get<double>();
        } else if (interval && interval->is_string()) {
            kind = *interval == "start" ? Begin : *interval == "end" ? End : Instant;
        }
    } else {
        from = number(start, "startTime");
        to = end && end->is_number() ? end->get<double>() : from;
        kind = end ? Interval : Instant;
    }
    switch (kind) {
    case Instant:
        m_thread.markers.push_back({name, from, from, true});
        return;
    case Interval:
        m_thread.markers.push_back({name, from, std::max(from, to), false});
        return;
    case Begin:
        m_open.emplace_back(name, m_thread.markers.size());
        m_thread.markers.push_back({name, from, from, false});
        return;
    case End:
        for (auto it = m_open.rbegin(); it != m_open.rend(); ++it) {
            if (it->first == name) {
                GeckoThread::Marker& m = m_thread.markers[it->second];
                m.end = std::max(m.start, to);
                m_open.erase(std::next(it).base());
                return;
            }
        }
        ++m_thread.unpairedMarkers;
        return;
    }
}

// A start without its end is dropped (and counted): how long it lasted is
// not in the file.
void GeckoThreadReader::closeMarkers()
{
    if (m_open.empty())
        return;
    std::vector<bool> drop(m_thread.markers.size(), false);
    for (const auto& open : m_open)
        drop[open.second] = true;
    std::vector<GeckoThread::Marker> kept;
    for (std::size_t i = 0; i < m_thread.markers.size(); ++i) {
        if (!drop[i])
            kept.push_back(m_thread.markers[i]);
    }
    m_thread.unpairedMarkers += m_open.size();
    m_thread.markers = std::move(kept);
    m_open.clear();
}

} // namespace runlane
