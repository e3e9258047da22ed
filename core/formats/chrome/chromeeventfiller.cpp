#include "chromeeventfiller.h"

#include "numberparse.h"
#include "texthash.h"

#include <climits>
#include <cmath>
#include <cstring>

namespace runlane {

namespace {

// Whether `key` is `literal`. The length is a constant, so the compiler
// compares the bytes as a number or two: a string_view's == called memcmp
// for each key of the same length tried (3 % of a 1 M load's samples, in
// fieldFor and subScalar).
template<std::size_t N>
bool same(std::string_view key, const char (&literal)[N])
{
    return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

} // namespace

ChromeEventFiller::Field ChromeEventFiller::fieldFor(std::string_view key)
{
    switch (key.size()) {
    case 1:
        return key[0] == 's' ? Field::S : Field::Other;
    case 2:
        if (same(key, "ph"))
            return Field::Ph;
        if (same(key, "ts"))
            return Field::Ts;
        if (same(key, "id"))
            return Field::Id;
        if (same(key, "bp"))
            return Field::Bp;
        return Field::Other;
    case 3:
        if (same(key, "pid"))
            return Field::Pid;
        if (same(key, "tid"))
            return Field::Tid;
        if (same(key, "dur"))
            return Field::Dur;
        if (same(key, "cat"))
            return Field::Cat;
        if (same(key, "id2"))
            return Field::Id2;
        return Field::Other;
    case 4:
        if (same(key, "name"))
            return Field::Name;
        if (same(key, "args"))
            return Field::Args;
        if (same(key, "tdur"))
            return Field::Tdur;
        return Field::Other;
    case 5:
        return same(key, "scope") ? Field::Scope : Field::Other;
    case 7:
        if (same(key, "bind_id"))
            return Field::BindId;
        if (same(key, "flow_in"))
            return Field::FlowIn;
        return Field::Other;
    case 8:
        return same(key, "flow_out") ? Field::FlowOut : Field::Other;
    default:
        return Field::Other;
    }
}

std::string ChromeEventFiller::describe(const JsonScalar& v)
{
    switch (v.kind) {
    case JsonScalar::Null:
        return "null";
    case JsonScalar::True:
        return "true";
    case JsonScalar::False:
        return "false";
    case JsonScalar::Integer:
        return std::to_string(v.i);
    case JsonScalar::Unsigned:
        return std::to_string(v.u);
    case JsonScalar::Float:
        return std::string(v.text);
    case JsonScalar::String:
        // As jsonsax::describeScalar words it (this file stays free of nlohmann).
        return "\"" + (v.text.size() <= 40 ? std::string(v.text) : std::string(v.text.substr(0, 40)) + "...") + "\"";
    }
    return {};
}

void ChromeEventFiller::beginEvent()
{
    m_event.clear();
    m_field = Field::Other;
    m_sub = Sub::None;
    m_wantsRaw = false;
}

void ChromeEventFiller::notAnObject(std::string_view what)
{
    m_event.clear();
    m_event.isObject = false;
    cold().notObjectText = what;
}

void ChromeEventFiller::key(std::string_view key)
{
    m_event.empty = false;
    m_field = fieldFor(key);
}

bool ChromeEventFiller::beginContainer(bool isObject)
{
    m_event.empty = false;
    if (!isObject) {
        containerField("an array");
        return false;
    }
    m_sub = m_field == Field::Args ? Sub::Args : m_field == Field::Id2 ? Sub::Id2 : Sub::None;
    if (m_sub == Sub::None)
        containerField("an object");
    return m_sub != Sub::None;
}

void ChromeEventFiller::endContainer()
{
    m_sub = Sub::None;
    m_wantsRaw = false;
}

void ChromeEventFiller::subKey(std::string_view key)
{
    m_subKey = lasting(key);
    // Kept for V8 samples, and for Node's async_hooks events, whose creator
    // and trigger are there; while the name or category is not yet known
    // (keys in another order), kept in case.
    m_wantsRaw = m_sub == Sub::Args && same(key, "data")
        && (!m_event.hasName || ChromeEvent::isProfileName(m_event.name) || m_event.cat.empty()
            || ChromeEvent::isAsyncHooksCategory(m_event.cat));
}

void ChromeEventFiller::subRaw(std::string_view json)
{
    cold().hasArgData = true;
    cold().argData = json;
    m_wantsRaw = false;
}

// An object or array where a field of ours wants a scalar.
void ChromeEventFiller::containerField(const char* what)
{
    auto invalidTime = [what](ChromeEvent::TimeValue& v) {
        v.kind = ChromeEvent::TimeValue::Invalid;
        v.text = what;
    };
    auto invalidValue = [what](ChromeEvent::Value& v) {
        v.kind = ChromeEvent::Value::Invalid;
        v.text = what;
    };
    switch (m_field) {
    case Field::Ph:
        m_event.hasPh = true;
        m_event.phIsString = false;
        m_event.ph = what;
        break;
    case Field::Ts:
        invalidTime(m_event.ts);
        break;
    case Field::Dur:
        invalidTime(m_event.dur);
        break;
    case Field::Tdur:
        invalidTime(cold().tdur);
        break;
    case Field::Pid:
        invalidValue(m_event.pid);
        break;
    case Field::Tid:
        invalidValue(m_event.tid);
        break;
    case Field::Id:
        invalidValue(cold().id);
        break;
    case Field::BindId:
        invalidValue(cold().bindId);
        break;
    default:
        break;
    }
}

void ChromeEventFiller::timeField(ChromeEvent::TimeValue& value, const JsonScalar& v)
{
    std::int64_t ns = 0;
    ParseStatus status = ParseStatus::Syntax;
    switch (v.kind) {
    case JsonScalar::Integer:
        status = scaleInteger(v.i, kTimeScale, ns);
        break;
    case JsonScalar::Unsigned:
        status = scaleUnsigned(v.u, kTimeScale, ns);
        break;
    case JsonScalar::Float:
    case JsonScalar::String:
        status = parseScaledDecimal(v.text, kTimeScale, ns);
        break;
    default:
        break;
    }
    value.ns = ns;
    value.kind = status == ParseStatus::Ok ? ChromeEvent::TimeValue::Ok
        : status == ParseStatus::Range     ? ChromeEvent::TimeValue::OutOfRange
                                           : ChromeEvent::TimeValue::Invalid;
    // The text is for the error message alone: a time read well (nearly
    // every one) is not copied.
    if (value.kind == ChromeEvent::TimeValue::Ok)
        value.text = {};
    else
        value.text = m_texts.keep(describe(v));
}

void ChromeEventFiller::scaledTime(std::int64_t ns)
{
    m_event.empty = false;
    ChromeEvent::TimeValue& value = m_field == Field::Ts ? m_event.ts : m_field == Field::Dur ? m_event.dur : cold().tdur;
    value.ns = ns;
    value.kind = ChromeEvent::TimeValue::Ok;
    value.text = {};
}

void ChromeEventFiller::valueField(ChromeEvent::Value& value, const JsonScalar& v)
{
    value.text = {};
    switch (v.kind) {
    case JsonScalar::Integer:
        value.kind = ChromeEvent::Value::Number;
        value.number = v.i;
        break;
    case JsonScalar::Unsigned:
        if (v.u <= std::uint64_t(INT64_MAX)) {
            value.kind = ChromeEvent::Value::Number;
            value.number = std::int64_t(v.u);
        } else {
            value.kind = ChromeEvent::Value::String;
            value.text = m_texts.keep(std::to_string(v.u));
        }
        break;
    case JsonScalar::Float:
        if (std::isfinite(v.f) && std::floor(v.f) == v.f && std::fabs(v.f) < 9.0e18) {
            value.kind = ChromeEvent::Value::Number;
            value.number = std::int64_t(v.f);
        } else {
            value.kind = ChromeEvent::Value::String;
            value.text = lasting(v.text);
        }
        break;
    case JsonScalar::String:
        value.kind = ChromeEvent::Value::String;
        value.text = lasting(v.text);
        break;
    case JsonScalar::Null:
        value.kind = ChromeEvent::Value::Absent;
        break;
    default:
        value.kind = ChromeEvent::Value::Invalid;
        value.text = m_texts.keep(describe(v));
        break;
    }
}

void ChromeEventFiller::scalar(const JsonScalar& v)
{
    m_event.empty = false;
    const bool isNumber = v.kind == JsonScalar::Integer || v.kind == JsonScalar::Unsigned || v.kind == JsonScalar::Float;
    switch (m_field) {
    case Field::Ph:
        m_event.hasPh = true;
        m_event.phIsString = v.kind == JsonScalar::String;
        m_event.ph = v.kind == JsonScalar::String ? lasting(v.text) : m_texts.keep(describe(v));
        break;
    case Field::Name:
        if (v.kind == JsonScalar::String || isNumber) {
            m_event.hasName = true;
            const std::string_view name = v.kind == JsonScalar::String ? lasting(v.text) : m_texts.keep(describe(v));
            m_event.name = name;
            m_event.nameHash = hashText(name);
        }
        break;
    case Field::Cat:
        if (v.kind == JsonScalar::String)
            m_event.cat = lasting(v.text);
        break;
    case Field::Scope:
        if (v.kind == JsonScalar::String)
            cold().scope = v.text;
        break;
    case Field::S:
        if (v.kind == JsonScalar::String)
            cold().instantScope = v.text;
        break;
    case Field::Ts:
        timeField(m_event.ts, v);
        break;
    case Field::Dur:
        timeField(m_event.dur, v);
        break;
    case Field::Tdur:
        timeField(cold().tdur, v);
        break;
    case Field::Pid:
        valueField(m_event.pid, v);
        break;
    case Field::Tid:
        valueField(m_event.tid, v);
        break;
    case Field::Id:
        valueField(cold().id, v);
        break;
    case Field::Bp:
        if (v.kind == JsonScalar::String)
            cold().bp = v.text;
        break;
    case Field::BindId:
        valueField(cold().bindId, v);
        break;
    case Field::FlowIn:
        cold().flowIn = v.kind == JsonScalar::True;
        break;
    case Field::FlowOut:
        cold().flowOut = v.kind == JsonScalar::True;
        break;
    case Field::Id2:
    case Field::Args:
    case Field::Other:
        break;
    }
}

void ChromeEventFiller::subScalar(const JsonScalar& v)
{
    m_wantsRaw = false;
    const std::string_view key = m_subKey;
    if (m_sub == Sub::Id2) {
        if (same(key, "local"))
            valueField(cold().id2Local, v);
        else if (same(key, "global"))
            valueField(cold().id2Global, v);
        return;
    }
    if (m_sub != Sub::Args)
        return;
    if (v.kind == JsonScalar::String) {
        if (same(key, "name"))
            cold().argName = v.text;
        else if (same(key, "state"))
            cold().argState = v.text;
        else if (same(key, "file") || (same(key, "url") && m_event.argFile.empty()))
            cold().argFile = v.text;
        return;
    }
    if (v.kind == JsonScalar::Integer || v.kind == JsonScalar::Unsigned || v.kind == JsonScalar::Float) {
        const double value = v.kind == JsonScalar::Integer ? double(v.i) : v.kind == JsonScalar::Unsigned ? double(v.u) : v.f;
        const bool integral = v.kind == JsonScalar::Integer || (v.kind == JsonScalar::Unsigned && v.u <= std::uint64_t(INT64_MAX));
        const std::int64_t whole = v.kind == JsonScalar::Integer ? v.i : std::int64_t(v.u);
        if (same(key, "sort_index") && integral) {
            cold().hasArgSortIndex = true;
            cold().argSortIndex = whole;
        } else if (same(key, "line") && integral && whole > 0 && whole <= INT32_MAX) {
            cold().argLine = whole;
        } else if (same(key, "creator") && integral && whole >= 0) {
            cold().argCreator = whole;
        } else if (same(key, "trigger") && integral && whole >= 0) {
            cold().argTrigger = whole;
        } else if (same(key, "wake") && integral && whole >= 0 && whole <= 0xff) {
            cold().argWake = std::int16_t(whole);
        } else if (same(key, "creator_tid") && integral) {
            cold().hasArgCreatorTid = true;
            cold().argCreatorTid = whole;
        }
        m_event.addNumericArg(m_subKey, value);
    }
}

} // namespace runlane
