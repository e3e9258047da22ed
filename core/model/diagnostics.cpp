#include "diagnostics.h"

namespace runlane {

namespace {
void addCount(std::map<std::string, std::uint64_t, std::less<>>& counts, std::string_view key, std::uint64_t n)
{
    auto it = counts.find(key);
    if (it == counts.end())
        counts.emplace(std::string(key), n);
    else
        it->second += n;
}
} // namespace

std::string Diagnostics::quoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text.substr(0, 80));
    if (text.size() > 80)
        out += "...";
    out += '\'';
    return out;
}

void Diagnostics::countWarning(std::string_view kind)
{
    ++m_warningCount;
    addCount(m_kinds, kind, 1);
}

void Diagnostics::warn(std::string_view kind, std::string message)
{
    countWarning(kind);
    if (m_first.find(kind) == m_first.end())
        m_first.emplace(std::string(kind), message);
    if (m_examples.size() < kMaxExamples)
        m_examples.push_back(std::move(message));
}

std::string Diagnostics::firstMessage(std::string_view kind) const
{
    const auto it = m_first.find(kind);
    return it == m_first.end() ? std::string() : it->second;
}

void Diagnostics::skipped(std::string_view what, std::uint64_t count)
{
    addCount(m_skipped, what, count);
}

std::uint64_t Diagnostics::skippedCount() const
{
    std::uint64_t total = 0;
    for (const auto& [what, count] : m_skipped)
        total += count;
    return total;
}

} // namespace runlane
