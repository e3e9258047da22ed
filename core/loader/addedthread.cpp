#include "addedthread.h"

#include "profilebuilder.h"

#include <algorithm>
#include <tuple>

namespace runlane {

namespace {

void markDefault(std::vector<AddedThread::Candidate>& candidates)
{
    if (const AddedThread::Candidate* chosen = AddedThread::pick(candidates))
        candidates[std::size_t(chosen - candidates.data())].isDefault = true;
}

} // namespace

bool AddedThread::isMainThreadName(std::string_view name)
{
    return name == "CrRendererMain" || name == "JavaScriptMainThread";
}

std::vector<AddedThread::Candidate> AddedThread::candidates(const Profile& profile)
{
    std::vector<Candidate> result;
    for (const Track& track : profile.tracks()) {
        if (track.kind != TrackKind::Thread)
            continue;
        Candidate c;
        c.pid = track.pid;
        c.tid = track.tid;
        c.name = profile.string(track.name);
        c.threadName = profile.string(track.threadName);
        c.intervals = track.end - track.begin;
        result.push_back(std::move(c));
    }
    markDefault(result);
    return result;
}

std::vector<AddedThread::Candidate> AddedThread::candidates(ProfileBuilder& builder)
{
    const std::vector<std::size_t> intervals = builder.intervalsPerTrack();
    std::vector<Candidate> result;
    for (TrackId t = 0; t < builder.trackCount(); ++t) {
        const TrackInfo& info = builder.trackInfo(t);
        if (info.kind != TrackKind::Thread)
            continue;
        Candidate c;
        c.pid = info.pid;
        c.tid = info.tid;
        c.threadName = builder.string(info.threadName);
        c.name = builder.trackName(info); // as the built profile will name it
        c.intervals = intervals[t];
        result.push_back(std::move(c));
    }
    std::sort(result.begin(), result.end(),
              [](const Candidate& a, const Candidate& b) { return std::tie(a.pid, a.tid) < std::tie(b.pid, b.tid); });
    markDefault(result);
    return result;
}

const AddedThread::Candidate* AddedThread::pick(const std::vector<Candidate>& candidates)
{
    // Rank: a main thread's name, then tid == pid, then most intervals; the
    // lowest (pid, tid) of equals.
    const Candidate* best = nullptr;
    auto rank = [](const Candidate& c) {
        return std::make_tuple(isMainThreadName(c.threadName), c.tid == c.pid, c.intervals);
    };
    for (const Candidate& c : candidates) {
        if (!best || rank(c) > rank(*best)
            || (rank(c) == rank(*best) && std::tie(c.pid, c.tid) < std::tie(best->pid, best->tid)))
            best = &c;
    }
    return best;
}

const AddedThread::Candidate* AddedThread::find(const std::vector<Candidate>& candidates, ProfileAddition::Thread thread)
{
    const auto it = std::find_if(candidates.begin(), candidates.end(),
                                 [thread](const Candidate& c) { return c.pid == thread.pid && c.tid == thread.tid; });
    return it == candidates.end() ? nullptr : &*it;
}

std::string AddedThread::list(const std::vector<Candidate>& candidates)
{
    std::string text;
    for (const Candidate& c : candidates) {
        if (!text.empty())
            text += ", ";
        text += std::to_string(c.pid) + ":" + std::to_string(c.tid) + " " + c.name;
    }
    return text;
}

} // namespace runlane
