#pragma once

// A profile.proto Profile written by hand for the pprof tests, from sample
// types, functions, locations and samples, its string table last (as Go
// writes it). Independent of the reader under test.

#include "core/formats/common/protoencoder.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace runlane::test {

class ProfileEncoder
{
public:
    struct Line {
        std::uint64_t function = 0;
        std::int64_t line = 0;
    };
    struct Label {
        std::string key;
        std::string str;
    };

    std::int64_t s(const std::string& text)
    {
        const auto [it, added] = m_index.emplace(text, std::int64_t(m_strings.size()));
        if (added)
            m_strings.push_back(text);
        return it->second;
    }
    ProfileEncoder& sampleType(const std::string& type, const std::string& unit)
    {
        m_body.message(1, ProtoEncoder().int64(1, s(type)).int64(2, s(unit)));
        return *this;
    }
    ProfileEncoder& defaultSampleType(const std::string& type)
    {
        m_body.int64(14, s(type));
        return *this;
    }
    ProfileEncoder& function(std::uint64_t id, const std::string& name, const std::string& file = {},
                             std::int64_t startLine = 0)
    {
        m_body.message(5, ProtoEncoder().varint(1, id).int64(2, s(name)).int64(4, s(file)).int64(5, startLine));
        return *this;
    }
    ProfileEncoder& mapping(std::uint64_t id, const std::string& file)
    {
        m_body.message(3, ProtoEncoder().varint(1, id).varint(2, 0x400000).varint(3, 0x500000).int64(5, s(file)));
        return *this;
    }
    ProfileEncoder& location(std::uint64_t id, const std::vector<Line>& lines, std::uint64_t mapping = 0,
                             std::uint64_t address = 0)
    {
        ProtoEncoder l;
        l.varint(1, id);
        if (mapping)
            l.varint(2, mapping);
        if (address)
            l.varint(3, address);
        for (const Line& line : lines)
            l.message(4, ProtoEncoder().varint(1, line.function).int64(2, line.line));
        m_body.message(4, l);
        return *this;
    }
    ProfileEncoder& sample(const std::vector<std::int64_t>& locations, const std::vector<std::int64_t>& values,
                           const std::vector<Label>& labels = {}, bool packed = true)
    {
        ProtoEncoder sm;
        sm.repeated(1, locations, packed).repeated(2, values, packed);
        for (const Label& label : labels)
            sm.message(3, ProtoEncoder().int64(1, s(label.key)).int64(2, s(label.str)));
        m_body.message(2, sm);
        return *this;
    }
    ProtoEncoder& body() { return m_body; }
    // The profile: what was added, then the string table.
    QByteArray bytes() const
    {
        ProtoEncoder out;
        out.raw(m_body.data());
        for (const std::string& text : m_strings)
            out.bytes(6, QByteArray::fromStdString(text));
        return out.data();
    }

private:
    ProtoEncoder m_body;
    std::vector<std::string> m_strings{""};
    std::map<std::string, std::int64_t> m_index{{"", 0}};
};

} // namespace runlane::test
