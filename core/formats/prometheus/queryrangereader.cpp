#include "queryrangereader.h"

#include "gaugerows.h"
#include "jsonsaxhandler.h"
#include "numberparse.h"

#include <QBuffer>

#include <algorithm>
#include <climits>
#include <cmath>
#include <unordered_map>

namespace runlane {

namespace {

// Where the parser stands, one entry per open container.
enum class Context : std::uint8_t { Top, Data, Result, Series, Metric, Values, Pair, Warnings, Skip };

// A proc as the series' labels name it.
struct Proc {
    std::string procedure;
    std::string file;
    std::int32_t line = 0;
};

// One value of one gauge of one proc. Kept flat until the end (the
// snapshots need every series, which come in any order) rather than as
// rows per time, which would hold a proc's names once per sample.
struct Entry {
    Time time = 0;
    std::uint32_t proc = 0;
    GaugeRows::Gauge gauge = GaugeRows::Gauge::None;
    std::int64_t value = 0;
};

std::string describe(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    return std::to_string(value);
}

class Handler : public JsonSaxHandler<Handler>
{
public:
    Handler(ChunkedFileReader& input, Diagnostics& diagnostics) : JsonSaxHandler(input), m_diagnostics(diagnostics) { }

    std::int64_t currentSeries() const { return m_stack.size() > 3 ? std::int64_t(m_series) : -1; }

    std::vector<ScrapedSnapshot> finish()
    {
        // The server's words, cut to a length a message can show.
        if (m_status == "error")
            throw FormatError("Prometheus answered with an error: "
                                  + (m_errorType.empty() ? "" : jsonsax::describeScalar(m_errorType, 80) + ": ")
                                  + (m_errorText.empty() ? "(no message)" : jsonsax::describeScalar(m_errorText, 400)),
                              -1, 0);
        if (m_status.empty())
            throw FormatError("not a Prometheus API response: it has no \"status\"", -1, 0);
        if (m_status != "success")
            throw FormatError("unknown Prometheus response status '" + jsonsax::describeScalar(m_status) + "'", -1, 0);
        if (!m_resultType.empty() && m_resultType != "matrix" && m_resultType != "vector")
            throw FormatError("resultType '" + jsonsax::describeScalar(m_resultType)
                                  + "' has no series of Chroprof's gauges (a \"matrix\" or a \"vector\" is needed)",
                              -1, 0);
        if (m_otherSeries > 0)
            m_diagnostics.skipped("series of other metrics", m_otherSeries);
        std::stable_sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
        std::vector<ScrapedSnapshot> snapshots;
        GaugeRows rows;
        for (std::size_t k = 0; k < m_entries.size(); ++k) {
            const Entry& e = m_entries[k];
            const Proc& proc = m_procs[e.proc];
            rows.set(proc.procedure, proc.file, proc.line, e.gauge, e.value);
            if (k + 1 == m_entries.size() || m_entries[k + 1].time != e.time)
                snapshots.push_back(rows.snapshot(e.time));
        }
        return snapshots;
    }

private:
    friend JsonSaxHandler<Handler>;

    void open(char bracket)
    {
        const bool object = bracket == '{';
        const std::string& key = lastKey();
        // What is skipped is skipped whole, by depth alone: the stack stays
        // as deep as the parts read, whatever the nesting.
        if (!m_stack.empty() && m_stack.back() == Context::Skip) {
            ++m_skipDepth;
            return;
        }
        const Context parent = m_stack.empty() ? Context::Skip : m_stack.back();
        Context context = Context::Skip;
        if (m_stack.empty()) {
            if (!object)
                throw FormatError("expected a Prometheus API response, a JSON object {\"status\", \"data\"}", -1, 0);
            context = Context::Top;
        } else if (parent == Context::Top && key == "data" && object) {
            context = Context::Data;
        } else if (parent == Context::Data && key == "result" && !object) {
            context = Context::Result;
        } else if (parent == Context::Result && object) {
            context = Context::Series;
            m_metricName.clear();
            m_proc = Proc();
            m_hasProc = false;
            m_points.clear();
        } else if (parent == Context::Series && key == "metric" && object) {
            context = Context::Metric;
        } else if (parent == Context::Series && key == "values" && !object) {
            context = Context::Values;
        } else if ((parent == Context::Series && key == "value" && !object) || (parent == Context::Values && !object)) {
            context = Context::Pair;
            m_pairOffset = input().offset() - 1; // its '[', just read
            m_pairIndex = 0;
            m_pairTimeOk = m_pairValueOk = false;
        } else if (parent == Context::Top && key == "warnings" && !object) {
            context = Context::Warnings;
        }
        m_stack.push_back(context);
    }

    void close(char)
    {
        if (m_skipDepth > 0) {
            --m_skipDepth;
            return;
        }
        const Context context = m_stack.back();
        m_stack.pop_back();
        if (context == Context::Series) {
            endSeries();
            ++m_series;
        } else if (context == Context::Pair) {
            endPair();
        }
    }

    void scalar(const JsonScalar& v)
    {
        if (m_stack.empty())
            throw FormatError("expected a Prometheus API response, a JSON object {\"status\", \"data\"}", -1, 0);
        const bool isString = v.kind == JsonScalar::String;
        const std::string& key = lastKey();
        switch (m_stack.back()) {
        case Context::Top:
            if (key == "status" && isString)
                m_status = v.text;
            else if (key == "errorType" && isString)
                m_errorType = v.text;
            else if (key == "error" && isString)
                m_errorText = v.text;
            break;
        case Context::Data:
            if (key == "resultType" && isString)
                m_resultType = v.text;
            break;
        case Context::Metric:
            if (isString)
                metricLabel(v.text);
            break;
        case Context::Warnings:
            if (isString)
                m_diagnostics.warnWith("prometheus warning",
                                       [&] { return "Prometheus warned: " + jsonsax::describeScalar(v.text, 400); });
            break;
        case Context::Pair:
            pairElement(v);
            break;
        default:
            break;
        }
    }

    void metricLabel(std::string_view text)
    {
        const std::string& key = lastKey();
        if (key == "__name__") {
            m_metricName = text;
        } else if (key == "proc") {
            m_proc.procedure = text;
            m_hasProc = true;
        } else if (key == "file") {
            m_proc.file = text;
        } else if (key == "line") {
            std::int64_t line = 0;
            if (!parseInteger(text, line))
                m_diagnostics.warnWith("bad label", [&] {
                    return "series #" + std::to_string(m_series) + ": the 'line' label '" + jsonsax::describeScalar(text)
                        + "' is not an integer; taken as 0";
                });
            m_proc.line = std::int32_t(std::clamp<std::int64_t>(line, 0, INT32_MAX));
        }
    }

    // [seconds, "value"]: the time a number (exact decimal text), the value
    // a string as Prometheus writes floats.
    void pairElement(const JsonScalar& v)
    {
        if (m_pairIndex == 0) {
            m_pairTimeOk = v.kind != JsonScalar::String && parseScaledDecimal(v.plain(m_text), 9, m_pairTime) == ParseStatus::Ok;
        } else if (m_pairIndex == 1) {
            const auto value = v.kind == JsonScalar::String ? GaugeRows::parseValue(v.text) : std::nullopt;
            m_pairValueOk = value.has_value();
            m_pairValue = value.value_or(0);
        }
        ++m_pairIndex;
    }

    void endPair()
    {
        if (m_pairIndex != 2 || !m_pairTimeOk || !m_pairValueOk) {
            m_diagnostics.warnWith("bad sample", [&] {
                return "series #" + std::to_string(m_series)
                    + ": a sample that is not [seconds, \"value\"] is left out (byte " + std::to_string(m_pairOffset)
                    + ")";
            });
            return;
        }
        m_points.push_back({m_pairTime, m_pairValue});
    }

    void endSeries()
    {
        const GaugeRows::Gauge gauge = GaugeRows::gaugeOf(m_metricName);
        if (gauge == GaugeRows::Gauge::None) {
            ++m_otherSeries;
            return;
        }
        if (!m_hasProc) {
            m_diagnostics.warnWith("bad label", [&] {
                return "series #" + std::to_string(m_series) + " of " + m_metricName + " has no 'proc' label; left out";
            });
            return;
        }
        GaugeRows::procKey(m_proc.procedure, m_proc.file, m_proc.line, m_procKey);
        const auto [it, inserted] = m_procIndex.try_emplace(m_procKey, std::uint32_t(m_procs.size()));
        if (inserted)
            m_procs.push_back(m_proc);
        for (const Point& p : m_points) {
            const auto value = GaugeRows::toInteger(p.value);
            if (!value)
                m_diagnostics.warnWith("bad value", [&] {
                    return m_metricName + "{proc=\"" + jsonsax::describeScalar(m_proc.procedure, 200) + "\"} is "
                        + describe(p.value) + " at " + std::to_string(p.time) + " ns; taken as 0";
                });
            m_entries.push_back({p.time, it->second, gauge, value.value_or(0)});
        }
    }

    struct Point {
        Time time;
        double value; // NaN and ±Inf too: warned about when the series' gauge is known
    };

    Diagnostics& m_diagnostics;
    std::vector<Context> m_stack;
    std::uint64_t m_skipDepth = 0; // containers open inside a skipped one
    std::string m_text; // a number's digits, written for parsing
    std::string m_status, m_errorType, m_errorText, m_resultType;
    // The current series.
    std::uint64_t m_series = 0;
    std::string m_metricName;
    Proc m_proc;
    bool m_hasProc = false;
    std::vector<Point> m_points;
    int m_pairIndex = 0;
    bool m_pairTimeOk = false, m_pairValueOk = false;
    Time m_pairTime = 0;
    std::int64_t m_pairOffset = 0;
    double m_pairValue = 0;
    // Every series read.
    std::uint64_t m_otherSeries = 0;
    std::vector<Proc> m_procs;
    std::unordered_map<std::string, std::uint32_t> m_procIndex;
    std::string m_procKey;
    std::vector<Entry> m_entries;
};

} // namespace

QueryRangeReader::QueryRangeReader(ChunkedFileReader& input, Diagnostics& diagnostics)
    : m_input(input), m_diagnostics(diagnostics)
{
}

std::vector<ScrapedSnapshot> QueryRangeReader::read()
{
    m_input.limitJsonStrings();
    Handler handler(m_input, m_diagnostics);
    if (!handler.parse())
        handler.throwSyntaxError(handler.currentSeries());
    if (m_input.skipWhitespace())
        m_diagnostics.warn("trailing data", "bytes after the end of the response (byte "
                                                + std::to_string(m_input.offset()) + ") are ignored");
    return handler.finish();
}

std::vector<ScrapedSnapshot> QueryRangeReader::parse(const QByteArray& response, Diagnostics& diagnostics)
{
    QByteArray copy = response; // QBuffer wants a non-const array; shared, not copied
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    LoadControl control;
    ChunkedFileReader reader(buffer, control);
    return QueryRangeReader(reader, diagnostics).read();
}

} // namespace runlane
