#pragma once

#include "pproffile.h"
#include "protowirereader.h"

#include <string_view>

namespace runlane {

// profile.proto's messages from their wire format into a PprofFile. Fields
// come in any order and repeated integers packed or not, as the spec allows;
// unknown fields are skipped (newer writers add some), but a known field
// with the wrong wire type is a FormatError, as is anything malformed.
// References are left for PprofBuilder to resolve.
class PprofDecoder
{
public:
    // `bytes` must outlive the result: its strings point into them.
    static PprofFile decode(std::string_view bytes);

private:
    explicit PprofDecoder(PprofFile& file) : m_file(file) { }
    void profile(ProtoWireReader reader);
    PprofFile::ValueType valueType(ProtoWireReader reader);
    void sample(ProtoWireReader reader, std::int64_t offset);
    PprofFile::Label label(ProtoWireReader reader);
    void location(ProtoWireReader reader, std::int64_t offset);
    void function(ProtoWireReader reader, std::int64_t offset);
    void mapping(ProtoWireReader reader, std::int64_t offset);

    PprofFile& m_file;
    // Scratch for a repeated integer field.
    std::vector<std::uint64_t> m_ints;
};

} // namespace runlane
