#include "formatregistry.h"

#include "chromeformat.h"
#include "chronosformat.h"
#include "cpuprofileformat.h"
#include "chroprofformat.h"
#include "ensoformat.h"
#include "ensomessagesformat.h"
#include "foldedformat.h"
#include "geckoformat.h"
#include "pprofformat.h"
#include "prometheusformat.h"
#include "perfettoformat.h"
#include "perfformat.h"
#include "speedscopeformat.h"
#include "tokioformat.h"

#include <algorithm>
#include <cstdio>

namespace runlane {

namespace {

template <class Format>
const InputFormat* one()
{
    static const Format format;
    return &format;
}

std::string describeByte(std::string_view text, std::size_t pos)
{
    char buffer[64];
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte >= 0x20 && byte < 0x7f)
        std::snprintf(buffer, sizeof buffer, "'%c' at byte %zu", char(byte), pos);
    else
        std::snprintf(buffer, sizeof buffer, "byte 0x%02x at offset %zu", unsigned(byte), pos);
    return buffer;
}

// Where the first control character no text holds is, in the first 4 KiB
// (npos if none): the file is binary.
std::size_t firstBinaryByte(std::string_view text)
{
    const std::size_t n = std::min<std::size_t>(text.size(), 4096);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0 || (c < 0x20 && !JsonPrefix::isBlank(char(c)) && c != '\f' && c != '\b'))
            return i;
    }
    return std::string_view::npos;
}

// "folded stacks", or "a or b": the names of the formats that pass `test`.
template <class Test>
std::string namesOf(Test test)
{
    std::string names;
    for (const InputFormat* format : FormatRegistry::formats()) {
        if (test(*format))
            names += (names.empty() ? "" : " or ") + std::string(format->name());
    }
    return names;
}

} // namespace

const std::vector<const InputFormat*>& FormatRegistry::formats()
{
    // The order breaks ties between probes with the same evidence.
    static const std::vector<const InputFormat*> formats{
        one<ChromeFormat>(),
        one<EnsoFormat>(),
        // A line that starts with a date: no other format's.
        one<EnsoMessagesFormat>(),
        one<ChronosFormat>(),
        one<ChroprofFormat>(),
        one<SpeedscopeFormat>(),
        one<CpuProfileFormat>(),
        // `meta` + `threads` at the top: no other JSON format has them.
        one<GeckoFormat>(),
        // Before folded stacks: its probe checks the protobuf's structure,
        // where folded stacks' only counts lines that end in a number.
        one<PprofFormat>(),
        // A Trace's first packet, field 1 read as a TracePacket: pprof's
        // field 1 (sample_type) holds varints where a packet has messages.
        one<PerfettoFormat>(),
        one<FoldedFormat>(),
        one<PerfFormat>(),
        // Its evidence, the header `{"v":1}` alone on the first line, is at
        // the file's first byte: no other format claims that line.
        one<TokioFormat>(),
        // {"status", "data"}: a Prometheus API response, no profile format's keys.
        one<PrometheusFormat>(),
    };
    return formats;
}

const InputFormat* FormatRegistry::find(std::string_view id)
{
    for (const InputFormat* format : formats()) {
        if (format->id() == id)
            return format;
    }
    return nullptr;
}

std::string FormatRegistry::ids()
{
    std::string ids;
    for (const InputFormat* format : formats())
        ids += (ids.empty() ? "" : ", ") + std::string(format->id());
    return ids;
}

std::string FormatRegistry::fileNamePatterns()
{
    std::vector<std::string_view> seen;
    std::string patterns;
    for (const InputFormat* format : formats()) {
        for (const std::string_view pattern : format->fileNamePatterns()) {
            if (std::find(seen.begin(), seen.end(), pattern) != seen.end())
                continue;
            seen.push_back(pattern);
            patterns += (patterns.empty() ? "" : " ") + std::string(pattern);
        }
    }
    return patterns;
}

FormatRegistry::Detection FormatRegistry::detect(std::string_view bytes, bool complete)
{
    const FormatPrefix prefix(bytes, complete);
    Detection result;
    const InputFormat* perhaps = nullptr;
    InputFormat::Probe best;
    for (const InputFormat* format : formats()) {
        InputFormat::Probe probe = format->probe(prefix);
        using Verdict = InputFormat::Probe::Verdict;
        if (probe.verdict == Verdict::Perhaps && !perhaps)
            perhaps = format;
        if ((probe.verdict == Verdict::Mine || probe.verdict == Verdict::Broken)
            && (!result.format || probe.evidence < best.evidence)) {
            result.format = format;
            best = std::move(probe);
        }
    }
    if (result.format) {
        result.kind = std::move(best.kind);
        result.problem = std::move(best.problem);
        result.offset = best.offset;
        return result;
    }
    if (perhaps) {
        result.format = perhaps;
        return result;
    }

    if (prefix.utf16()) {
        result.problem = "the file is UTF-16 text but not "
            + namesOf([](const InputFormat& f) { return f.readsUtf16(); }) + "; JSON profiles must be UTF-8";
        return result;
    }
    const std::size_t start = prefix.start();
    if (prefix.blank()) {
        if (complete) {
            result.empty = true;
            result.problem = bytes.empty() ? "the file is empty" : "the file holds only white space";
        } else {
            result.problem = "no data in the first " + std::to_string(bytes.size()) + " bytes";
        }
        return result;
    }
    if (const std::size_t binary = firstBinaryByte(bytes.substr(start)); binary != std::string_view::npos) {
        // A file that starts as text is named by its first binary byte ("not
        // a profile\0..."), one that starts binary (a PNG, an ELF) by its first.
        const auto first = static_cast<unsigned char>(bytes[start]);
        const std::size_t named = first >= 0x20 && first < 0x7f ? start + binary : start;
        // What was expected, binary formats included: a Perfetto trace whose
        // first packet is damaged was told only that it is not JSON.
        result.problem = "the file holds binary data (" + describeByte(bytes, named)
            + "): not a JSON profile, and its first bytes are not those of a "
            + namesOf([](const InputFormat& f) { return f.isBinary(); });
        return result;
    }
    result.problem = "not a profile: expected JSON ('[' or '{') or "
        + namesOf([](const InputFormat& f) { return !f.isJson() && !f.isBinary(); }) + ", found " + describeByte(bytes, start);
    return result;
}

} // namespace runlane
