#include "pprofdecoder.h"

#include "loaderror.h"

#include <limits>

namespace runlane {

namespace {

using WireType = ProtoWireReader::WireType;

// "Profile.sample (field 2): wire type varint, expected length-delimited"
[[noreturn]] void wrongType(const ProtoWireReader& r, const char* field, const char* expected)
{
    throw FormatError(std::string(field) + " (field " + std::to_string(r.field()) + "): wire type "
                          + ProtoWireReader::wireTypeName(r.wireType()) + ", expected " + expected,
                      -1, r.fieldOffset());
}

void expect(const ProtoWireReader& r, WireType type, const char* field)
{
    if (r.wireType() != type)
        wrongType(r, field, ProtoWireReader::wireTypeName(type));
}

// A repeated integer: one varint, or a packed list of them.
void expectInts(const ProtoWireReader& r, const char* field)
{
    if (r.wireType() != WireType::Varint && r.wireType() != WireType::Len)
        wrongType(r, field, "varint or packed (length-delimited)");
}

// Flattened lists are indexed with 32 bits: every entry takes at least a
// byte of input, and the reader takes at most 1 GiB (PprofFormat).
std::uint32_t index(std::size_t size)
{
    if (size > std::numeric_limits<std::uint32_t>::max())
        throw FormatError("the profile has more than 2^32 entries of one kind");
    return std::uint32_t(size);
}

} // namespace

PprofFile PprofDecoder::decode(std::string_view bytes)
{
    PprofFile file;
    PprofDecoder decoder(file);
    decoder.profile(ProtoWireReader(bytes));
    return file;
}

void PprofDecoder::profile(ProtoWireReader r)
{
    while (r.next()) {
        switch (r.field()) {
        case 1:
            expect(r, WireType::Len, "Profile.sample_type");
            if (m_file.sampleTypes.empty())
                m_file.sampleTypesOffset = r.fieldOffset();
            m_file.sampleTypes.push_back(valueType(r.message()));
            break;
        case 2:
            expect(r, WireType::Len, "Profile.sample");
            sample(r.message(), r.fieldOffset());
            break;
        case 3:
            expect(r, WireType::Len, "Profile.mapping");
            mapping(r.message(), r.fieldOffset());
            break;
        case 4:
            expect(r, WireType::Len, "Profile.location");
            location(r.message(), r.fieldOffset());
            break;
        case 5:
            expect(r, WireType::Len, "Profile.function");
            function(r.message(), r.fieldOffset());
            break;
        case 6:
            expect(r, WireType::Len, "Profile.string_table");
            m_file.strings.push_back(r.payload());
            break;
        case 7:
            expect(r, WireType::Varint, "Profile.drop_frames");
            break;
        case 8:
            expect(r, WireType::Varint, "Profile.keep_frames");
            break;
        case 9:
            expect(r, WireType::Varint, "Profile.time_nanos");
            break;
        case 10:
            expect(r, WireType::Varint, "Profile.duration_nanos");
            break;
        case 11:
            expect(r, WireType::Len, "Profile.period_type");
            valueType(r.message());
            break;
        case 12:
            expect(r, WireType::Varint, "Profile.period");
            break;
        case 13:
            expectInts(r, "Profile.comment");
            break;
        case 14:
            expect(r, WireType::Varint, "Profile.default_sample_type");
            m_file.defaultSampleType = r.signedValue();
            m_file.defaultSampleTypeOffset = r.fieldOffset();
            break;
        default:
            break; // tick_unit, label_set, and whatever comes after them
        }
    }
}

PprofFile::ValueType PprofDecoder::valueType(ProtoWireReader r)
{
    PprofFile::ValueType type;
    while (r.next()) {
        if (r.field() == 1 || r.field() == 2) {
            expect(r, WireType::Varint, r.field() == 1 ? "ValueType.type" : "ValueType.unit");
            (r.field() == 1 ? type.type : type.unit) = r.signedValue();
        }
    }
    return type;
}

void PprofDecoder::sample(ProtoWireReader r, std::int64_t offset)
{
    PprofFile::Sample s;
    s.offset = offset;
    s.firstLocation = index(m_file.locationIds.size());
    s.firstValue = index(m_file.values.size());
    s.firstLabel = index(m_file.labels.size());
    while (r.next()) {
        switch (r.field()) {
        case 1:
            expectInts(r, "Sample.location_id");
            r.appendVarints(m_file.locationIds);
            break;
        case 2:
            expectInts(r, "Sample.value");
            m_ints.clear();
            r.appendVarints(m_ints);
            for (const std::uint64_t v : m_ints)
                m_file.values.push_back(std::int64_t(v));
            break;
        case 3:
            expect(r, WireType::Len, "Sample.label");
            m_file.labels.push_back(label(r.message()));
            break;
        default:
            break; // breakdown
        }
    }
    s.locationCount = index(m_file.locationIds.size() - s.firstLocation);
    s.valueCount = index(m_file.values.size() - s.firstValue);
    s.labelCount = index(m_file.labels.size() - s.firstLabel);
    m_file.samples.push_back(s);
}

PprofFile::Label PprofDecoder::label(ProtoWireReader r)
{
    PprofFile::Label l;
    while (r.next()) {
        static const char* const names[] = {"Label.key", "Label.str", "Label.num", "Label.num_unit"};
        if (r.field() >= 1 && r.field() <= 4)
            expect(r, WireType::Varint, names[r.field() - 1]);
        if (r.field() == 1)
            l.key = r.signedValue();
        else if (r.field() == 2)
            l.str = r.signedValue();
    }
    return l;
}

void PprofDecoder::location(ProtoWireReader r, std::int64_t offset)
{
    PprofFile::Location l;
    l.offset = offset;
    l.firstLine = index(m_file.lines.size());
    while (r.next()) {
        switch (r.field()) {
        case 1:
        case 2:
        case 3:
        case 5: {
            static const char* const names[] = {"Location.id", "Location.mapping_id", "Location.address", "",
                                                "Location.is_folded"};
            expect(r, WireType::Varint, names[r.field() - 1]);
            if (r.field() == 1)
                l.id = r.value();
            else if (r.field() == 2)
                l.mapping = r.value();
            else if (r.field() == 3)
                l.address = r.value();
            break;
        }
        case 4: {
            expect(r, WireType::Len, "Location.line");
            ProtoWireReader line = r.message();
            PprofFile::Line entry;
            while (line.next()) {
                static const char* const names[] = {"Line.function_id", "Line.line", "Line.column"};
                if (line.field() >= 1 && line.field() <= 3)
                    expect(line, WireType::Varint, names[line.field() - 1]);
                if (line.field() == 1)
                    entry.function = line.value();
                else if (line.field() == 2)
                    entry.line = line.signedValue();
            }
            m_file.lines.push_back(entry);
            break;
        }
        default:
            break;
        }
    }
    l.lineCount = index(m_file.lines.size() - l.firstLine);
    m_file.locations.push_back(l);
}

void PprofDecoder::function(ProtoWireReader r, std::int64_t offset)
{
    PprofFile::Function f;
    f.offset = offset;
    while (r.next()) {
        if (r.field() < 1 || r.field() > 5)
            continue;
        static const char* const names[] = {"Function.id", "Function.name", "Function.system_name",
                                            "Function.filename", "Function.start_line"};
        expect(r, WireType::Varint, names[r.field() - 1]);
        switch (r.field()) {
        case 1:
            f.id = r.value();
            break;
        case 2:
            f.name = r.signedValue();
            break;
        case 3:
            f.systemName = r.signedValue();
            break;
        case 4:
            f.filename = r.signedValue();
            break;
        default:
            f.startLine = r.signedValue();
            break;
        }
    }
    m_file.functions.push_back(f);
}

void PprofDecoder::mapping(ProtoWireReader r, std::int64_t offset)
{
    PprofFile::Mapping m;
    m.offset = offset;
    while (r.next()) {
        if (r.field() < 1 || r.field() > 10)
            continue;
        static const char* const names[] = {
            "Mapping.id",       "Mapping.memory_start",  "Mapping.memory_limit",  "Mapping.file_offset",
            "Mapping.filename", "Mapping.build_id",      "Mapping.has_functions", "Mapping.has_filenames",
            "Mapping.has_line_numbers", "Mapping.has_inline_frames"};
        expect(r, WireType::Varint, names[r.field() - 1]);
        if (r.field() == 1)
            m.id = r.value();
        else if (r.field() == 5)
            m.filename = r.signedValue();
    }
    m_file.mappings.push_back(m);
}

} // namespace runlane
