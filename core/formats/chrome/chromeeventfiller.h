#pragma once

#include "chromeevent.h"
#include "jsonscalar.h"
#include "textarena.h"

#include <string>
#include <string_view>

namespace runlane {

// What the fields of one Chrome event mean, written once for every
// tokenizer: a tokenizer reports an event's keys and values in file order
// and this fills the ChromeEvent, so that the reference (nlohmann) and the
// fast (simdjson) readers cannot differ in what they hand the builder.
//
// The event's texts are views (ChromeEvent). What the filler writes itself
// (a description of an unexpected value) goes into `texts`. The tokenizer's
// texts are taken as they are if `textLasts` (it keeps them until the event
// is consumed, as the fast reader's job does), else copied into `texts` too.
// Whoever owns `texts` clears it once the events filled are consumed.
class ChromeEventFiller
{
public:
    ChromeEventFiller(ChromeEvent& event, TextArena& texts, bool textLasts)
        : m_event(event), m_texts(texts), m_textLasts(textLasts)
    {
    }

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
    // Times in the file are microseconds, kept as nanoseconds: 10^3.
    static constexpr int kTimeScale = 3;
    // While wantsNumberText(): the value, a number the tokenizer has read
    // itself, exactly, as `ns` (what scalar() of its text would give, as
    // parseShortScaledDecimal reads it with kTimeScale).
    void scaledTime(std::int64_t ns);
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
    void timeField(ChromeEvent::TimeValue& value, const JsonScalar& v);
    void valueField(ChromeEvent::Value& value, const JsonScalar& v);
    // The tokenizer's text, for a view in the event.
    std::string_view lasting(std::string_view text) { return m_textLasts ? text : m_texts.keep(text); }
    // The event, for writing one of its rarely set fields: it marks them
    // set, so that the next beginEvent() clears them (ChromeEvent::clear).
    ChromeEvent& cold()
    {
        m_event.hasCold = true;
        return m_event;
    }

    ChromeEvent& m_event;
    TextArena& m_texts;
    bool m_textLasts;
    Field m_field = Field::Other;
    Sub m_sub = Sub::None;
    std::string_view m_subKey; // lasting()
    bool m_wantsRaw = false;
};

} // namespace runlane
