#pragma once

#include "ensoevent.h"

#include <cstdint>
#include <functional>

namespace runlane {

class ChunkedFileReader;
class Diagnostics;

// Tokenizer side of the Enso loader: an Enso profile is a stream of JSON
// arrays, one per process, written one after another. Each array is parsed
// with nlohmann's SAX parser and its elements are handed on as EnsoEvents.
class EnsoJsonReader
{
public:
    struct Sink {
        std::function<void(std::size_t process)> beginProcess;
        std::function<void(const EnsoEvent&, std::uint64_t index)> event;
        std::function<void()> endProcess;
    };

    EnsoJsonReader(ChunkedFileReader& input, Diagnostics& diagnostics, Sink sink);
    // Throws FormatError for malformed JSON or structure, LoadCancelled.
    void read();

private:
    ChunkedFileReader& m_input;
    Diagnostics& m_diagnostics;
    Sink m_sink;
};

} // namespace runlane
