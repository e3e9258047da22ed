#pragma once

#include "chunkedfilereader.h"
#include "geckothreadreader.h"
#include "profilebuilder.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace runlane {

// Streams a Firefox Profiler file (formats.md (g)) into the builder: a raw
// gecko profile, a processed one, or a DevTools recording that wraps one
// under `profile`. nlohmann's SAX walks the file; only one thread object
// (and each `meta`) is held as a document at a time, and is reduced to a
// GeckoThread as soon as what it needs is known. Child processes
// (`processes[]`, each a gecko profile of its own) are shifted onto the
// parent's clock by the difference of their `meta.startTime`s.
class GeckoReader
{
public:
    GeckoReader(ChunkedFileReader& input, ProfileBuilder& builder);
    ~GeckoReader();
    void read();

    // One gecko profile of the file: the top one, or a child process.
    struct Process {
        std::size_t parent = 0;
        bool hasMeta = false;
        std::optional<double> startTime; // ms since the epoch
        double interval = 1; // ms
        std::string product;
        std::vector<std::string> categories;
    };
    // A thread still to be read: its profile's `meta`, or the shared
    // strings, come later in the file.
    struct Pending {
        std::size_t process = 0;
        std::size_t order = 0;
        std::unique_ptr<nlohmann::json> thread;
    };

    // Called by the SAX handler.
    std::size_t addProcess(std::size_t parent);
    void takeMeta(std::size_t process, const nlohmann::json& meta);
    void takeShared(const nlohmann::json& shared);
    void takeThread(std::size_t process, std::unique_ptr<nlohmann::json> thread);
    // A child process written as a JSON string (old gecko versions).
    void takeProcessText(std::size_t parent, const std::string& text);

private:
    void takeProcess(std::size_t parent, const nlohmann::json& profile, int depth);
    void readThread(std::size_t process, std::size_t order, const nlohmann::json& thread);
    void emit();
    void emitThread(const GeckoThread& thread, std::size_t process);
    void emitMarkers(const GeckoThread& thread, const TrackInfo& samples, TrackId samplesTrack, Time offset);
    Time toTime(double ms, Time offset) const;

    ChunkedFileReader& m_input;
    ProfileBuilder& m_builder;
    std::vector<Process> m_processes;
    std::optional<std::vector<std::string>> m_sharedStrings;
    std::vector<Pending> m_pending;
    // Read threads in the order of the file, with their process.
    std::vector<std::pair<std::size_t, GeckoThread>> m_threads;
    std::size_t m_threadCount = 0;
    std::vector<std::string> m_pidNames; // the pids that are not numbers, and processes without one
};

} // namespace runlane
