#pragma once

#include "tokioevent.h"

#include <string>
#include <string_view>

namespace runlane {

// Parses one line of a tokio-console recording into a TokioEvent. A small
// hand-written JSON reader for this one shape, because a recording is
// millions of short lines and a general parser's allocations and dispatch
// cost more than the line itself. It still takes any valid JSON of that
// shape: keys in any order, white space, escapes, unknown keys skipped.
class TokioLineParser
{
public:
    // Where and why a line is not an event. `atEnd`: the line ended where
    // more was expected, so a line the file cut short (the recorder flushes
    // per batch) is told from a malformed one.
    struct Error {
        std::string message;
        std::size_t position = 0; // byte in the line
        bool atEnd = false;
    };

    // False with `error` set when the line is not an event.
    bool parse(std::string_view line, TokioEvent& event, Error& error);
    // The header `{"v":N}`: its version, or false with `error` set.
    // `otherKeys`, if given, says whether it had keys besides "v" (which
    // the reader skips, but detection takes as another format's object).
    bool parseHeader(std::string_view line, std::int64_t& version, Error& error, bool* otherKeys = nullptr);

private:
    // serde_json's own layout of Enter, Exit, Close and Waker, byte for
    // byte: most lines of a recording, read without the general parser.
    // False (nothing decided) for anything else, which parse() then reads.
    bool parseExact(std::string_view line, TokioEvent& event);
    struct Failure { };
    [[noreturn]] void fail(std::string message);
    [[noreturn]] void failExpected(std::string_view what);
    void skipBlanks();
    bool consume(char c);
    void expect(char c, std::string_view what);
    // A string; its decoded text in `out` (escapes resolved).
    void string(std::string& out);
    // A key and its colon: the key's text in m_key.
    void key();
    std::uint64_t unsignedInteger(std::string_view what);
    std::int64_t integer(std::string_view what);
    bool boolean(std::string_view what);
    void skipValue(int depth = 0);
    // The members of an object whose '{' is read: after each key (in
    // m_key), `onKey` reads the value and returns true, or returns false
    // for a key it does not use, whose value is skipped. Reads the '}'.
    template<typename OnKey>
    void members(OnKey onKey);
    // Runs `body` on `line`: false with `error` set if it fails.
    template<typename Body>
    bool guarded(std::string_view line, Error& error, Body body);
    Time time();
    void payload(TokioEvent& event);
    void fields(TokioEvent& event);
    void field(TokioEvent& event);
    void wakerOp(TokioEvent& event);
    void checkEnd();

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::string m_key;
    std::string m_value;
    std::string m_message;
};

} // namespace runlane
