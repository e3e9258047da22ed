#pragma once

#include <cstdint>
#include <string>

namespace runlane {

// One Enso profiler event (formats.md (a)) as EnsoJsonReader hands it to
// EnsoLogBuilder: `{"C": {"p": 0, "t": 5, "l": 1}}` becomes kind 'C' with the
// typed fields below.
struct EnsoEvent {
    struct Field {
        enum Kind : std::uint8_t { Absent, Null, Unsigned, Negative, String, Other };
        Kind kind = Absent;
        std::uint64_t u = 0; // Unsigned
        std::int64_t i = 0; // Negative (and Unsigned values that fit)
        std::string text; // String: the value; Other: what was found
        void clear()
        {
            kind = Absent;
            u = 0;
            i = 0;
            text.clear();
        }
    };

    std::string kindKey; // the event's only key, e.g. "C"
    int keyCount = 0; // keys of the event object (must be 1)
    bool isObject = true; // the array element was an object
    bool bodyIsObject = true; // the value under the kind key was an object
    std::string foundText; // what was found instead of an object

    Field p; // C: parent
    Field t; // time in µs
    Field l; // C: label id; L: label text
    Field i; // S/P/E: measurement id

    // X: `d` is a one-key object, type name -> payload.
    bool hasD = false;
    bool dIsObject = true;
    std::string metaType;
    Field metaValue; // Unsigned or String payloads
    std::string metaJson; // every payload as compact JSON text

    void clear()
    {
        kindKey.clear();
        keyCount = 0;
        isObject = true;
        bodyIsObject = true;
        foundText.clear();
        p.clear();
        t.clear();
        l.clear();
        i.clear();
        hasD = false;
        dIsObject = true;
        metaType.clear();
        metaValue.clear();
        metaJson.clear();
    }
};

} // namespace runlane
