#include "processmessages.h"

#include "nearestrank.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <tuple>

namespace runlane {

namespace {

using Json = nlohmann::json;

// Enso's poles (formats.md (n)): the IDE talks to the Language Server,
// which talks to the Engine.
constexpr const char* kLanguageServer = "LanguageServer";
constexpr const char* kEngine = "Engine";

// A time for a warning, in ms from the profile's start (core/text is above
// analysis, so not through ValueFormat).
std::string at(const Profile& p, Time t)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", double(t - p.startTime()) / 1e6);
    return text;
}

// A payload that is a JSON string is its text; anything else as written.
std::string textOf(std::string_view json)
{
    const Json value = Json::parse(json.begin(), json.end(), nullptr, false);
    return value.is_string() ? value.get<std::string>() : std::string(json);
}

} // namespace

ProcessMessages ProcessMessages::of(const Profile& profile)
{
    ProcessMessages result;
    // A process is named by its first track that names it.
    std::map<std::string, std::size_t> firstTrack;
    for (TrackId t = 0; t < profile.trackCount(); ++t) {
        const Track& track = profile.track(t);
        if (track.processName != kEmptyString)
            result.m_names.try_emplace(track.pid, profile.string(track.processName));
    }
    for (TrackId t = 0; t < profile.trackCount(); ++t)
        firstTrack.try_emplace(result.processName(profile.track(t).pid), t);
    for (std::uint32_t k = 0; k < profile.marks().size(); ++k)
        result.readMark(profile, k);
    result.readFlows(profile);
    std::stable_sort(result.m_messages.begin(), result.m_messages.end(),
                     [](const Message& a, const Message& b) { return a.time < b.time; });
    // The poles: the file's processes in its order, then those only named.
    std::vector<std::size_t> rank(result.m_processes.size());
    for (std::size_t i = 0; i < rank.size(); ++i) {
        const auto it = firstTrack.find(result.m_processes[i]);
        rank[i] = it != firstTrack.end() ? it->second : profile.trackCount() + i;
    }
    std::vector<std::uint32_t> order(rank.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return rank[a] < rank[b]; });
    std::vector<std::uint32_t> newIndex(order.size());
    std::vector<std::string> poles;
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        poles.push_back(result.m_processes[order[i]]);
    }
    result.m_processes = std::move(poles);
    for (Message& m : result.m_messages) {
        m.from = newIndex[m.from];
        m.to = newIndex[m.to];
    }
    result.pair(profile);
    return result;
}

std::string ProcessMessages::processName(std::int64_t pid) const
{
    const auto it = m_names.find(pid);
    return it != m_names.end() ? it->second : "pid " + std::to_string(pid);
}

std::uint32_t ProcessMessages::processIndex(const std::string& name)
{
    const auto it = std::find(m_processes.begin(), m_processes.end(), name);
    if (it != m_processes.end())
        return std::uint32_t(it - m_processes.begin());
    m_processes.push_back(name);
    return std::uint32_t(m_processes.size() - 1);
}

void ProcessMessages::readMark(const Profile& p, std::uint32_t index)
{
    const Mark& mark = p.marks()[index];
    const std::string_view type = p.string(mark.name);
    const std::string_view detail = p.string(mark.detail);
    Message m;
    m.time = m.arrival = mark.time;
    m.mark = index;
    const std::string self = processName(mark.pid);
    if (type == "RpcRequest" || type == "RpcEvent") {
        const bool request = type == "RpcRequest";
        m.kind = request ? Kind::Request : Kind::Notification;
        m.from = processIndex(request ? self : kLanguageServer);
        m.to = processIndex(request ? kLanguageServer : self);
        m.name = textOf(detail);
        m_messages.push_back(std::move(m));
        return;
    }
    if (type != "BackendMessage")
        return;
    const Json payload = Json::parse(detail.begin(), detail.end(), nullptr, false);
    const Json* direction = payload.is_object() && payload.contains("direction") ? &payload["direction"] : nullptr;
    const Json* endpoint = payload.is_object() && payload.contains("endpoint") ? &payload["endpoint"] : nullptr;
    const bool isRequest = direction && *direction == "Request";
    if (!direction || !(isRequest || *direction == "Response") || !endpoint || !endpoint->is_string()) {
        m_warnings.push_back("BackendMessage at " + at(p, mark.time) + " in " + self
                             + " has no direction Request or Response and endpoint: not a message (" + std::string(detail)
                             + ")");
        return;
    }
    m.kind = isRequest ? Kind::Request : Kind::Response;
    m.from = processIndex(isRequest ? self : kEngine);
    m.to = processIndex(isRequest ? kEngine : self);
    m.name = endpoint->get<std::string>();
    if (const auto id = payload.find("request_id"); id != payload.end() && id->is_string())
        m.requestId = id->get<std::string>();
    m_messages.push_back(std::move(m));
}

void ProcessMessages::readFlows(const Profile& p)
{
    for (const Flow& flow : p.flows()) {
        const Interval& from = p.interval(flow.from);
        const Interval& to = p.interval(flow.to);
        const std::int64_t fromPid = p.track(p.trackOf(flow.from)).pid;
        const std::int64_t toPid = p.track(p.trackOf(flow.to)).pid;
        if (fromPid == toPid)
            continue;
        Message m;
        m.kind = Kind::Flow;
        m.time = from.start;
        m.arrival = to.start;
        m.from = processIndex(processName(fromPid));
        m.to = processIndex(processName(toPid));
        m.name = flow.name != kEmptyString ? std::string(p.string(flow.name))
                                           : std::string(p.labelName(p.measurement(to.measurement).label));
        m_messages.push_back(std::move(m));
    }
}

void ProcessMessages::pair(const Profile& p)
{
    // Waiting requests by (id, from, to): a response answers the first
    // one waiting on its way back.
    std::map<std::tuple<std::string, std::uint32_t, std::uint32_t>, std::deque<std::uint32_t>> waiting;
    std::map<std::string, std::vector<Time>> trips;
    std::map<std::string, std::uint64_t> requests;
    for (std::uint32_t k = 0; k < m_messages.size(); ++k) {
        Message& m = m_messages[k];
        if (m.kind == Kind::Request && !m.requestId.empty()) {
            waiting[{m.requestId, m.from, m.to}].push_back(k);
            ++requests[m.name];
            continue;
        }
        if (m.kind != Kind::Response)
            continue;
        const auto it = m.requestId.empty() ? waiting.end() : waiting.find({m.requestId, m.to, m.from});
        if (it == waiting.end() || it->second.empty()) {
            ++m_unmatchedResponses;
            m_warnings.push_back("response without request: " + m.name + " (request_id "
                                 + (m.requestId.empty() ? std::string("none") : m.requestId) + ") from "
                                 + m_processes[m.from] + " to " + m_processes[m.to] + " at " + at(p, m.time));
            continue;
        }
        Message& request = m_messages[it->second.front()];
        it->second.pop_front();
        request.pairedWith = k;
        m.pairedWith = std::uint32_t(&request - m_messages.data());
        trips[request.name].push_back(m.time - request.time);
    }
    for (const auto& [endpoint, count] : requests) {
        RoundTrips row;
        row.endpoint = endpoint;
        row.requests = count;
        if (auto it = trips.find(endpoint); it != trips.end()) {
            std::vector<Time>& times = it->second;
            std::sort(times.begin(), times.end());
            row.answered = times.size();
            row.p50 = times[nearestRank(times.size(), 0.5)];
            row.p90 = times[nearestRank(times.size(), 0.9)];
            row.max = times.back();
        }
        m_roundTrips.push_back(std::move(row));
    }
}

} // namespace runlane
