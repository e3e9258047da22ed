#pragma once

#include "profilebuilder.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace runlane {

// What one Firefox Profiler thread holds, once its tables are resolved:
// the stack tree (index = the file's stack index, parent = `prefix`), each
// sample's time and stack, and the markers. Times stay in the file's
// milliseconds relative to its profile's `meta.startTime`: a child
// process's shift is only known once its `meta` is read, which may come
// after its threads.
struct GeckoThread {
    struct Marker {
        StringId name = kEmptyString;
        double start = 0;
        double end = 0;
        bool instant = false;
    };
    std::string name;
    std::string processType;
    std::string pidText; // a pid that is not a number ("Unknown Process 1"), or ""
    std::int64_t pid = 0;
    bool hasPid = false;
    std::int64_t tid = 0;
    bool hasTid = false;
    std::vector<LabelId> stackLabel;
    std::vector<std::int64_t> stackPrefix; // -1: a root
    std::vector<double> sampleTime;
    std::vector<std::int64_t> sampleStack; // -1: no stack
    std::vector<Marker> markers;
    std::uint64_t unpairedMarkers = 0;
    std::string ignoredWeightType; // weights not in time, not shown
};

// Reads one thread object of a gecko profile (tables as {schema, data}
// and a `stringTable`) or of a processed profile (columns, strings in
// `stringArray` or the profile's `shared.stringArray`) into a GeckoThread.
// Every index the tables give is checked against the table it points into;
// a bad one is a FormatError naming the thread, the table and the row.
class GeckoThreadReader
{
public:
    // `categories`: the names of meta.categories (a frame whose category is
    // "Idle" is idle); `sharedStrings` may be null.
    GeckoThreadReader(ProfileBuilder& builder, const std::vector<std::string>& categories,
                      const std::vector<std::string>* sharedStrings);

    GeckoThread read(const nlohmann::json& thread, std::size_t index);

private:
    struct Table;
    void readIdentity(const nlohmann::json& thread);
    void readStrings(const nlohmann::json& thread);
    void readGeckoTables(const nlohmann::json& thread);
    void readProcessedTables(const nlohmann::json& thread);
    void readGeckoMarkers(const Table& markers);
    void readProcessedMarkers(const nlohmann::json& thread);
    void addMarker(StringId name, const nlohmann::json* start, const nlohmann::json* end, const nlohmann::json* phase,
                   const nlohmann::json* time, const nlohmann::json* data, std::size_t row);
    void closeMarkers();
    LabelId frameLabel(std::string_view location, std::int64_t line, const nlohmann::json* category);

    const std::string& string(const nlohmann::json& index, const char* table, std::size_t row, const char* column) const;
    std::int64_t index(const nlohmann::json& value, std::size_t size, const char* table, std::size_t row,
                       const char* column, const char* target, bool nullable) const;
    [[noreturn]] void fail(const std::string& what) const;

    ProfileBuilder& m_builder;
    const std::vector<std::string>& m_categories;
    const std::vector<std::string>* m_sharedStrings;
    std::vector<std::string> m_ownStrings;
    const std::vector<std::string>* m_strings = nullptr;
    std::vector<std::int64_t> m_stackFrame;
    std::vector<std::pair<StringId, std::size_t>> m_open; // interval starts waiting for their end
    GeckoThread m_thread;
    std::size_t m_index = 0;
};

} // namespace runlane
