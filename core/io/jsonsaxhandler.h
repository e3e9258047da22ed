#pragma once

// The base of the nlohmann SAX readers. Only included by .cpp files, so
// that nlohmann's heavy header stays out of the rest of the code.

#include "jsonsaxsupport.h"
#include "jsonscalar.h"

#include <string>

namespace runlane {

// What nlohmann's SAX interface asks of every reader, written once: the
// callbacks, the depth of open containers, the syntax error with its byte
// offset, binary values (never in JSON text) ignored. A reader derives
// from JsonSaxHandler<Reader> (CRTP: the callbacks are resolved at compile
// time, no virtual call per token) and states only what it does with what
// it reads:
//
//   void scalar(const JsonScalar& value);  // a value that is no container
//   void open(char bracket);               // '{' or '[', at depth() before it
//   void close(char bracket);              // '}' or ']', at depth() after it
//   void member(std::string& key);         // optional: by default the key
//                                          // is kept, as lastKey()
//
// The hooks may be private to a reader that befriends its base. A reader
// that needs one of nlohmann's callbacks as it is (a string it hands on
// without a copy, say) defines it and hides the base's. Errors in the content are
// FormatErrors thrown from the hooks; they pass through parse().
template <typename Reader>
class JsonSaxHandler
{
public:
    using Json = nlohmann::json;

    explicit JsonSaxHandler(ChunkedFileReader& input) : m_input(input), m_startOffset(input.offset()) { }

    // Reads one JSON value from where the input stands. False after a
    // syntax error: syntaxError() says what and where.
    bool parse()
    {
        return Json::sax_parse(m_input.begin(), m_input.end(), &reader(), nlohmann::json::input_format_t::json,
                               /*strict=*/false);
    }

    const jsonsax::SyntaxError& syntaxError() const { return m_error; }
    // The syntax error as a load error; `item` is the event or row it cut.
    [[noreturn]] void throwSyntaxError(std::int64_t item = -1) const
    {
        throw FormatError(m_error.message, item, m_error.offset);
    }

    // Where a syntax error left a file that is one array of items (a
    // trace's events): the formats that keep what came before tell their
    // reader's quirks apart by it.
    enum class ArrayCut : std::uint8_t {
        None, // not one of these
        Unterminated, // the array has no closing ']'
        TrailingComma, // a ',' before the closing ']'
        InsideItem, // the file ends inside an item
    };
    ArrayCut arrayCut() const
    {
        if (m_depth == 1 && m_error.atEnd)
            return ArrayCut::Unterminated;
        if (m_depth == 1 && m_error.unexpected == ']')
            return ArrayCut::TrailingComma;
        if (m_depth > 1 && m_error.atEnd)
            return ArrayCut::InsideItem;
        return ArrayCut::None;
    }

    // nlohmann's SAX interface.
    bool null() { return onScalar(JsonScalar{JsonScalar::Null, 0, 0, 0.0, {}}); }
    bool boolean(bool value) { return onScalar(JsonScalar{value ? JsonScalar::True : JsonScalar::False, 0, 0, 0.0, {}}); }
    bool number_integer(Json::number_integer_t value) { return onScalar(JsonScalar{JsonScalar::Integer, value, 0, 0.0, {}}); }
    bool number_unsigned(Json::number_unsigned_t value)
    {
        return onScalar(JsonScalar{JsonScalar::Unsigned, 0, value, 0.0, {}});
    }
    bool number_float(Json::number_float_t value, const std::string& text)
    {
        return onScalar(JsonScalar{JsonScalar::Float, 0, 0, value, text});
    }
    bool string(std::string& value) { return onScalar(JsonScalar{JsonScalar::String, 0, 0, 0.0, value}); }
    bool binary(Json::binary_t&) { return true; }
    bool start_object(std::size_t) { return onOpen('{'); }
    bool start_array(std::size_t) { return onOpen('['); }
    bool end_object() { return onClose('}'); }
    bool end_array() { return onClose(']'); }
    bool key(std::string& key)
    {
        reader().member(key);
        return true;
    }
    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_error.record(m_startOffset, position, lastToken, ex, m_input);
        return false;
    }

protected:
    ChunkedFileReader& input() const { return m_input; }
    std::int64_t startOffset() const { return m_startOffset; }
    // Containers open around the current token: 0 at the top-level value.
    int depth() const { return m_depth; }
    // The default member(): the key is kept for the value that follows.
    void member(std::string& key) { m_key = key; }
    // The key read last (by the default member()).
    const std::string& lastKey() const { return m_key; }

private:
    Reader& reader() { return static_cast<Reader&>(*this); }
    bool onScalar(const JsonScalar& value)
    {
        reader().scalar(value);
        return true;
    }
    bool onOpen(char bracket)
    {
        reader().open(bracket);
        ++m_depth;
        return true;
    }
    bool onClose(char bracket)
    {
        --m_depth;
        reader().close(bracket);
        return true;
    }

    ChunkedFileReader& m_input;
    std::int64_t m_startOffset;
    int m_depth = 0;
    std::string m_key;
    jsonsax::SyntaxError m_error;
};

} // namespace runlane
