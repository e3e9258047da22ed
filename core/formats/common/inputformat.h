#pragma once

#include "formatprefix.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

class QIODevice;

namespace runlane {

class ChunkedFileReader;
class ProfileBuilder;
struct LoadControl;
struct TrackInfo;

// One input format, as the loader sees it. Each folder under core/formats/
// but common/ provides one (ChromeFormat, ChronosFormat, ...) and the
// FormatRegistry lists them: detection asks every one, the loader reads
// through the one that answered, runlane-cli's --input-format and the fuzz
// targets name them by id(). Nothing outside a format's folder knows its
// insides. It is in common/, below the formats and the loader alike: the
// formats implement it and may not use the loader.
class InputFormat
{
public:
    // A probe's answer about a file's first bytes.
    struct Probe {
        enum class Verdict {
            NotMine,
            // The format's reader takes any input of this shape and says
            // what it misses (a JSON object without known keys goes to the
            // Chrome reader): chosen only if no format says Mine.
            Perhaps,
            Mine,
            // Mine, but it cannot be read (a version this Runlane does not
            // read): `problem` says why, at `offset`.
            Broken,
        };
        Verdict verdict = Verdict::NotMine;
        // Where the evidence is: the earliest wins when several formats say
        // Mine (an object is what its first known top-level key says).
        std::size_t evidence = 0;
        // What exactly it is, when the format has variants ("Chroprof metric
        // snapshots"); empty: name().
        std::string kind;
        std::string problem;
        std::int64_t offset = -1;

        static Probe notMine() { return {}; }
        static Probe perhaps() { return {Verdict::Perhaps, 0, {}, {}, -1}; }
        static Probe mine(std::size_t evidence, std::string kind = {})
        {
            return {Verdict::Mine, evidence, std::move(kind), {}, -1};
        }
        static Probe broken(std::size_t evidence, std::string problem, std::int64_t offset)
        {
            return {Verdict::Broken, evidence, {}, std::move(problem), offset};
        }
    };

    virtual ~InputFormat() = default;

    // Short and stable: the folder's name, `--input-format ID`, fuzz_<id>.
    virtual std::string_view id() const = 0;
    // For people, and the profile's format().
    virtual std::string_view name() const = 0;
    // The names its files usually have ("*.json"), for the Open dialog's
    // filter only: detection never looks at a file's name.
    virtual std::vector<std::string_view> fileNamePatterns() const = 0;
    virtual Probe probe(const FormatPrefix& prefix) const = 0;
    // Bytes of memory a loaded profile needs per byte of input, at most;
    // the MemoryGuard refuses a file that would not fit before reading it.
    virtual double memoryPerInputByte() const = 0;
    // JSON formats get the reader's cap on string length (a 1 GiB "name"
    // is an attack, not a profile); text formats do not.
    virtual bool isJson() const { return true; }
    // Whether the loader caps its strings (ChunkedFileReader::
    // limitJsonStrings): a JSON format's default. A reader that caps its
    // lines itself (JSON lines) saves the scan of every byte.
    virtual bool limitsJsonStrings() const { return isJson(); }
    // Binary formats (pprof's protobuf) are neither JSON nor text: what
    // detection says about text that no format takes does not offer them.
    virtual bool isBinary() const { return false; }
    // Whether its reader decodes UTF-16 (with a byte order mark) itself.
    virtual bool readsUtf16() const { return false; }

    // A faster reader of a whole file, tried before read() when the file
    // can be read again from its start: false if read() must do it (the
    // loader then reads the file again into a fresh builder). `file` is at
    // the start of the (decompressed) text. The default has none.
    virtual bool hasFileReader() const { return false; }
    virtual bool readFile(QIODevice& file, const LoadControl& control, ProfileBuilder& builder,
                          std::int64_t& bytesRead) const;
    // Streams the input into the builder. Throws FormatError for input
    // it cannot take (with the byte offset when it knows it).
    virtual void read(ChunkedFileReader& input, ProfileBuilder& builder) const = 0;

    // Whether a file of this format can be added to a trace of the same run
    // (LoadControl::additions): it must be on the trace's clock and be one
    // thread's data (V8 CPU profiles), or one process of its own on the
    // epoch clock (addsProcess(): the Enso Language Server's message log).
    virtual bool canBeAdded() const { return false; }
    // An added file of this format is a process beside the trace's, not
    // samples under one of its threads: there is no thread to choose.
    virtual bool addsProcess() const { return false; }
    // Streams an added file into the builder that holds the trace, as one
    // track described by `track` (a Samples track of the chosen thread, or
    // for addsProcess() the pid and sort index of a process of its own).
    // The default throws FormatError: only formats that canBeAdded() read.
    virtual void readAddition(ChunkedFileReader& input, ProfileBuilder& builder, const TrackInfo& track) const;
};

} // namespace runlane
