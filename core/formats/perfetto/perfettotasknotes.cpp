#include "perfettotasknotes.h"

#include "perfettofield.h"
#include "profilebuilder.h"
#include "protowirereader.h"

namespace runlane {

namespace {

// Named apart from perfettoannotations.cpp's: one unity batch may hold both.
constexpr const char* kNoteMessage = "DebugAnnotation";

std::string_view internedText(const PerfettoAnnotations::Interned& table, std::uint64_t iid,
                              const ProfileBuilder& builder)
{
    const auto found = table.find(iid);
    return found != table.end() ? builder.string(found->second) : std::string_view();
}

} // namespace

PerfettoTaskNotes PerfettoTaskNotes::read(const std::vector<ProtoWireReader>& annotations,
                                          const PerfettoAnnotations::Interned& names,
                                          const PerfettoAnnotations::Interned& strings, const ProfileBuilder& builder)
{
    PerfettoTaskNotes notes;
    bool hasCreated = false;
    bool hasFinished = false;
    bool hasState = false;
    for (const ProtoWireReader& annotation : annotations) {
        std::string_view name;
        std::uint64_t number = 0;
        std::string_view text;
        for (ProtoWireReader r = annotation.message(); r.next();) {
            switch (r.field()) {
            case 1:
                name = internedText(names, PerfettoField::varint(r, kNoteMessage), builder);
                break;
            case 10:
                name = PerfettoField::bytes(r, kNoteMessage);
                break;
            case 3: // uint_value, int_value
            case 4:
                number = PerfettoField::varint(r, kNoteMessage);
                break;
            case 6:
                text = PerfettoField::bytes(r, kNoteMessage);
                break;
            case 17:
                text = internedText(strings, PerfettoField::varint(r, kNoteMessage), builder);
                break;
            default:
                break;
            }
        }
        if (!name.starts_with("runlane."))
            continue;
        hasCreated = hasCreated || name == kNames[Created];
        hasFinished = hasFinished || name == kNames[Finished];
        if (name == kNames[Task])
            notes.task = number;
        else if (name == kNames[Created])
            notes.created = Time(number);
        else if (name == kNames[Finished])
            notes.finished = Time(number);
        else if (name == kNames[State])
            hasState = parseFinalState(text, notes.state);
        else if (name == kNames[Creator])
            notes.creator = number;
        else if (name == kNames[CreatorFlow])
            notes.creatorFlow = number;
        else if (name == kNames[Flags])
            notes.flags = std::uint8_t(number);
        else if (name == kNames[Wake])
            notes.wake = number;
        else if (name == kNames[WakeFlags])
            notes.wakeFlags = std::uint8_t(number);
    }
    notes.described = notes.task != 0 && hasCreated && hasFinished && hasState;
    return notes;
}

} // namespace runlane
