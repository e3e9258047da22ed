#pragma once

#include "chromejsonreader.h"
#include "chunkedfilereader.h"

#include <QIODevice>

#include <cstdint>

namespace runlane {

class Diagnostics;

// The fast tokenizer for Chrome traces. A producer thread reads the file in
// blocks, finds the elements of the event array with a light structural
// scan, parses them in batches with simdjson's On Demand API and fills
// ChromeEvents through the same ChromeEventFiller as the reference reader;
// the calling thread hands them to the sink meanwhile, so that parsing and
// model building use both cores.
//
// It takes the common layouts, the tolerated quirks of the bare array
// (missing ']', trailing comma, a file cut inside its last event) and a file
// of the object form cut short once its event array began. Anything else
// (a syntax error, a key with escapes or not in UTF-8, a huge non-event
// value) it leaves to the reference reader, which judges it and words the
// error: the caller then starts again from scratch. Either way the
// builder sees the same events and the same warnings in the same order.
class ChromeFastReader
{
public:
    // Cut: the load was cancelled with LoadControl::keepPartial set; the
    // sink had every event wholly in the bytes read before the cancel was
    // seen (the reference reader stops at the same event).
    enum class Outcome { Read, Unsupported, Cut };

    ChromeFastReader(QIODevice& file, const LoadControl& control, Diagnostics& diagnostics, ChromeJsonReader::Sink sink);
    ~ChromeFastReader();

    // Reads the whole file from its start. Throws LoadCancelled, and what
    // the sink throws (FormatError).
    Outcome read();
    std::uint64_t eventCount() const { return m_eventCount; }
    // Bytes read (for the final progress report).
    std::int64_t bytesRead() const { return m_bytesRead; }
    // See ChromeJsonReader::KeySink.
    void setKeySink(ChromeJsonReader::KeySink sink) { m_keySink = std::move(sink); }

    // RUNLANE_JSON=reference in the environment turns the fast path off
    // everywhere, so that the tests can run on either path.
    static bool enabled();
    // Files this process read to the end on the fast path (for tests and
    // benchmarks to tell which path took a file).
    static std::uint64_t completedReads();

private:
    class Producer;

    QIODevice& m_file;
    const LoadControl& m_control;
    Diagnostics& m_diagnostics;
    ChromeJsonReader::Sink m_sink;
    ChromeJsonReader::KeySink m_keySink;
    std::uint64_t m_eventCount = 0;
    std::int64_t m_bytesRead = 0;
};

} // namespace runlane
