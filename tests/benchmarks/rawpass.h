#pragma once

// The yardstick of issue 45: what a simple program spends on a Chrome trace
// with simdjson alone. One thread reads the file into memory in blocks of a
// MiB (a .json.gz is inflated with zlib as it is read, block by block),
// then simdjson's On Demand API walks the event array and touches every
// field of every event: each key is read (unescaped), each value taken as
// its own type (numbers as double, strings, booleans, null; objects and
// arrays such as "args" walked the same way). Nothing is built; the counts
// and the sum of the timestamps keep the compiler from dropping the work.
//
// Runlane's load does all of that and builds the model too, on two
// threads; its ratio to this pass (wall time) is what the targets
// are stated in.

#include <simdjson.h>
#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runlane::bench {

struct RawPass {
    std::uint64_t events = 0;
    std::uint64_t keys = 0;
    std::uint64_t values = 0;
    std::uint64_t stringBytes = 0;
    double timestampSum = 0;
    std::size_t textBytes = 0;
    double readSeconds = 0; // reading (and inflating) the file
    double parseSeconds = 0; // the On Demand walk
    bool ok = false;
};

namespace rawpass {

namespace od = simdjson::ondemand;

// One value of any type, walked whole: an object's keys and values, an
// array's elements, a scalar taken as its type.
inline bool touch(simdjson::simdjson_result<od::value> result, RawPass& pass, int depth)
{
    od::value value;
    od::json_type type;
    if (depth > 256 || result.get(value) || value.type().get(type))
        return false;
    ++pass.values;
    if (type == od::json_type::object) {
        for (auto field : value.get_object()) {
            std::string_view key;
            if (field.unescaped_key().get(key) || !touch(field.value(), pass, depth + 1))
                return false;
            ++pass.keys;
        }
        return true;
    }
    if (type == od::json_type::array) {
        for (auto element : value.get_array()) {
            if (!touch(element, pass, depth + 1))
                return false;
        }
        return true;
    }
    double number = 0;
    std::string_view text;
    bool flag = false;
    switch (type) {
    case od::json_type::number:
        return !value.get_double().get(number);
    case od::json_type::string:
        if (value.get_string().get(text))
            return false;
        pass.stringBytes += text.size();
        return true;
    case od::json_type::boolean:
        return !value.get_bool().get(flag);
    case od::json_type::null:
        return !value.is_null().get(flag) && flag;
    default:
        return false;
    }
}

inline bool events(od::array array, RawPass& pass)
{
    for (auto element : array) {
        od::object event;
        if (element.get_object().get(event))
            return false;
        ++pass.events;
        for (auto field : event) {
            std::string_view key;
            od::value value;
            if (field.unescaped_key().get(key) || field.value().get(value))
                return false;
            ++pass.keys;
            if (key == "ts") {
                double ts = 0;
                if (value.get_double().get(ts))
                    return false;
                pass.timestampSum += ts;
                ++pass.values;
            } else if (!touch(std::move(value), pass, 1)) {
                return false;
            }
        }
    }
    return true;
}

// The whole file in memory, inflated if it is gzip-compressed, with
// simdjson's padding after it.
inline bool readAll(const std::string& path, std::vector<char>& text)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
        return false;
    struct stat st {};
    fstat(fd, &st);
    constexpr std::size_t kBlock = 1 << 20;
    std::vector<unsigned char> block(kBlock);
    std::size_t size = 0;
    ssize_t got = ::read(fd, block.data(), kBlock);
    const bool gzip = got >= 2 && block[0] == 0x1f && block[1] == 0x8b;
    if (!gzip) {
        text.resize(std::size_t(st.st_size) + simdjson::SIMDJSON_PADDING);
        while (got > 0) {
            if (size + std::size_t(got) + simdjson::SIMDJSON_PADDING > text.size())
                text.resize((size + std::size_t(got)) * 2 + simdjson::SIMDJSON_PADDING);
            std::memcpy(text.data() + size, block.data(), std::size_t(got));
            size += std::size_t(got);
            got = ::read(fd, block.data(), kBlock);
        }
    } else {
        // The trailer's ISIZE sizes the text (mod 4 GiB: grown if it is short).
        std::uint32_t isize = 0;
        unsigned char tail[4];
        if (::pread(fd, tail, 4, st.st_size - 4) == 4)
            isize = std::uint32_t(tail[0]) | std::uint32_t(tail[1]) << 8 | std::uint32_t(tail[2]) << 16
                | std::uint32_t(tail[3]) << 24;
        text.resize(std::size_t(isize) + simdjson::SIMDJSON_PADDING);
        z_stream z{};
        if (inflateInit2(&z, 15 + 32) != Z_OK) {
            ::close(fd);
            return false;
        }
        int rc = Z_OK;
        while (got > 0 && rc != Z_STREAM_END) {
            z.next_in = block.data();
            z.avail_in = unsigned(got);
            while (z.avail_in > 0) {
                if (text.size() - size < kBlock + simdjson::SIMDJSON_PADDING)
                    text.resize(text.size() * 2 + kBlock + simdjson::SIMDJSON_PADDING);
                z.next_out = reinterpret_cast<unsigned char*>(text.data() + size);
                z.avail_out = unsigned(kBlock);
                rc = inflate(&z, Z_NO_FLUSH);
                size += kBlock - z.avail_out;
                if (rc == Z_STREAM_END)
                    break;
                if (rc != Z_OK) {
                    inflateEnd(&z);
                    ::close(fd);
                    return false;
                }
            }
            if (rc != Z_STREAM_END)
                got = ::read(fd, block.data(), kBlock);
        }
        inflateEnd(&z);
    }
    ::close(fd);
    text.resize(size + simdjson::SIMDJSON_PADDING);
    text.resize(size); // the padding stays allocated past size()
    return true;
}

} // namespace rawpass

namespace rawpass {

// One document in [data, data + size), readable up to data + capacity: a
// Chrome trace, bare array or object form.
inline bool walk(simdjson::ondemand::parser& parser, char* data, std::size_t size, std::size_t capacity, RawPass& pass)
{
    simdjson::ondemand::document doc;
    if (parser.iterate(data, size, capacity).get(doc))
        return false;
    simdjson::ondemand::json_type type;
    if (doc.type().get(type))
        return false;
    if (type == simdjson::ondemand::json_type::array) {
        simdjson::ondemand::array array;
        return !doc.get_array().get(array) && events(array, pass);
    }
    simdjson::ondemand::object object;
    if (doc.get_object().get(object))
        return false;
    for (auto field : object) {
        std::string_view key;
        simdjson::ondemand::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return false;
        ++pass.keys;
        simdjson::ondemand::array array;
        if (key == "traceEvents" ? value.get_array().get(array) || !events(array, pass)
                                 : !touch(std::move(value), pass, 1))
            return false;
    }
    return true;
}

// The file as one document or, as simdjson takes none of 4 GiB or more,
// in pieces (issue 45's 50 M events, 5.3 GB): of at most kPiece bytes (2
// GiB: the parser indexes 4 bytes per byte of a document), cut between two
// events written one per line (",\n{", as the generator and DevTools write
// them), in place: a piece's "," and newline become the array's and
// object's close ("]}", or "] " for a bare array), and the next piece gets
// the file's opening ('{"traceEvents":[' or '[') written over the end of
// the piece before it, once that is walked. Each piece re-reads only that
// opening, which must be short (64 bytes) so that the pass does no more
// work than over one document; anything else fails as before.
inline constexpr std::size_t kPiece = std::size_t(2) << 30;

inline bool walkInPieces(std::vector<char>& text, RawPass& pass, std::size_t piece = kPiece)
{
    const std::string_view all(text.data(), text.size());
    const std::size_t open = all.find('[');
    const std::string opening(all.substr(0, open == std::string_view::npos ? 0 : open + 1));
    const bool bare = all.find_first_not_of(" \t\r\n") == open;
    simdjson::ondemand::parser parser;
    std::size_t begin = 0; // of the piece, its opening included
    for (bool first = true;; first = false) {
        if (!first)
            std::memcpy(text.data() + begin, opening.data(), opening.size());
        const std::size_t rest = text.size() - begin;
        if (rest <= piece) {
            if (!walk(parser, text.data() + begin, rest, text.capacity() - begin, pass))
                return false;
            break;
        }
        // The last ",\n{" before the piece's limit, after a short opening.
        if (opening.empty() || opening.size() > 64)
            return false;
        const std::size_t cut = all.rfind(",\n{", begin + piece - 2);
        if (cut == std::string_view::npos || cut <= begin + opening.size())
            return false;
        text[cut] = ']';
        text[cut + 1] = bare ? ' ' : '}';
        if (!walk(parser, text.data() + begin, cut + 2 - begin, text.capacity() - begin, pass))
            return false;
        if (!bare && !first)
            --pass.keys; // "traceEvents" once, as in one document
        begin = cut + 2 - opening.size();
    }
    if (!bare && begin > 0)
        --pass.keys;
    return true;
}

} // namespace rawpass

// One raw pass over `path` (a Chrome trace, bare array or object form).
inline RawPass rawPass(const std::string& path)
{
    RawPass pass;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::vector<char> text;
    if (!rawpass::readAll(path, text))
        return pass;
    const auto read = Clock::now();
    pass.textBytes = text.size();
    pass.ok = rawpass::walkInPieces(text, pass);
    pass.readSeconds = std::chrono::duration<double>(read - start).count();
    pass.parseSeconds = std::chrono::duration<double>(Clock::now() - read).count();
    return pass;
}

} // namespace runlane::bench
