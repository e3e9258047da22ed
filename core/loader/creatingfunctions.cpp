#include "creatingfunctions.h"

#include "profilebuilder.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace runlane {

namespace {

bool isPseudoFrame(std::string_view name)
{
    return name.starts_with("(") && name.ends_with(")");
}

// Node's own async_hooks machinery, on the stack at every resource's init
// while tracing: the hook, not who created the resource.
bool isHookFrame(std::string_view file)
{
    return file == "node:internal/trace_events_async_hooks" || file == "node:internal/async_hooks"
        || file == "node:async_hooks" || file == "node:internal/promise_hooks";
}

} // namespace

std::size_t CreatingFunctions::apply(ProfileBuilder& b)
{
    if (!b.tasksNameTheirCreator())
        return 0;
    // The sampled track of each thread that has one.
    std::map<std::pair<std::int64_t, std::int64_t>, TrackId> samplesOf;
    for (TrackId t = 0; t < b.trackCount(); ++t) {
        const TrackInfo& info = b.trackInfo(t);
        if (info.kind == TrackKind::Samples)
            samplesOf[{info.pid, info.tid}] = t;
    }
    if (samplesOf.empty())
        return 0;
    // Per sampled track, its frames' intervals in nesting order; per
    // thread track, its tasks in order of creation.
    std::vector<TrackId> sampledFor(b.trackCount(), kNone);
    for (TrackId t = 0; t < b.trackCount(); ++t) {
        const TrackInfo& info = b.trackInfo(t);
        const auto it = samplesOf.find({info.pid, info.tid});
        if (info.kind == TrackKind::Thread && it != samplesOf.end())
            sampledFor[t] = it->second;
    }
    std::vector<std::vector<const Interval*>> frames(b.trackCount());
    for (const Interval& iv : b.intervalsSoFar()) {
        const TrackId t = b.measurement(iv.measurement).track;
        if (b.trackInfo(t).kind == TrackKind::Samples)
            frames[t].push_back(&iv);
    }
    for (auto& list : frames)
        std::sort(list.begin(), list.end(), [](const Interval* x, const Interval* y) {
            return std::tie(x->start, y->end, x->parent) < std::tie(y->start, x->end, y->parent);
        });
    std::vector<std::vector<MeasurementId>> tasks(b.trackCount());
    for (MeasurementId m = 0; m < b.measurementCount(); ++m) {
        const Measurement& mm = b.measurement(m);
        if (mm.isAsync() && sampledFor[mm.track] != kNone)
            tasks[mm.track].push_back(m);
    }

    std::map<std::pair<LabelId, LabelId>, LabelId> named; // (kind, function) -> label
    std::size_t count = 0;
    std::vector<const Interval*> stack;
    for (TrackId t = 0; t < b.trackCount(); ++t) {
        if (tasks[t].empty())
            continue;
        std::stable_sort(tasks[t].begin(), tasks[t].end(), [&b](MeasurementId x, MeasurementId y) {
            return b.measurement(x).created < b.measurement(y).created;
        });
        const std::vector<const Interval*>& list = frames[sampledFor[t]];
        std::size_t next = 0;
        stack.clear();
        for (const MeasurementId task : tasks[t]) {
            const Time at = b.measurement(task).created;
            // The frames that started by `at`, nested; those over by then go.
            while (next < list.size() && list[next]->start <= at) {
                while (!stack.empty() && stack.back()->end <= list[next]->start)
                    stack.pop_back();
                stack.push_back(list[next++]);
            }
            while (!stack.empty() && stack.back()->end <= at)
                stack.pop_back();
            // Innermost first: the program's own code, else any real frame.
            LabelId function = kNone;
            LabelId fallback = kNone;
            for (auto it = stack.rbegin(); it != stack.rend() && function == kNone; ++it) {
                if ((*it)->end <= at)
                    continue; // an inner frame over before `at` under a live outer one
                const LabelId l = b.measurement((*it)->measurement).label;
                const Label& label = b.labelOf(l);
                if (isPseudoFrame(b.string(label.name)))
                    continue;
                const std::string_view file = b.string(label.file);
                if (!file.empty() && !file.starts_with("node:"))
                    function = l;
                else if (fallback == kNone && !isHookFrame(file))
                    fallback = l;
            }
            if (function == kNone)
                function = fallback;
            if (function == kNone)
                continue;
            const LabelId kind = b.measurement(task).label;
            auto [it, added] = named.try_emplace({kind, function}, 0);
            if (added) {
                const Label& f = b.labelOf(function);
                std::string name(b.string(b.labelOf(kind).name));
                name += " · ";
                name += b.string(f.name).empty() ? std::string_view("(anonymous)") : b.string(f.name);
                it->second = b.label(b.intern(name), f.file, f.line);
            }
            b.relabel(task, it->second);
            ++count;
        }
    }
    return count;
}

} // namespace runlane
