// libFuzzer target: bytes → PrometheusText::parse, what a live source does
// with every scrape of an exporter's /metrics. The parser never fails: a
// bad line is counted and skipped. Checked besides "no crash, no leak, no
// hang":
// - every line is accounted for once: samples + malformed + not UTF-8 never
//   exceed the lines, other samples never exceed the samples;
// - at most 10 warnings, each naming its line;
// - rows are sorted by (procedure, file, line), unique, never negative;
// - the result does not depend on the line ends (\n or \r\n);
// - the refresh filter takes the first snapshot and drops the same again.
#include "prometheustext.h"
#include "refreshfilter.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>

using namespace runlane;

namespace {

void check(const PrometheusText::Result& r)
{
    if (r.samples + r.malformedLines + r.invalidUtf8Lines > r.lines || r.otherSamples > r.samples)
        std::abort();
    if (r.warnings.size() > PrometheusText::kMaxWarnings)
        std::abort();
    for (const std::string& w : r.warnings) {
        if (w.rfind("line ", 0) != 0)
            std::abort();
    }
    const auto& rows = r.snapshot.rows;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const AggregateRow& v = rows[k].values;
        if (v.exec < 0 || v.execMax < 0 || v.childrenExec < 0 || v.wall < 0 || rows[k].line < 0)
            std::abort();
        if (k > 0
            && !(std::tie(rows[k - 1].procedure, rows[k - 1].file, rows[k - 1].line)
                 < std::tie(rows[k].procedure, rows[k].file, rows[k].line)))
            std::abort();
    }
}

bool sameRows(const ScrapedSnapshot& a, const ScrapedSnapshot& b)
{
    RefreshFilter filter;
    return filter.accept(a) && !filter.accept(b);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const PrometheusText::Result r = PrometheusText::parse(text, 1);
    check(r);
    // \r\n instead of \n (where no \r is there already): the same figures.
    if (text.find('\r') == std::string_view::npos) {
        std::string crlf;
        crlf.reserve(size * 2);
        for (const char c : text) {
            if (c == '\n')
                crlf += '\r';
            crlf += c;
        }
        const PrometheusText::Result again = PrometheusText::parse(crlf, 1);
        check(again);
        if (again.lines != r.lines || again.samples != r.samples || again.malformedLines != r.malformedLines
            || again.snapshot.time != r.snapshot.time || !sameRows(r.snapshot, again.snapshot))
            std::abort();
    }
    return 0;
}
