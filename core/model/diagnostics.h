#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// Warnings found while loading. A broken trace can produce millions of the
// same warning, so every warning is counted under its kind but only the first
// few messages are kept as examples.
class Diagnostics
{
public:
    static constexpr std::size_t kMaxExamples = 20;

    void warn(std::string_view kind, std::string message);
    // Builds the message only while examples are still being kept, so that a
    // file with millions of identical problems does not format millions of strings.
    template<typename MakeMessage>
    void warnWith(std::string_view kind, MakeMessage&& makeMessage)
    {
        if (m_examples.size() < kMaxExamples || m_first.find(kind) == m_first.end())
            warn(kind, makeMessage()); // the first of each kind is kept too
        else
            countWarning(kind);
    }
    // A name as a message quotes it: in single quotes, cut after 80
    // characters ("..."), so that a hostile file's megabyte-long name does
    // not make a megabyte-long warning.
    static std::string quoted(std::string_view text);
    // Counts an event that was read but not interpreted (unknown Chrome phase, ...).
    void skipped(std::string_view what, std::uint64_t count = 1);

    std::uint64_t warningCount() const { return m_warningCount; }
    const std::map<std::string, std::uint64_t, std::less<>>& warningKinds() const { return m_kinds; }
    const std::vector<std::string>& examples() const { return m_examples; }
    // The first message of a kind of warning ("" if none), e.g. where a
    // "truncated file" ends, for a notice that says it in full.
    std::string firstMessage(std::string_view kind) const;
    const std::map<std::string, std::uint64_t, std::less<>>& skippedEvents() const { return m_skipped; }
    std::uint64_t skippedCount() const;

private:
    void countWarning(std::string_view kind);

    std::uint64_t m_warningCount = 0;
    std::map<std::string, std::uint64_t, std::less<>> m_kinds;
    std::vector<std::string> m_examples;
    std::map<std::string, std::string, std::less<>> m_first;
    std::map<std::string, std::uint64_t, std::less<>> m_skipped;
};

} // namespace runlane
