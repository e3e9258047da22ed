#include "foldedstackreader.h"

#include "chunkedfilereader.h"
#include "diagnostics.h"
#include "numberparse.h"
#include "valueformat.h"

#include <QString>

#include <string>

namespace runlane {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isCount(std::string_view text)
{
    if (text.empty() || text.front() == '.' || text.back() == '.')
        return false;
    int dots = 0;
    for (const char c : text) {
        if (c == '.')
            ++dots;
        else if (c < '0' || c > '9')
            return false;
    }
    return dots <= 1;
}

// Counts are kept in ticks of 1/kTicksPerUnit sample, like every weight of
// a sampled profile: exact to this many decimals.
constexpr int kCountDecimals = 3;
static_assert(kTicksPerUnit == 1000, "kCountDecimals must match kTicksPerUnit");

// True if a count (digits, at most one '.') has nonzero digits beyond
// kCountDecimals, which the ticks cannot hold.
bool losesPrecision(std::string_view count)
{
    const auto dot = count.find('.');
    if (dot == std::string_view::npos)
        return false;
    std::string_view fraction = count.substr(dot + 1);
    while (!fraction.empty() && fraction.back() == '0')
        fraction.remove_suffix(1);
    return fraction.size() > std::size_t(kCountDecimals);
}

std::string_view trimRight(std::string_view text)
{
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

// The last whitespace-separated field, and what comes before it.
bool splitLast(std::string_view text, std::string_view& rest, std::string_view& last)
{
    const auto space = text.find_last_of(" \t");
    if (space == std::string_view::npos)
        return false;
    last = text.substr(space + 1);
    rest = trimRight(text.substr(0, space));
    return true;
}

} // namespace

FoldedStackReader::FoldedStackReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink)
    : m_input(input), m_diagnostics(diagnostics), m_sink(std::move(sink))
{
}

void FoldedStackReader::line(std::string_view text, std::uint64_t number)
{
    text = trimRight(text);
    if (text.empty())
        return;
    if (text.front() == '#' || text.substr(0, 2) == "//") {
        m_diagnostics.skipped("comment lines");
        return;
    }
    std::string_view stack;
    std::string_view count;
    const bool split = splitLast(text, stack, count) && isCount(count);
    std::string_view before;
    std::string_view first;
    if (split && splitLast(stack, before, first) && isCount(first) && !before.empty()) {
        // "stack before after": a differential file; the second count is
        // the profile now.
        stack = before;
        if (!m_warnedDifferential) {
            m_warnedDifferential = true;
            m_diagnostics.warn("differential counts",
                               "lines carry two counts (a differential profile); the second is used");
        }
    }
    Time ticks = 0;
    if (!split || stack.empty() || parseScaledDecimal(count, kCountDecimals, ticks) != ParseStatus::Ok) {
        m_diagnostics.warnWith("bad line", [&] {
            return "line " + std::to_string(number) + " is not \"frame;frame;... count\": "
                + std::string(text.substr(0, 60));
        });
        return;
    }
    if (losesPrecision(count)) {
        // Rounded half away from zero; said, never silent.
        m_diagnostics.warnWith("count rounded", [&] {
            return "line " + std::to_string(number) + ": count " + std::string(count.substr(0, 40)) + " has more than "
                + std::to_string(kCountDecimals) + " decimals; rounded to "
                + ValueFormat::plain(ticks, ValueUnit::Samples);
        });
    }
    m_sink(stack, ticks, number);
}

void FoldedStackReader::read()
{
    const int first = m_input.peek();
    if (first == 0xFF || first == 0xFE) {
        // UTF-16 with a byte order mark: small files in practice; decode all.
        std::string bytes;
        for (int c = m_input.get(); c >= 0; c = m_input.get())
            bytes += char(c);
        const bool little = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0xFF;
        std::u16string units;
        for (std::size_t i = 2; i + 1 < bytes.size(); i += 2) {
            const auto lo = static_cast<unsigned char>(bytes[little ? i : i + 1]);
            const auto hi = static_cast<unsigned char>(bytes[little ? i + 1 : i]);
            units += char16_t(lo | (hi << 8));
        }
        const QByteArray utf8 = QString::fromUtf16(units.data(), qsizetype(units.size())).toUtf8();
        std::string_view all(utf8.constData(), std::size_t(utf8.size()));
        std::uint64_t number = 1;
        for (std::size_t pos = 0; pos <= all.size(); ++number) {
            std::size_t end = all.find('\n', pos);
            if (end == std::string_view::npos)
                end = all.size();
            line(all.substr(pos, end - pos), number);
            pos = end + 1;
        }
        return;
    }
    // UTF-8: line by line from the stream.
    if (first == 0xEF) {
        m_input.get();
        m_input.get();
        m_input.get();
    }
    std::string text;
    std::uint64_t number = 1;
    for (int c = m_input.get();; c = m_input.get()) {
        if (c < 0 || c == '\n') {
            line(text, number++);
            text.clear();
            if (c < 0)
                break;
        } else {
            text += char(c);
        }
    }
}

} // namespace runlane
