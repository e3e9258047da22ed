#include "pprofbuilder.h"

#include "loaderror.h"
#include "samplestacklayout.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>

namespace runlane {

namespace {

bool isTimeUnit(std::string_view unit)
{
    return unit == "nanoseconds" || unit == "microseconds" || unit == "milliseconds" || unit == "seconds";
}

std::string baseName(std::string_view path)
{
    const std::size_t slash = path.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string list(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "none" : out;
}

// The label keys that name a sample's thread: pprof-rs writes "thread",
// Datadog's profilers "thread name".
bool isThreadKey(std::string_view key)
{
    return key == "thread" || key == "thread name";
}

} // namespace

PprofBuilder::PprofBuilder(const PprofFile& file, ProfileBuilder& builder, std::string_view variant,
                           std::size_t inputSize)
    : m_file(file), m_builder(builder), m_variant(variant),
      // A location id takes a byte at least and real stacks inline a few
      // functions per location: 16 frames a byte is far beyond any real
      // profile, and a bound on what a crafted one costs.
      m_frameBudget(std::uint64_t(inputSize) * 16 + (std::uint64_t(1) << 20))
{
}

std::string_view PprofBuilder::string(std::int64_t index, std::int64_t offset, const std::string& what) const
{
    if (index < 0 || std::uint64_t(index) >= m_file.strings.size())
        throw FormatError(what + ": string index " + std::to_string(index) + " is out of range (the string table has "
                              + std::to_string(m_file.strings.size()) + " strings)",
                          -1, offset);
    return m_file.strings[std::size_t(index)];
}

// The one asked for by name (or by its type alone); else the file's
// default_sample_type; else the first of time (a CPU profile's "cpu
// (nanoseconds)" rather than its "samples (count)"); else the first.
std::size_t PprofBuilder::chooseVariant(const std::vector<std::string>& names)
{
    const auto& types = m_file.sampleTypes;
    const std::int64_t at = m_file.sampleTypesOffset;
    if (!m_variant.empty()) {
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (names[i] == m_variant)
                return i;
        }
        for (std::size_t i = 0; i < types.size(); ++i) {
            if (string(types[i].type, at, "sample type") == m_variant)
                return i;
        }
        throw UnknownVariantError("no sample type '" + m_variant + "' in this profile; it has " + list(names), names, at);
    }
    if (m_file.defaultSampleType != 0) {
        const std::string_view wanted
            = string(m_file.defaultSampleType, m_file.defaultSampleTypeOffset, "Profile.default_sample_type");
        for (std::size_t i = 0; i < types.size(); ++i) {
            if (string(types[i].type, at, "sample type") == wanted)
                return i;
        }
        m_builder.diagnostics().warn("default sample type", "the default sample type '" + std::string(wanted)
                                                                + "' is none of the profile's sample types ("
                                                                + list(names) + ")");
    }
    for (std::size_t i = 0; i < types.size(); ++i) {
        const std::string_view type = string(types[i].type, at, "sample type");
        if (type == "cpu" || type == "time" || type == "wall" || isTimeUnit(string(types[i].unit, at, "sample unit")))
            return i;
    }
    return 0;
}

// Time in nanoseconds; bytes and counts in thousandths (kTicksPerUnit).
void PprofBuilder::setUnit(std::size_t variant)
{
    const std::string_view unit = string(m_file.sampleTypes[variant].unit, m_file.sampleTypesOffset, "sample unit");
    m_unit = ValueUnit::Samples;
    m_scale = kTicksPerUnit;
    if (isTimeUnit(unit)) {
        m_unit = ValueUnit::Nanoseconds;
        m_scale = unit == "nanoseconds" ? 1
            : unit == "microseconds"    ? 1000
            : unit == "milliseconds"    ? 1000000
                                        : 1000000000;
    } else if (unit == "bytes") {
        m_unit = ValueUnit::Bytes;
    }
    m_builder.setUnit(m_unit);
}

void PprofBuilder::indexIds()
{
    auto index = [](auto& map, std::uint64_t id, std::size_t i, std::int64_t offset, const char* what) {
        if (id == 0)
            throw FormatError(std::string(what) + " has id 0; ids must be nonzero", -1, offset);
        if (!map.emplace(id, std::uint32_t(i)).second)
            throw FormatError(std::string(what) + " id " + std::to_string(id) + " is defined twice", -1, offset);
    };
    for (std::size_t i = 0; i < m_file.locations.size(); ++i)
        index(m_locationById, m_file.locations[i].id, i, m_file.locations[i].offset, "a location");
    for (std::size_t i = 0; i < m_file.functions.size(); ++i)
        index(m_functionById, m_file.functions[i].id, i, m_file.functions[i].offset, "a function");
    for (std::size_t i = 0; i < m_file.mappings.size(); ++i)
        index(m_mappingById, m_file.mappings[i].id, i, m_file.mappings[i].offset, "a mapping");
    m_locationSpan.assign(m_file.locations.size(), {0, kNone});
}

void PprofBuilder::build()
{
    std::vector<std::string> names;
    for (const PprofFile::ValueType& t : m_file.sampleTypes)
        names.push_back(std::string(string(t.type, m_file.sampleTypesOffset, "sample type")) + " ("
                        + std::string(string(t.unit, m_file.sampleTypesOffset, "sample unit")) + ")");
    if (names.empty() && !m_variant.empty())
        throw UnknownVariantError("no sample type '" + m_variant + "' in this profile; it has none", {}, 0);
    if (names.empty() && !m_file.samples.empty())
        throw FormatError("the profile has samples but no sample types (Profile.sample_type)", -1,
                          m_file.samples.front().offset);
    m_builder.setHasNoTimestamps();
    if (!names.empty()) {
        m_valueIndex = chooseVariant(names);
        setUnit(m_valueIndex);
    }
    m_builder.setVariants(names, m_valueIndex);
    indexIds();
    for (std::size_t i = 0; i < m_file.samples.size(); ++i)
        addSample(m_file.samples[i], i);
    layOut();
}

void PprofBuilder::addSample(const PprofFile::Sample& sample, std::size_t number)
{
    // Named only when something is wrong: most profiles never need it.
    auto which = [number] { return "sample #" + std::to_string(number); };
    if (sample.valueCount != m_file.sampleTypes.size())
        throw FormatError(which() + " has " + std::to_string(sample.valueCount) + " values for "
                              + std::to_string(m_file.sampleTypes.size()) + " sample types",
                          -1, sample.offset);
    const std::int64_t value = m_file.values[sample.firstValue + m_valueIndex];
    if (value == 0)
        return; // nothing of this sample type: the sample is for another
    if (value < 0) {
        m_builder.diagnostics().warnWith("negative value", [&] {
            return which() + " has the negative value " + std::to_string(value) + "; skipped";
        });
        return;
    }
    Time weight = 0;
    if (__builtin_mul_overflow(value, m_scale, &weight))
        throw FormatError(which() + ": the value " + std::to_string(value) + " is out of range", -1, sample.offset);

    std::uint32_t node = m_tracks[trackOf(sample)].root;
    // location_id is leaf first: walk it from the root.
    for (std::uint32_t i = sample.locationCount; i-- > 0;) {
        const auto [first, count] = framesOf(m_file.locationIds[sample.firstLocation + i], sample);
        m_frames += count;
        if (m_frames > m_frameBudget)
            throw FormatError("the samples' stacks expand to more than " + std::to_string(m_frameBudget)
                                  + " frames (locations times inlined functions); no real profile of this size "
                                    "has that many",
                              -1, sample.offset);
        for (std::uint32_t f = count; f-- > 0;) // the caller is the last
            node = child(node, m_locationFrames[first + f]);
    }
    if (__builtin_add_overflow(m_nodes[node].self, weight, &m_nodes[node].self))
        throw FormatError("the sample values add up beyond range", -1, sample.offset);
}

std::uint32_t PprofBuilder::trackOf(const PprofFile::Sample& sample)
{
    for (std::uint32_t i = 0; i < sample.labelCount; ++i) {
        const PprofFile::Label& label = m_file.labels[sample.firstLabel + i];
        if (label.str == 0 || !isThreadKey(string(label.key, sample.offset, "a label's key")))
            continue;
        const std::string_view thread = string(label.str, sample.offset, "the thread label");
        const auto [it, added] = m_trackByThread.emplace(thread, std::uint32_t(m_tracks.size()));
        if (added) {
            m_tracks.push_back(Track{thread, std::uint32_t(m_nodes.size())});
            m_nodes.push_back(Node{});
        }
        return it->second;
    }
    if (m_unthreaded == kNone) {
        m_unthreaded = std::uint32_t(m_tracks.size());
        m_tracks.push_back(Track{{}, std::uint32_t(m_nodes.size())});
        m_nodes.push_back(Node{});
    }
    return m_unthreaded;
}

std::pair<std::uint32_t, std::uint32_t> PprofBuilder::framesOf(std::uint64_t locationId,
                                                              const PprofFile::Sample& sample)
{
    const auto found = m_locationById.find(locationId);
    if (found == m_locationById.end())
        throw FormatError("a sample names location id " + std::to_string(locationId) + ", which does not exist", -1,
                          sample.offset);
    auto& span = m_locationSpan[found->second];
    if (span.second != kNone)
        return span;
    const PprofFile::Location& location = m_file.locations[found->second];
    span.first = std::uint32_t(m_locationFrames.size());
    if (location.lineCount == 0)
        m_locationFrames.push_back(addressLabel(location));
    for (std::uint32_t i = 0; i < location.lineCount; ++i) {
        const PprofFile::Line& line = m_file.lines[location.firstLine + i];
        m_locationFrames.push_back(line.function == 0 ? addressLabel(location) : functionLabel(line, location));
    }
    span.second = std::uint32_t(m_locationFrames.size()) - span.first;
    return span;
}

// (function name, file, the function's first line). Not the line of the
// sample: a function would then be a row of the rank per line it was seen
// at, where pprof and every flame graph show it once.
LabelId PprofBuilder::functionLabel(const PprofFile::Line& line, const PprofFile::Location& location)
{
    const auto found = m_functionById.find(line.function);
    if (found == m_functionById.end())
        throw FormatError("location id " + std::to_string(location.id) + " names function id "
                              + std::to_string(line.function) + ", which does not exist",
                          -1, location.offset);
    const PprofFile::Function& f = m_file.functions[found->second];
    const std::string where = "function id " + std::to_string(f.id);
    std::string_view name = string(f.name, f.offset, where + " name");
    if (name.empty())
        name = string(f.systemName, f.offset, where + " system name");
    const std::string_view file = string(f.filename, f.offset, where + " file name");
    const auto startLine
        = std::int32_t(std::clamp<std::int64_t>(f.startLine, 0, std::numeric_limits<std::int32_t>::max()));
    const LabelId label = m_builder.label(name, file, startLine);
    if (label >= m_labelName.size())
        m_labelName.resize(std::size_t(label) + 1);
    m_labelName[label] = name;
    return label;
}

// An unsymbolized frame: "0x4011a6 (libfoo.so)", the mapping's file name.
LabelId PprofBuilder::addressLabel(const PprofFile::Location& location)
{
    char address[32];
    std::snprintf(address, sizeof address, "0x%" PRIx64, location.address);
    std::string name = address;
    if (location.mapping != 0) {
        const auto found = m_mappingById.find(location.mapping);
        if (found == m_mappingById.end())
            throw FormatError("location id " + std::to_string(location.id) + " names mapping id "
                                  + std::to_string(location.mapping) + ", which does not exist",
                              -1, location.offset);
        const PprofFile::Mapping& m = m_file.mappings[found->second];
        const std::string_view file = string(m.filename, m.offset, "mapping id " + std::to_string(m.id) + " file name");
        if (!file.empty())
            name += " (" + baseName(file) + ")";
    }
    const std::string& kept = m_madeNames.emplace_back(std::move(name));
    const LabelId label = m_builder.label(kept);
    if (label >= m_labelName.size())
        m_labelName.resize(std::size_t(label) + 1);
    m_labelName[label] = kept;
    return label;
}

std::uint32_t PprofBuilder::child(std::uint32_t parent, LabelId label)
{
    const std::uint64_t key = (std::uint64_t(parent) << 32) | label;
    const auto [it, added] = m_children.emplace(key, std::uint32_t(m_nodes.size()));
    if (added)
        m_nodes.push_back(Node{label, parent, 0});
    return it->second;
}

// Each track's call tree, depth first with siblings by name: consecutive
// samples share their common prefix, so each call path is one interval,
// as in a flame graph.
void PprofBuilder::layOut()
{
    std::vector<std::uint32_t> start(m_nodes.size() + 1, 0);
    for (const Node& n : m_nodes) {
        if (n.parent != kNone)
            ++start[n.parent + 1];
    }
    for (std::size_t i = 1; i < start.size(); ++i)
        start[i] += start[i - 1];
    std::vector<std::uint32_t> children(start.back());
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i].parent != kNone)
            children[fill[m_nodes[i].parent]++] = i;
    }
    for (std::size_t i = 0; i + 1 < start.size(); ++i) {
        auto byName = [this](std::uint32_t a, std::uint32_t b) {
            const LabelId x = m_nodes[a].label;
            const LabelId y = m_nodes[b].label;
            return std::tie(m_labelName[x], x) < std::tie(m_labelName[y], y);
        };
        std::sort(children.begin() + start[i], children.begin() + start[i + 1], byName);
    }

    std::string fileTrack = baseName(m_builder.sourcePath());
    if (fileTrack.empty())
        fileTrack = "pprof";
    std::vector<std::pair<std::uint32_t, std::uint32_t>> todo; // (node, depth)
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        TrackInfo info;
        const bool thread = std::uint32_t(t) != m_unthreaded;
        info.displayName = m_builder.intern(thread ? m_tracks[t].name : std::string_view(fileTrack));
        if (thread)
            info.threadName = info.displayName;
        info.tid = std::int64_t(t);
        SampleStackLayout layout(m_builder, m_builder.addTrack(info), 0);
        const std::uint32_t root = m_tracks[t].root;
        m_stack.clear();
        if (m_nodes[root].self > 0) // samples without a location
            layout.add(m_stack, m_nodes[root].self);
        for (std::uint32_t c = start[root + 1]; c-- > start[root];)
            todo.emplace_back(children[c], 0);
        while (!todo.empty()) {
            const auto [node, depth] = todo.back();
            todo.pop_back();
            m_stack.resize(depth);
            m_stack.push_back(m_nodes[node].label);
            if (m_nodes[node].self > 0)
                layout.add(m_stack, m_nodes[node].self);
            for (std::uint32_t c = start[node + 1]; c-- > start[node];)
                todo.emplace_back(children[c], depth + 1);
        }
        layout.finish();
    }
}

} // namespace runlane
