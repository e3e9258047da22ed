#include "perfettoannotations.h"

#include "perfettofield.h"
#include "profilebuilder.h"
#include "protowirereader.h"

#include <bit>
#include <cstdio>

namespace runlane {

namespace {

constexpr const char* kWhat = "DebugAnnotation";

void quote(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
            out += escaped;
        } else {
            out += c;
        }
    }
    out += '"';
}

std::string_view interned(const PerfettoAnnotations::Interned& table, std::uint64_t iid, const ProfileBuilder& builder)
{
    const auto found = table.find(iid);
    return found != table.end() ? builder.string(found->second) : std::string_view("?");
}

} // namespace

std::string PerfettoAnnotations::json(const std::vector<ProtoWireReader>& annotations, const Interned& names,
                                      const Interned& strings, const ProfileBuilder& builder)
{
    std::string out = "{";
    for (const ProtoWireReader& annotation : annotations) {
        std::string name;
        std::string value = "null";
        for (ProtoWireReader r = annotation.message(); r.next();) {
            switch (r.field()) {
            case 1:
                name = interned(names, PerfettoField::varint(r, kWhat), builder);
                break;
            case 10:
                name = PerfettoField::bytes(r, kWhat);
                break;
            case 2:
                value = PerfettoField::varint(r, kWhat) != 0 ? "true" : "false";
                break;
            case 3:
                value = std::to_string(PerfettoField::varint(r, kWhat));
                break;
            case 4:
                value = std::to_string(std::int64_t(PerfettoField::varint(r, kWhat)));
                break;
            case 5: {
                char number[32];
                std::snprintf(number, sizeof number, "%.17g", PerfettoField::number(r, kWhat));
                value = number;
                break;
            }
            case 7: {
                char pointer[32];
                std::snprintf(pointer, sizeof pointer, "\"0x%llx\"",
                              static_cast<unsigned long long>(PerfettoField::varint(r, kWhat)));
                value = pointer;
                break;
            }
            case 6:
                value.clear();
                quote(value, PerfettoField::bytes(r, kWhat));
                break;
            case 17:
                value.clear();
                quote(value, interned(strings, PerfettoField::varint(r, kWhat), builder));
                break;
            case 9: // already JSON, as the writer gave it
                value = PerfettoField::bytes(r, kWhat);
                if (value.empty())
                    value = "null";
                break;
            case 8: // nested_value, dict_entries, array_values
            case 11:
            case 12:
                value = "\"…\"";
                break;
            default:
                break;
            }
        }
        // Runlane's own notes rebuild its tasks (PerfettoTaskNotes): they
        // are no arguments of the slice they ride on.
        if (name.starts_with("runlane."))
            continue;
        if (out.size() > 1)
            out += ", ";
        quote(out, name);
        out += ": ";
        out += value;
    }
    out += '}';
    return out;
}

} // namespace runlane
