#pragma once

#include "chromeevent.h"
#include "jsonscalar.h"

#include <string>
#include <string_view>

namespace runlane {

// What the fields of one Chrome event mean, written once for every
// tokenizer: a tokenizer reports an event's keys and values in file order
// and this fills the ChromeEvent, so that the reference (nlohmann) and the
// fast (simdjson) readers cannot differ in what they hand the builder.
class ChromeEventFiller
{
public:
    explicit ChromeEventFiller(ChromeEvent& event) : m_event(event) { }

    void beginEvent();
    // The array element is not an object; `what` says what it is instead.
    void notAnObject(std::string_view what);
    // A field of the event: its key, then its value as one scalar() or as a
    // container between beginContainer() and endContainer().
    void key(std::string_view key);
    void scalar(const JsonScalar& value);
    // True while the current field is a time (ts, dur, tdur): for a number,
    // its text is all scalar() needs, so a tokenizer may skip converting it.
    bool wantsNumberText() const { return m_field == Field::Ts || m_field == Field::Dur || m_field == Field::Tdur; }
    // True if the container's direct members matter (the `args` and `id2`
    // objects): report them with subKey() and subScalar().
    bool beginContainer(bool isObject);
    void subKey(std::string_view key);
    // After subKey(): true if the member, an object or array, is wanted as
    // its JSON text (subRaw) rather than skipped: `args.data` of an event
    // that may carry V8 samples (ChromeEvent::argData).
    bool wantsRaw() const { return m_wantsRaw; }
    void subRaw(std::string_view json);
    void subScalar(const JsonScalar& value);
    void endContainer();

    // How a value is quoted in messages: 12, "text", true.
    static std::string describe(const JsonScalar& value);

private:
    enum class Field : std::uint8_t {
        Other,
        Ph,
        Name,
        Cat,
        Ts,
        Dur,
        Tdur,
        Pid,
        Tid,
        Id,
        Id2,
        Scope,
        S,
        Args,
        Bp,
        BindId,
        FlowIn,
        FlowOut
    };
    enum class Sub : std::uint8_t { None, Args, Id2 };

    static Field fieldFor(std::string_view key);
    void containerField(const char* what);
    static void timeField(ChromeEvent::TimeValue& value, const JsonScalar& v);
    static void valueField(ChromeEvent::Value& value, const JsonScalar& v);
    // The event, for writing one of its rarely set fields: it marks them
    // set, so that the next beginEvent() clears them (ChromeEvent::clear).
    ChromeEvent& cold()
    {
        m_event.hasCold = true;
        return m_event;
    }

    ChromeEvent& m_event;
    Field m_field = Field::Other;
    Sub m_sub = Sub::None;
    std::string m_subKey;
    bool m_wantsRaw = false;
};

} // namespace runlane
