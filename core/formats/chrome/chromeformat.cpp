#include "chromeformat.h"

#include "gzipdevice.h"

#include "chromefastreader.h"
#include "chromejsonreader.h"
#include "chrometracebuilder.h"
#include "loaderror.h"
#include "profilebuilder.h"

#include <QIODevice>

namespace runlane {

std::string_view ChromeFormat::id() const
{
    return "chrome";
}

std::string_view ChromeFormat::name() const
{
    return "Chrome Trace Event Format";
}

std::vector<std::string_view> ChromeFormat::fileNamePatterns() const
{
    return {"*.json"};
}

InputFormat::Probe ChromeFormat::probe(const FormatPrefix& prefix) const
{
    const JsonPrefix& json = prefix.json();
    if (json.kind() == JsonPrefix::Kind::Object) {
        if (const JsonPrefix::Key* key = json.firstKeyOf({"traceEvents"}))
            return Probe::mine(key->offset);
        // An object no format places: the Chrome reader says what it misses.
        return Probe::perhaps();
    }
    // A bare array of events, unless another format knows its first element.
    return json.kind() == JsonPrefix::Kind::Array ? Probe::perhaps() : Probe::notMine();
}

double ChromeFormat::memoryPerInputByte() const
{
    return 1.5;
}

namespace {

// The load wants previews, or may be stopped and kept: the builder
// follows it as it goes.
void followPartial(ChromeTraceBuilder& chrome, ProfileBuilder& builder, const LoadControl& control)
{
    if (builder.startPreviews() || control.keepPartial)
        chrome.followPartial();
}

// The load was stopped and what was read is kept (LoadControl::keepPartial):
// the events read are finished as at the end of a file (B/E matched, what
// is open ends with the profile). The loader adds the bytes and a warning.
void finishCut(ChromeTraceBuilder& chrome, ProfileBuilder& builder)
{
    builder.stopPreviews();
    PartialLoad cut;
    cut.kind = PartialLoad::Kind::Cut;
    cut.eventsRead = chrome.partial()->eventsRead();
    cut.completeUpTo = chrome.partial()->completeUpTo();
    chrome.finish();
    builder.setPartial(cut);
}

} // namespace

bool ChromeFormat::hasFileReader() const
{
    return ChromeFastReader::enabled();
}

// The fast path: true if it read the file. False if the reference reader
// must (it judges and words what the fast one does not take, such as
// errors, so that either path gives the same profile or the same message).
bool ChromeFormat::readFile(QIODevice& file, const LoadControl& control, ProfileBuilder& builder,
                            std::int64_t& bytesRead) const
{
    // An event takes at least ~60 bytes of JSON: room for that many, so that
    // the model's vectors never copy themselves while growing (a .json.gz
    // states its text's size in its trailer).
    builder.reserve(std::size_t(GzipDevice::textSizeHint(file) / 60));
    ChromeTraceBuilder chrome(builder);
    ChromeFastReader reader(file, control, builder.diagnostics(),
                            [&chrome](const ChromeEvent& event, std::uint64_t index) { chrome.addEvent(event, index); });
    reader.setKeySink([&chrome](std::string_view key) { chrome.addTopLevelKey(key); });
    followPartial(chrome, builder, control);
    try {
        const ChromeFastReader::Outcome outcome = reader.read();
        if (outcome == ChromeFastReader::Outcome::Unsupported)
            return false;
        if (outcome == ChromeFastReader::Outcome::Cut) {
            finishCut(chrome, builder);
        } else {
            builder.endOfFile(reader.eventCount());
            chrome.finish();
        }
    } catch (const FormatError&) {
        return false; // the reference reader knows the byte offset
    }
    bytesRead = reader.bytesRead();
    return true;
}

void ChromeFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    ChromeTraceBuilder chrome(builder);
    ChromeJsonReader reader(input, builder.diagnostics(),
                            [&chrome](const ChromeEvent& event, std::uint64_t index) { chrome.addEvent(event, index); });
    reader.setKeySink([&chrome](std::string_view key) { chrome.addTopLevelKey(key); });
    followPartial(chrome, builder, input.control());
    try {
        reader.read();
    } catch (const LoadCancelled&) {
        if (!input.control().keepsWhatWasRead())
            throw;
        finishCut(chrome, builder);
        return;
    }
    builder.endOfFile(reader.eventCount());
    chrome.finish();
}

} // namespace runlane
