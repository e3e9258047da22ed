#pragma once

#include "chromeevent.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of the Chrome loader: streams the JSON with nlohmann's SAX
// parser and hands each element of the event array to `sink` as a filled
// ChromeEvent (with its 0-based index). It knows the two top-level forms, the
// tolerated quirks of the bare-array form (missing `]`, trailing comma, a
// file cut inside its last event) and a file of either form cut short (what
// came before the cut is read, with a "truncated file" warning), but nothing
// of what the events mean.
class ChromeJsonReader
{
public:
    using Sink = std::function<void(const ChromeEvent&, std::uint64_t index)>;
    // Called with each key of the top-level object, in file order (a tool's
    // own metadata names the tool: viztracer's "viztracer_metadata").
    using KeySink = std::function<void(std::string_view key)>;

    ChromeJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    // Throws FormatError for malformed JSON or structure, LoadCancelled.
    void read();
    std::uint64_t eventCount() const { return m_eventCount; }
    void setKeySink(KeySink sink) { m_keySink = std::move(sink); }

    // Where a file was cut short, as the "truncated file" warning says it
    // (the fast reader says it in the same words): inside the event with
    // this 0-based index; inside the event array after this many events;
    // after the event array, inside the value of this top-level key ("": not
    // inside a value).
    static std::string cutInsideEvent(std::uint64_t index);
    static std::string cutBetweenEvents(std::uint64_t events);
    static std::string cutAfterEvents(std::string_view key);

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
    KeySink m_keySink;
    std::uint64_t m_eventCount = 0;
};

} // namespace runlane
