#pragma once

#include <cstdint>
#include <string>

namespace runlane {

// One event of a Chronos future event log, as ChronosJsonReader hands it to
// ChronosLogBuilder: {"t": 1000, "id": 7, "state": "Pending", "proc": ...}.
struct ChronosEvent {
    struct Field {
        enum Kind : std::uint8_t { Absent, Integer, String, Other };
        Kind kind = Absent;
        std::int64_t number = 0;
        std::string text; // String: the value; Other: what was found
        void clear()
        {
            kind = Absent;
            number = 0;
            text.clear();
        }
    };

    bool isObject = true;
    std::string foundText; // what the array element was instead of an object
    Field t; // integer nanoseconds
    Field id; // integer (or string) future id
    Field state;
    Field proc;
    Field file;
    Field line;

    void clear()
    {
        isObject = true;
        foundText.clear();
        t.clear();
        id.clear();
        state.clear();
        proc.clear();
        file.clear();
        line.clear();
    }
};

} // namespace runlane
