#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlane {

// The outline of a JSON document's first bytes, enough to tell formats
// apart: the top-level keys of an object in order (values skipped, as far
// as the text goes) or the first key of an array's first element. Only
// structure is read, not validity: the format's reader judges the rest and
// says what is wrong, with the byte where it is.
class JsonPrefix
{
public:
    enum class Kind { NotJson, Object, Array };

    struct Key {
        std::string name; // escapes kept undecoded: keys looked for have none
        std::size_t offset = 0; // of the key's opening quote
        // A scalar value's text ("1", "\"x\"", "true"); empty for an object,
        // an array, or a value cut off by the end of the prefix.
        std::string_view scalar;

        // The scalar as a plain integer (at most 18 digits, no sign, no
        // fraction), or nothing: anything else is for the reader to judge.
        std::optional<std::int64_t> integer() const;
    };

    JsonPrefix() = default;
    // `start` is the first byte that is neither a byte order mark nor blank.
    JsonPrefix(std::string_view text, std::size_t start);

    Kind kind() const { return m_kind; }
    // Object: its keys in order, as far as the text goes.
    const std::vector<Key>& keys() const { return m_keys; }
    // The first of `names` among the keys, or nullptr.
    const Key* firstKeyOf(std::initializer_list<std::string_view> names) const;
    // Array: the first key of its first element, if that is an object.
    const std::optional<Key>& firstElementKey() const { return m_firstElementKey; }

    static bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
    static std::size_t skipBlanks(std::string_view text, std::size_t pos);

private:
    void readObject(std::string_view text, std::size_t pos);

    Kind m_kind = Kind::NotJson;
    std::vector<Key> m_keys;
    std::optional<Key> m_firstElementKey;
};

} // namespace runlane
