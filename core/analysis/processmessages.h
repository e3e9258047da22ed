#pragma once

#include "profile.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace runlane {

// Messages between processes, one model for every format (issue 43):
//
// - Enso (formats.md (n), as Enso's message_beanpoles reads them): an IDE
//   `RpcRequest` mark is a request from its process to the LanguageServer,
//   an `RpcEvent` a notification from the LanguageServer to it; a Language
//   Server `BackendMessage` is, by its direction, a request from its
//   process to the Engine or a response from the Engine to it, named by its
//   endpoint and carrying its request_id.
// - Chrome and Perfetto: a flow whose two slices are in different
//   processes, sent at its source slice's start and received at its target
//   slice's; named by the flow (or the target slice's name if the flow has
//   none).
//
// Requests and responses with a request id are paired by it, first in
// first out, on the same pair of processes (a response goes back the way
// its request came): the round trip is the response's time less the
// request's. A response whose id no request is waiting for is a warning,
// counted and kept as an unpaired message. Requests without an id (the
// IDE's RpcRequest) cannot be paired and are in no round-trip row.
class ProcessMessages
{
public:
    enum class Kind : std::uint8_t { Request, Response, Notification, Flow };

    struct Message {
        Time time = 0; // sent
        Time arrival = 0; // received: `time` where the file has one time
        std::uint32_t from = 0; // index into processes()
        std::uint32_t to = 0;
        Kind kind = Kind::Notification;
        std::string name; // endpoint, method, notification or flow name
        std::string requestId; // empty if none
        std::uint32_t mark = kNone; // the mark it was read from, if any
        std::uint32_t pairedWith = kNone; // the request's response and the response's request
    };

    // Per endpoint: its requests with an id, those answered and their round trips.
    struct RoundTrips {
        std::string endpoint;
        std::uint64_t requests = 0;
        std::uint64_t answered = 0;
        Time p50 = 0; // nearest rank; 0 when none answered
        Time p90 = 0;
        Time max = 0;
        std::uint64_t unanswered() const { return requests - answered; }
    };

    static ProcessMessages of(const Profile& profile);

    // The poles: the profile's processes that send or receive a message,
    // in the profile's process order, then those only named by a message
    // (Enso's Engine, a LanguageServer whose log is not in the file).
    const std::vector<std::string>& processes() const { return m_processes; }
    // In time order (ties: as read).
    const std::vector<Message>& messages() const { return m_messages; }
    // By endpoint name.
    const std::vector<RoundTrips>& roundTrips() const { return m_roundTrips; }
    // Responses without a request, as warnings naming them.
    const std::vector<std::string>& warnings() const { return m_warnings; }
    std::uint64_t unmatchedResponses() const { return m_unmatchedResponses; }

private:
    std::string processName(std::int64_t pid) const;
    std::uint32_t processIndex(const std::string& name);
    void readMark(const Profile& profile, std::uint32_t index);
    void readFlows(const Profile& profile);
    void pair(const Profile& profile);

    std::map<std::int64_t, std::string> m_names; // the profile's processes by pid
    std::vector<std::string> m_processes;
    std::vector<Message> m_messages;
    std::vector<RoundTrips> m_roundTrips;
    std::vector<std::string> m_warnings;
    std::uint64_t m_unmatchedResponses = 0;
};

} // namespace runlane
