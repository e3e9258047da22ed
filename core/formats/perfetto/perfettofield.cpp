#include "perfettofield.h"

#include "loaderror.h"

#include <bit>
#include <string>

namespace runlane {

void PerfettoField::wrongType(const ProtoWireReader& r, const char* message, const char* expected)
{
    throw FormatError(std::string(message) + " field " + std::to_string(r.field()) + " is "
                          + ProtoWireReader::wireTypeName(r.wireType()) + ", not " + expected,
                      -1, r.fieldOffset());
}

std::uint64_t PerfettoField::varint(const ProtoWireReader& r, const char* message)
{
    if (r.wireType() != ProtoWireReader::WireType::Varint)
        wrongType(r, message, "a varint");
    return r.value();
}

std::string_view PerfettoField::bytes(const ProtoWireReader& r, const char* message)
{
    if (r.wireType() != ProtoWireReader::WireType::Len)
        wrongType(r, message, "length-delimited");
    return r.payload();
}

double PerfettoField::number(const ProtoWireReader& r, const char* message)
{
    if (r.wireType() == ProtoWireReader::WireType::Fixed64)
        return std::bit_cast<double>(r.value());
    if (r.wireType() == ProtoWireReader::WireType::Varint)
        return double(r.signedValue());
    wrongType(r, message, "a 64-bit number");
}

void PerfettoField::varints(const ProtoWireReader& r, const char* message, std::vector<std::uint64_t>& out)
{
    if (r.wireType() != ProtoWireReader::WireType::Varint && r.wireType() != ProtoWireReader::WireType::Len)
        wrongType(r, message, "a varint");
    r.appendVarints(out);
}

void PerfettoField::fixed64s(const ProtoWireReader& r, const char* message, std::vector<std::uint64_t>& out)
{
    if (r.wireType() == ProtoWireReader::WireType::Fixed64) {
        out.push_back(r.value());
        return;
    }
    if (r.wireType() != ProtoWireReader::WireType::Len)
        wrongType(r, message, "64-bit values");
    const std::string_view packed = r.payload();
    if (packed.size() % 8 != 0)
        throw FormatError(std::string(message) + " field " + std::to_string(r.field()) + ": packed 64-bit values of "
                              + std::to_string(packed.size()) + " bytes, not a multiple of 8",
                          -1, r.payloadOffset());
    for (std::size_t i = 0; i < packed.size(); i += 8) {
        std::uint64_t value = 0;
        for (std::size_t b = 0; b < 8; ++b) // little-endian
            value |= std::uint64_t(static_cast<unsigned char>(packed[i + b])) << (8 * b);
        out.push_back(value);
    }
}

} // namespace runlane
