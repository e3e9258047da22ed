#pragma once

#include "speedscopefile.h"

namespace runlane {

class ChunkedFileReader;

// Tokenizer side of speedscope's file format: streams the JSON with
// nlohmann's SAX parser into a SpeedscopeFile, in any key order.
class SpeedscopeJsonReader
{
public:
    explicit SpeedscopeJsonReader(ChunkedFileReader& input);
    // Throws FormatError for malformed JSON or wrong types, LoadCancelled.
    SpeedscopeFile read();

private:
    ChunkedFileReader& m_input;
};

} // namespace runlane
