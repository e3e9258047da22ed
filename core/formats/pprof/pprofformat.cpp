#include "pprofformat.h"

#include "chunkedfilereader.h"
#include "loaderror.h"
#include "pprofbuilder.h"
#include "pprofdecoder.h"
#include "protowirereader.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace runlane {

namespace {

using WireType = ProtoWireReader::WireType;

// The wire type of each field of Profile (1 to 16); 13 (comment) may be
// packed too.
constexpr WireType kProfileFields[] = {
    WireType::Len,    WireType::Len,    WireType::Len,    WireType::Len,    WireType::Len,    WireType::Len,
    WireType::Varint, WireType::Varint, WireType::Varint, WireType::Varint, WireType::Len,    WireType::Varint,
    WireType::Varint, WireType::Varint, WireType::Varint, WireType::Len,
};

bool isMessage(std::uint32_t field)
{
    return field <= 5 || field == 11 || field == 16;
}

// Whether a nested message is well-formed; a ValueType (sample_type,
// period_type) holds only varints.
bool wellFormed(const ProtoWireReader& field)
{
    ProtoWireReader r = field.message();
    const bool valueType = field.field() == 1 || field.field() == 11;
    while (r.next()) {
        if (valueType && r.wireType() != WireType::Varint)
            return false;
    }
    return true;
}

// A prefix of a Profile message: every field one of Profile's with its wire
// type, the messages among them well-formed, string_table[0] "" as the spec
// requires. Random bytes fail this within a few fields, text at its first
// bytes ('{' and '[' are wire types 3, letters mostly wrong types). A
// prefix may end inside a field: what came before it counts.
bool looksLikeProfile(const FormatPrefix& prefix)
{
    ProtoWireReader r(prefix.bytes());
    int fields = 0;
    bool sawTypes = false;
    bool sawStrings = false;
    try {
        while (r.next()) {
            const std::uint32_t f = r.field();
            if (f > std::size(kProfileFields))
                return false;
            const WireType expected = kProfileFields[f - 1];
            if (r.wireType() != expected && !(f == 13 && r.wireType() == WireType::Len))
                return false;
            if (r.wireType() == WireType::Len && isMessage(f) && !wellFormed(r))
                return false;
            if (f == 6 && !sawStrings) {
                if (!r.payload().empty())
                    return false;
                sawStrings = true;
            }
            sawTypes = sawTypes || f == 1 || f == 2;
            ++fields;
        }
    } catch (const FormatError&) {
        if (prefix.complete() || !r.ranOut())
            return false;
    }
    // A whole profile has its string table; a cut one may have it later.
    return fields >= 2 && sawTypes && (sawStrings || !prefix.complete());
}

} // namespace

std::string_view PprofFormat::id() const
{
    return "pprof";
}

std::string_view PprofFormat::name() const
{
    return "pprof";
}

std::vector<std::string_view> PprofFormat::fileNamePatterns() const
{
    return {"*.pb.gz", "*.pb", "*.pprof", "*.prof"};
}

InputFormat::Probe PprofFormat::probe(const FormatPrefix& prefix) const
{
    return looksLikeProfile(prefix) ? Probe::mine(0) : Probe::notMine();
}

// The input in memory, its decoded tables, and the call trees.
double PprofFormat::memoryPerInputByte() const
{
    return 16.0;
}

bool PprofFormat::isJson() const
{
    return false;
}

bool PprofFormat::isBinary() const
{
    return true;
}

void PprofFormat::read(ChunkedFileReader& input, ProfileBuilder& builder) const
{
    // Protobuf has no framing to stream by, and the string table may come
    // last: the whole message is read first.
    std::string bytes;
    if (input.size() > 0)
        bytes.reserve(std::size_t(std::min<std::int64_t>(input.size(), std::int64_t(kMaxInput))));
    for (int c = input.get(); c >= 0; c = input.get()) {
        if (bytes.size() >= kMaxInput)
            throw FormatError("the profile is larger than 1 GiB (decompressed); Runlane reads pprof profiles up to "
                              "1 GiB",
                              -1, std::int64_t(kMaxInput));
        bytes.push_back(char(c));
    }
    if (input.failed())
        return; // the loader reports the read error
    const PprofFile file = PprofDecoder::decode(bytes);
    PprofBuilder(file, builder, input.control().variant, bytes.size()).build();
}

} // namespace runlane
