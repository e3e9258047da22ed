#pragma once

#include "chromeevent.h"

#include <cstdint>
#include <functional>
#include <string_view>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of the Chrome loader: streams the JSON with nlohmann's SAX
// parser and hands each element of the event array to `sink` as a filled
// ChromeEvent (with its 0-based index). It knows the two top-level forms and
// the tolerated quirks of the bare-array form (missing `]`, trailing comma, a
// file cut inside its last event) but nothing of what the events mean.
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

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
    KeySink m_keySink;
    std::uint64_t m_eventCount = 0;
};

} // namespace runlane
