#pragma once

#include "chromeevent.h"
#include "textarena.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace runlane {

// Parses a JSON array of Chrome events with simdjson's On Demand API into
// ChromeEvents, through the same ChromeEventFiller as the reference reader.
// Every value is read, even those the format ignores, so that it rejects
// what the reference reader rejects. One per thread: it keeps simdjson's
// parser (and its buffers) from batch to batch.
class ChromeBatchParser
{
public:
    ChromeBatchParser();
    ~ChromeBatchParser();

    // `json` holds `length` bytes of JSON followed by at least
    // simdjson::SIMDJSON_PADDING readable bytes. Fills events[0..n) (growing
    // the vector as needed) and returns n, or -1 if the text is not valid
    // JSON the way the reference reader reads it. The events' texts point
    // into `json` and `texts`, which must outlast the events' use; this
    // adds to `texts` and never clears it.
    long parse(const char* json, std::size_t length, std::size_t capacity, std::vector<ChromeEvent>& events,
               TextArena& texts);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace runlane
