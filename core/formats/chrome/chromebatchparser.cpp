#include "chromebatchparser.h"

#include "chromeeventfiller.h"
#include "jsonprefix.h"
#include "numberparse.h"

#include <simdjson.h>

#include <algorithm>

namespace runlane {

namespace {

namespace od = simdjson::ondemand;

std::string_view trimmed(std::string_view raw)
{
    while (!raw.empty() && JsonPrefix::isBlank(raw.back()))
        raw.remove_suffix(1);
    return raw;
}

// JSON's number grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?:
// what the reference reader accepts as a number, no more.
bool isJsonNumber(std::string_view t)
{
    std::size_t i = 0;
    const std::size_t n = t.size();
    auto digits = [&] {
        const std::size_t start = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < n && t[i] == '-')
        ++i;
    if (i < n && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < n && t[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == n;
}

// A number token of at most 18 digits with no fraction, exponent or
// leading zero, and not "-0": an int64 that simdjson would also call a
// signed integer. False for anything else, which simdjson then reads.
bool smallInteger(std::string_view t, std::int64_t& value)
{
    const bool negative = !t.empty() && t[0] == '-';
    const std::string_view digits = t.substr(negative ? 1 : 0);
    if (digits.empty() || digits.size() > 18 || digits[0] < '0' || digits[0] > '9'
        || (digits[0] == '0' && (digits.size() > 1 || negative)))
        return false;
    std::int64_t v = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    value = negative ? -v : v;
    return true;
}

// The text of a string that starts at `start`, after its opening quote, if
// it has no escape: its bytes in the buffer are its text, taken where they
// lie (stage 1 has checked the document's UTF-8 and that no string holds a
// control character). They last as long as the job's text, which is as long
// as the events' views must (ChromeEvent). Nearly every key and string.
bool unescaped(const char* start, std::string_view& text)
{
    const char* end = start;
    while (*end != '"' && *end != '\\')
        ++end;
    text = std::string_view(start, std::size_t(end - start));
    return *end == '"';
}

// A key's text. Only a key with an escape is unescaped, which copies it
// into simdjson's buffer (reused by the next job: kept in `texts`) and costs
// a call per key.
bool keyOf(od::field& field, std::string_view& key, TextArena& texts)
{
    if (unescaped(field.key().raw(), key))
        return true;
    if (field.unescaped_key().get(key))
        return false;
    key = texts.keep(key);
    return true;
}

// `texts` keeps a string with an escape (as keyOf does); without it (a
// value only validated) its text is not needed past the call.
JsonScalar scalarOf(od::value& value, od::json_type type, bool& ok, TextArena* texts)
{
    JsonScalar s;
    switch (type) {
    case od::json_type::string: {
        s.kind = JsonScalar::String;
        if (unescaped(value.raw_json_token().data() + 1, s.text)) {
            ok = true;
            return s;
        }
        ok = !value.get_string().get(s.text);
        if (ok && texts)
            s.text = texts->keep(s.text);
        return s;
    }
    case od::json_type::number: {
        const std::string_view raw = trimmed(value.raw_json_token());
        if (smallInteger(raw, s.i)) {
            // pid and tid, on every event: read once here, where simdjson
            // would classify the number and then read it again.
            ok = true;
            s.kind = JsonScalar::Integer;
            return s;
        }
        od::number_type kind;
        if (value.get_number_type().get(kind)) {
            ok = false;
            return s;
        }
        if (kind == od::number_type::signed_integer) {
            ok = !value.get_int64().get(s.i);
            s.kind = JsonScalar::Integer;
        } else if (kind == od::number_type::unsigned_integer) {
            ok = !value.get_uint64().get(s.u);
            s.kind = JsonScalar::Unsigned;
        } else {
            ok = !value.get_double().get(s.f);
            s.kind = JsonScalar::Float;
            s.text = raw;
        }
        return s;
    }
    case od::json_type::boolean: {
        bool b = false;
        ok = !value.get_bool().get(b);
        s.kind = b ? JsonScalar::True : JsonScalar::False;
        return s;
    }
    case od::json_type::null: {
        bool isNull = false;
        ok = !value.is_null().get(isNull) && isNull;
        s.kind = JsonScalar::Null;
        return s;
    }
    default:
        ok = false;
        return s;
    }
}

// Every value is read, even those the format ignores, so that what the
// reference reader rejects is rejected here too.
bool validate(od::value value, int depth)
{
    od::json_type type;
    if (value.type().get(type) || depth > 256)
        return false;
    if (type == od::json_type::object) {
        od::object object;
        if (value.get_object().get(object))
            return false;
        for (auto field : object) {
            std::string_view key;
            od::value member;
            if (field.unescaped_key().get(key) || field.value().get(member) || !validate(member, depth + 1))
                return false;
        }
        return true;
    }
    if (type == od::json_type::array) {
        od::array array;
        if (value.get_array().get(array))
            return false;
        for (auto element : array) {
            od::value member;
            if (element.get(member) || !validate(member, depth + 1))
                return false;
        }
        return true;
    }
    bool ok = false;
    scalarOf(value, type, ok, nullptr);
    return ok;
}

// Where an event's text lies, for the members kept as text: a second
// parser checks such a member (skipped by the first, not validated) as
// the reference reader would, within the padded buffer.
struct RawContext {
    od::parser* checker = nullptr;
    const char* bufferEnd = nullptr;
    TextArena* texts = nullptr; // for the texts simdjson unescaped
};

bool fillEvent(od::value value, ChromeEventFiller& filler, const RawContext& raw);

// A member's JSON text, checked to be valid JSON.
bool rawText(od::value& value, bool isObject, const RawContext& context, std::string_view& text)
{
    if (isObject) {
        od::object object;
        if (value.get_object().get(object) || object.raw_json().get(text))
            return false;
    } else {
        od::array array;
        if (value.get_array().get(array) || array.raw_json().get(text))
            return false;
    }
    while (!text.empty() && JsonPrefix::isBlank(text.back()))
        text.remove_suffix(1);
    const std::size_t capacity = std::size_t(context.bufferEnd - text.data());
    if (capacity < text.size() + simdjson::SIMDJSON_PADDING)
        return false;
    od::document doc;
    od::value root;
    if (context.checker->iterate(text.data(), text.size(), capacity).get(doc) || doc.get_value().get(root))
        return false;
    return validate(root, 3);
}

long parseArray(od::parser& parser, od::parser& checker, const char* json, std::size_t length, std::size_t capacity,
                std::vector<ChromeEvent>& events, TextArena& texts)
{
    const RawContext raw{&checker, json + capacity, &texts};
    od::document doc;
    if (parser.iterate(json, length, capacity).get(doc))
        return -1;
    od::array array;
    if (doc.get_array().get(array))
        return -1;
    std::size_t count = 0;
    for (auto element : array) {
        od::value value;
        od::json_type type;
        if (element.get(value) || value.type().get(type))
            return -1;
        if (count == events.size())
            events.emplace_back();
        ChromeEvent& event = events[count];
        // The events' views point into `json` or `texts`, which last
        // until the events are consumed.
        ChromeEventFiller filler(event, texts, true);
        if (type == od::json_type::object) {
            if (!fillEvent(value, filler, raw))
                return -1;
        } else if (type == od::json_type::array) {
            if (!validate(value, 1))
                return -1;
            filler.notAnObject("an array");
        } else {
            bool ok = false;
            const JsonScalar s = scalarOf(value, type, ok, &texts);
            if (!ok)
                return -1;
            filler.notAnObject(ChromeEventFiller::describe(s));
        }
        ++count;
    }
    return long(count);
}

bool fillEvent(od::value value, ChromeEventFiller& filler, const RawContext& raw)
{
    od::object object;
    if (value.get_object().get(object))
        return false;
    filler.beginEvent();
    for (auto result : object) {
        // The field is used where it lies: copying it out of its result
        // (a 16-byte load of what was just stored in two smaller parts)
        // stalled the loop at every key.
        if (result.error())
            return false;
        od::field& field = result.value_unsafe();
        std::string_view key;
        od::json_type type;
        if (!keyOf(field, key, *raw.texts))
            return false;
        od::value& member = field.value();
        if (member.type().get(type))
            return false;
        filler.key(key);
        if (type == od::json_type::object || type == od::json_type::array) {
            const bool isObject = type == od::json_type::object;
            if (!filler.beginContainer(isObject)) {
                if (!validate(member, 2))
                    return false;
                continue;
            }
            od::object sub;
            if (member.get_object().get(sub))
                return false;
            for (auto subResult : sub) {
                if (subResult.error())
                    return false;
                od::field& subField = subResult.value_unsafe();
                std::string_view subKey;
                od::json_type subType;
                if (!keyOf(subField, subKey, *raw.texts))
                    return false;
                od::value& subValue = subField.value();
                if (subValue.type().get(subType))
                    return false;
                filler.subKey(subKey);
                if (subType == od::json_type::object || subType == od::json_type::array) {
                    if (filler.wantsRaw()) {
                        std::string_view text;
                        if (!rawText(subValue, subType == od::json_type::object, raw, text))
                            return false;
                        filler.subRaw(text);
                        continue;
                    }
                    if (!validate(subValue, 3))
                        return false;
                    continue;
                }
                bool ok = false;
                const JsonScalar s = scalarOf(subValue, subType, ok, raw.texts);
                if (!ok)
                    return false;
                filler.subScalar(s);
            }
            filler.endContainer();
            continue;
        }
        if (type == od::json_type::number && filler.wantsNumberText()) {
            // Times keep every digit from the text: no need to convert the
            // number, only to check that it is one. Nearly every time is
            // read and checked in one pass here.
            JsonScalar s;
            s.kind = JsonScalar::Float;
            s.text = trimmed(member.raw_json_token());
            std::int64_t ns = 0;
            if (parseShortScaledDecimal(s.text, ChromeEventFiller::kTimeScale, ns)) {
                filler.scaledTime(ns);
                continue;
            }
            if (!isJsonNumber(s.text))
                return false;
            filler.scalar(s);
            continue;
        }
        bool ok = false;
        const JsonScalar s = scalarOf(member, type, ok, raw.texts);
        if (!ok)
            return false;
        filler.scalar(s);
    }
    return true;
}

} // namespace

struct ChromeBatchParser::Impl {
    od::parser parser;
    od::parser checker;
};

ChromeBatchParser::ChromeBatchParser() : m_impl(std::make_unique<Impl>()) { }

ChromeBatchParser::~ChromeBatchParser() = default;

long ChromeBatchParser::parse(const char* json, std::size_t length, std::size_t capacity, std::vector<ChromeEvent>& events,
                              TextArena& texts)
{
    // simdjson sizes its buffers to the longest text so far, reallocating
    // (and touching new pages) whenever one is longer: grow by doubling,
    // from 64 KiB (a small file's whole text needs no more).
    od::parser& parser = m_impl->parser;
    if (parser.capacity() < length && parser.allocate(std::max<std::size_t>(2 * length, 64 << 10)))
        return -1;
    od::parser& checker = m_impl->checker;
    if (checker.capacity() < length && checker.allocate(std::max<std::size_t>(2 * length, 64 << 10)))
        return -1;
    return parseArray(parser, checker, json, length, capacity, events, texts);
}

} // namespace runlane
