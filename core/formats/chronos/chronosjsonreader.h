#pragma once

#include "chronosevent.h"

#include <cstdint>
#include <functional>
#include <string>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of the Chronos future event log: streams
// {"chronosFutureEvents": 1, "loop": "main", "events": [...]} with
// nlohmann's SAX parser, in any key order, and hands each element of
// "events" on as a ChronosEvent.
class ChronosJsonReader
{
public:
    struct Header {
        bool hasMarker = false;
        std::int64_t version = 0;
        std::string loop;
    };
    using Sink = std::function<void(const ChronosEvent&, std::uint64_t index)>;

    ChronosJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    // Throws FormatError for malformed JSON or structure (including a missing
    // or unknown marker), LoadCancelled.
    void read();
    const Header& header() const { return m_header; }

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
    Header m_header;
};

} // namespace runlane
