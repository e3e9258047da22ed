#include "chromesamplecollector.h"

#include "loaderror.h"
#include "sampletree.h"
#include "v8samples.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace runlane {

namespace {

using Json = nlohmann::json;

// Microseconds (an integer, or a number with a fraction) to nanoseconds;
// nothing for anything else.
std::optional<Time> micros(const Json& value)
{
    if (value.is_number_integer()) {
        const std::int64_t us = value.get<std::int64_t>();
        if (us > kTimeMax / 1000 || us < kTimeMin / 1000)
            return std::nullopt;
        return us * 1000;
    }
    if (value.is_number_float()) {
        const double ns = value.get<double>() * 1000.0;
        if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18)
            return std::nullopt;
        return Time(std::llround(ns));
    }
    return std::nullopt;
}

const Json* member(const Json& object, const char* key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

} // namespace

ChromeSampleCollector::ChromeSampleCollector(ProfileBuilder& builder) : m_builder(builder) { }

ChromeSampleCollector::Profile& ChromeSampleCollector::profile(const ChromeEvent& e, std::int64_t pid, std::int64_t tid)
{
    // Ids are per process; an old CpuProfile event has none and is a
    // profile of its own thread.
    std::string id;
    if (e.id.kind == ChromeEvent::Value::Number)
        id = std::to_string(e.id.number);
    else if (e.id.kind == ChromeEvent::Value::String)
        id = e.id.text;
    else
        id = "thread " + std::to_string(tid);
    const auto [it, added] = m_index.emplace(std::make_pair(pid, std::move(id)), m_profiles.size());
    if (added) {
        m_profiles.emplace_back();
        m_profiles.back().pid = pid;
        m_profiles.back().tid = tid;
        m_profiles.back().tree = std::make_unique<SampleTree>(m_builder);
    }
    return m_profiles[it->second];
}

void ChromeSampleCollector::warn(const ChromeEvent& e, std::uint64_t index, const std::string& problem)
{
    m_builder.diagnostics().warnWith("bad CPU profile event", [&] {
        return std::string(e.name) + " event #" + std::to_string(index) + ": " + problem + "; its samples are left out";
    });
}

void ChromeSampleCollector::add(const ChromeEvent& e, std::int64_t pid, std::int64_t tid, std::uint64_t index)
{
    const Json data = Json::parse(e.argData, nullptr, /*allow_exceptions=*/false);
    if (data.is_discarded() || !data.is_object()) {
        warn(e, index, "'args.data' is not an object");
        return;
    }
    Profile& p = profile(e, pid, tid);
    if (e.name == "Profile") {
        // The thread that records is the one that started the profile.
        p.tid = tid;
        if (const Json* start = member(data, "startTime"))
            p.start = micros(*start);
        return;
    }
    const Json* cpuProfile = member(data, "cpuProfile");
    if (!cpuProfile || !cpuProfile->is_object()) {
        // A chunk may carry only time deltas or nothing at all.
        if (!member(data, "timeDeltas"))
            return;
    }
    static const Json kEmpty = Json::object();
    const Json& profileData = cpuProfile ? *cpuProfile : kEmpty;
    // A chunk's own startTime and endTime may be on another clock than
    // the Profile event's startTime (Firefox writes it from 0, the chunk
    // from boot): its end counts from its start.
    std::optional<Time> ownStart;
    if (const Json* start = member(profileData, "startTime"))
        ownStart = micros(*start);
    if (e.name == "CpuProfile" || !p.start)
        p.start = ownStart;
    for (const Json* endTime : {member(profileData, "endTime"), member(data, "endTime")}) {
        std::optional<Time> end = endTime ? micros(*endTime) : std::nullopt;
        if (end && ownStart && p.start && *ownStart != *p.start) {
            Time length = 0;
            Time shifted = 0;
            if (__builtin_sub_overflow(*end, *ownStart, &length) || __builtin_add_overflow(*p.start, length, &shifted))
                end.reset();
            else
                end = shifted;
        }
        if (end)
            p.end = end;
    }
    const Json* nodes = member(profileData, "nodes");
    const Json* samples = member(profileData, "samples");
    const Json* deltas = member(data, "timeDeltas");
    if (!deltas)
        deltas = member(profileData, "timeDeltas");
    if ((nodes && !nodes->is_array()) || (samples && !samples->is_array()) || (deltas && !deltas->is_array())) {
        warn(e, index, "'nodes', 'samples' and 'timeDeltas' must be arrays");
        return;
    }
    std::vector<Node> newNodes;
    if (nodes) {
        for (const Json& n : *nodes) {
            const Json* id = member(n, "id");
            if (!id || !id->is_number_integer()) {
                warn(e, index, "a node has no integer 'id'");
                return;
            }
            Node node;
            node.id = id->get<std::int64_t>();
            if (const Json* parent = member(n, "parent"); parent && parent->is_number_integer())
                node.parent = parent->get<std::int64_t>();
            if (const Json* children = member(n, "children"); children && children->is_array()) {
                for (const Json& c : *children) {
                    if (c.is_number_integer())
                        node.children.push_back(c.get<std::int64_t>());
                }
            }
            std::string function;
            std::string url;
            std::int64_t line = -1;
            if (const Json* frame = member(n, "callFrame"); frame && frame->is_object()) {
                if (const Json* f = member(*frame, "functionName"); f && f->is_string())
                    function = f->get<std::string>();
                if (const Json* u = member(*frame, "url"); u && u->is_string())
                    url = u->get<std::string>();
                if (const Json* l = member(*frame, "lineNumber"); l && l->is_number_integer())
                    line = l->get<std::int64_t>();
            }
            node.label = v8samples::frameLabel(m_builder, function, url, line);
            newNodes.push_back(std::move(node));
        }
    }
    std::vector<std::int64_t> newSamples;
    std::vector<Time> newDeltas;
    if (samples) {
        for (const Json& s : *samples) {
            if (!s.is_number_integer()) {
                warn(e, index, "'samples' must hold node ids");
                return;
            }
            newSamples.push_back(s.get<std::int64_t>());
        }
    }
    if (deltas) {
        for (const Json& d : *deltas) {
            const std::optional<Time> ns = micros(d);
            if (!ns) {
                warn(e, index, "'timeDeltas' must hold microseconds");
                return;
            }
            newDeltas.push_back(*ns);
        }
    }
    if (newSamples.size() != newDeltas.size()) {
        m_builder.diagnostics().warnWith("samples without time deltas", [&] {
            return std::string(e.name) + " event #" + std::to_string(index) + " has " + std::to_string(newSamples.size()) + " samples and "
                + std::to_string(newDeltas.size()) + " time deltas; the extra ones are left out";
        });
        const std::size_t n = std::min(newSamples.size(), newDeltas.size());
        newSamples.resize(n);
        newDeltas.resize(n);
    }
    for (const Node& node : newNodes) {
        p.tree->addNode(node.id, node.label);
        if (node.parent)
            p.tree->setParent(node.id, *node.parent);
        for (const std::int64_t child : node.children)
            p.tree->setParent(child, node.id);
    }
    p.samples.insert(p.samples.end(), newSamples.begin(), newSamples.end());
    p.deltas.insert(p.deltas.end(), newDeltas.begin(), newDeltas.end());
}

void ChromeSampleCollector::finish()
{
    for (Profile& p : m_profiles) {
        if (p.samples.empty())
            continue;
        TrackInfo info;
        info.kind = TrackKind::Samples;
        info.pid = p.pid;
        info.tid = p.tid;
        const TrackId track = m_builder.addTrack(info);
        SampleTree& tree = *p.tree;
        try {
            // Without a start (no Profile event) the deltas count from 0:
            // the samples are drawn, though not aligned with the slices.
            if (!p.start)
                m_builder.diagnostics().warn("CPU profile without a start",
                                             "a CPU profile of pid " + std::to_string(p.pid) + " has no startTime; its samples "
                                                 "are placed from time 0");
            v8samples::SampleClock clock(m_builder.diagnostics(), p.start.value_or(0));
            for (std::size_t i = 0; i < p.samples.size(); ++i)
                tree.addSample(clock.next(p.deltas[i]), p.samples[i]);
            clock.finish();
            const std::string whose = "the CPU profile of pid " + std::to_string(p.pid) + ", tid " + std::to_string(p.tid);
            tree.finish(track, clock.lastSampleEnd(p.end, whose));
        } catch (const FormatError& error) {
            // A broken profile must not take the trace with it: its track
            // stays, empty, and the warning says why.
            m_builder.diagnostics().warn("bad CPU profile", std::string("a CPU profile of pid ") + std::to_string(p.pid)
                                                                + " cannot be laid out: " + error.what());
        }
        // Its memory goes now, not with the last profile.
        p.tree.reset();
        std::vector<std::int64_t>().swap(p.samples);
        std::vector<Time>().swap(p.deltas);
    }
}

} // namespace runlane
