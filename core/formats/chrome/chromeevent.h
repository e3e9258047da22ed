#pragma once

#include "profiletypes.h"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runlane {

// One Chrome trace event as the tokenizer hands it to ChromeTraceBuilder:
// typed fields, no JSON left. Everything the format logic needs is here, so a
// faster tokenizer only has to fill this struct the same way. The strings are
// reused from event to event, so filling it allocates nothing once warm.
// The texts nearly every event sets (ph, name, cat, the numeric args' keys,
// what a time or id was written as) are views, valid while the sink looks
// at the event: into the tokenizer's text where they lie there unescaped,
// or into its TextArena (ChromeEventFiller). Copying them into strings of
// the event was a tenth of the fast tokenizer's time.
struct ChromeEvent {
    // Names of the events whose `args.data` holds V8 CPU profile samples.
    static bool isProfileName(std::string_view name)
    {
        return name == "ProfileChunk" || name == "Profile" || name == "CpuProfile";
    }

    // True for the categories of Node's async_hooks events
    // ("node,node.async_hooks": a comma-separated list).
    static bool isAsyncHooksCategory(std::string_view category)
    {
        while (!category.empty()) {
            const std::size_t comma = category.find(',');
            if (category.substr(0, comma) == "node.async_hooks")
                return true;
            if (comma == std::string_view::npos)
                break;
            category.remove_prefix(comma + 1);
        }
        return false;
    }
    // A field that the file may give as a number or as a string.
    struct Value {
        enum Kind : std::uint8_t { Absent, Number, String, Invalid };
        Kind kind = Absent;
        std::int64_t number = 0;
        std::string_view text; // String: the text; Invalid: a description of what was found
        // A String read as a hexadecimal number, with or without "0x", as
        // Perfetto reads string ids ("0x402", "402"); nullopt if it is not one.
        std::optional<std::uint64_t> hexNumber() const
        {
            std::string_view digits = text;
            if (kind != String)
                return std::nullopt;
            if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
                digits.remove_prefix(2);
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
            if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
                return std::nullopt;
            return value;
        }
        void clear()
        {
            kind = Absent;
            number = 0;
            text = {};
        }
    };
    // A time in microseconds in the file, converted exactly to nanoseconds.
    struct TimeValue {
        enum Kind : std::uint8_t { Absent, Ok, Invalid, OutOfRange };
        Kind kind = Absent;
        Time ns = 0;
        std::string_view text; // what was found, for error messages
        void clear()
        {
            kind = Absent;
            ns = 0;
            text = {};
        }
    };

    // Appends to `key` the id that names an async task or a flow, with its
    // scope: id2.local (within process `pid`), id2.global, or id, each
    // written by `text`. False, and nothing appended, if it has none.
    template<typename Text>
    bool appendScopedId(std::string& key, std::int64_t pid, Text&& text) const
    {
        auto present = [](const Value& v) { return v.kind == Value::Number || v.kind == Value::String; };
        if (present(id2Local))
            key += "local:" + std::to_string(pid) + ":" + text(id2Local);
        else if (present(id2Global))
            key += "global:" + text(id2Global);
        else if (present(id))
            key += "id:" + text(id);
        else
            return false;
        return true;
    }

    // The fields nearly every event sets come first, and only they are
    // cleared for each event: the rest are cleared only when the filler
    // set one of them (`hasCold`). A whole event is 15 cache lines, and
    // clearing them all, for each of a million events, was a third of
    // filling them. Readers look at `hasCold` before any field below
    // `numericArgs` too: the event was filled on the other core, and each
    // line read is a wait for it to come over.
    bool isObject = true; // false: the array element was not an object
    bool empty = true; // `{}`: no keys at all
    bool hasPh = false;
    bool phIsString = true;
    bool hasName = false;
    bool hasCold = false; // a field below `numericArgs` is set
    std::string_view ph;
    std::string_view name;
    std::uint64_t nameHash = 0; // hashText(name), computed by the tokenizer
    std::string_view cat;
    TimeValue ts;
    TimeValue dur;
    Value pid;
    Value tid;
    // Numeric top-level args, the series of a `C` counter event.
    std::size_t numericArgCount = 0;
    std::vector<std::pair<std::string_view, double>> numericArgs;

    // The fields few events set (ChromeEventFiller sets `hasCold` with them).
    std::string notObjectText; // what it was instead
    std::string scope;
    std::string instantScope; // `s`
    TimeValue tdur;
    Value id;
    Value id2Local;
    Value id2Global;
    // Flows: `bp` of a v1 `f` ("e": bind to the enclosing slice), and the
    // v2 fields of a slice (`bind_id` with `flow_in` / `flow_out`).
    std::string bp;
    Value bindId;
    bool flowIn = false;
    bool flowOut = false;
    // From `args`: the fields the format gives a meaning to.
    std::string argName; // M process_name / thread_name
    bool hasArgSortIndex = false;
    std::int64_t argSortIndex = 0; // M *_sort_index
    std::string argState; // final state of a task (Runlane's convert output)
    // A task's creator and trigger by their ids (Runlane's convert output,
    // for tasks whose creator is not derived from what ran): -1 if none.
    std::int64_t argCreator = -1;
    std::int64_t argTrigger = -1;
    // The thread (of its process) a task was created on, when that is not
    // its own: its creator is what ran there at its creation.
    bool hasArgCreatorTid = false;
    std::int64_t argCreatorTid = 0;
    // A wake of the task (Runlane's convert output): its Wake flags; -1 if none.
    std::int16_t argWake = -1;
    std::string argFile; // source position of a frame
    std::int64_t argLine = 0;
    // `args.data` as JSON text, kept for the events that carry V8 CPU
    // profile samples (Profile, ProfileChunk, CpuProfile) and read by the
    // builder; also kept when `args` comes before `name` (DevTools writes
    // keys in alphabetical order), the builder then ignoring it.
    bool hasArgData = false;
    std::string argData;

    void clear()
    {
        isObject = true;
        empty = true;
        hasPh = false;
        phIsString = true;
        hasName = false;
        ph = {};
        name = {};
        nameHash = 0;
        cat = {};
        ts.clear();
        dur.clear();
        pid.clear();
        tid.clear();
        numericArgCount = 0;
        if (hasCold)
            clearCold();
    }
    void clearCold()
    {
        hasCold = false;
        notObjectText.clear();
        scope.clear();
        instantScope.clear();
        tdur.clear();
        id.clear();
        id2Local.clear();
        id2Global.clear();
        bp.clear();
        bindId.clear();
        flowIn = false;
        flowOut = false;
        argName.clear();
        hasArgSortIndex = false;
        argSortIndex = 0;
        argState.clear();
        argCreator = -1;
        argTrigger = -1;
        hasArgCreatorTid = false;
        argCreatorTid = 0;
        argWake = -1;
        argFile.clear();
        argLine = 0;
        hasArgData = false;
        argData.clear();
    }
    void addNumericArg(std::string_view key, double value)
    {
        if (numericArgCount == numericArgs.size())
            numericArgs.emplace_back();
        numericArgs[numericArgCount].first = key;
        numericArgs[numericArgCount].second = value;
        ++numericArgCount;
    }
};

} // namespace runlane
