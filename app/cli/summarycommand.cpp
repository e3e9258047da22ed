#include "clicommand.h"

#include "addedthread.h"
#include "clicommands.h"
#include "clisupport.h"
#include "measurementmetrics.h"
#include "profile.h"
#include "schedulingdelays.h"
#include "valueformat.h"

#include <ostream>

namespace runlane {

namespace {

std::string kindName(TrackKind kind)
{
    switch (kind) {
    case TrackKind::Async:
        return "async";
    case TrackKind::Samples:
        return "samples";
    case TrackKind::Thread:
        break;
    }
    return "thread";
}

constexpr const char* kSummaryHelp = R"HELP(Usage: runlane-cli summary FILE [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

Prints the format, the time span, the tracks (threads, event loops, async
lanes) with their sizes, measurement and interval counts, the flows between
slices (and the flow events that connect nothing), and the warnings and
skipped events found while loading.

)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseProfileArgs(args, {{}, {"--help"}, 1, 1}, argc, argv, kSummaryHelp, out, err); code >= 0)
        return code;
    LoadResult loaded;
    if (const int code = CliSupport::load(args, loaded, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    // Only the tracks' busy times: not the per-measurement figures.
    const std::vector<Time> busy = MeasurementMetrics::busyPerTrack(p);

    std::size_t async = 0;
    std::size_t unfinished = 0;
    for (const Measurement& m : p.measurements()) {
        async += m.isAsync() ? 1 : 0;
        unfinished += m.finalState() == FinalState::Unfinished ? 1 : 0;
    }
    std::size_t points = 0;
    for (const CounterSeries& c : p.counters())
        points += c.times.size();
    int maxDepth = 0;
    for (const Track& t : p.tracks())
        maxDepth = std::max(maxDepth, t.depthCount());

    out << "file:          " << p.sourcePath() << "\n";
    // Each added file, and the thread its samples went to.
    const std::vector<AddedThread::Candidate> threads = p.addedFiles().empty() ? std::vector<AddedThread::Candidate>()
                                                                               : AddedThread::candidates(p);
    for (const AddedFile& added : p.addedFiles()) {
        out << "added:         " << added.path << " (" << added.format << ") under thread " << added.pid << ":" << added.tid;
        if (const AddedThread::Candidate* thread = AddedThread::find(threads, {added.pid, added.tid}))
            out << ", " << thread->name;
        out << "\n";
    }
    out << "format:        " << p.formatName() << "\n";
    // Without timestamps the span is only the sum of the samples' weights.
    const char* spanKey = !p.hasTimestamps() ? "total weight:  "
        : p.unit() == ValueUnit::Nanoseconds ? "time span:     "
                                             : "span:          ";
    out << spanKey << ValueFormat::text(p.duration(), p.unit()) << " ("
        << ValueFormat::plain(p.duration(), p.unit()) << " " << ValueFormat::key(p.unit()) << ")\n";
    if (!p.hasTimestamps())
        out << "view:          aggregated flame graph only (the file has no timestamps)\n";
    else if (p.prefersAggregatedView())
        out << "view:          aggregated flame graph (sampled stacks)\n";
    if (!p.variants().empty()) {
        // The loaded one marked: `--variant NAME` loads another.
        out << "variants:      ";
        for (std::size_t v = 0; v < p.variants().size(); ++v)
            out << (v ? ", " : "") << p.variants()[v] << (v == p.variant() ? " (loaded)" : "");
        out << "\n";
    }
    if (!p.snapshots().empty())
        out << "snapshots:     " << p.snapshots().size() << (p.snapshotsAreTimed() ? "" : " (untimed)") << "\n";
    out << "tracks:        " << p.trackCount() << "\n";
    out << "measurements:  " << p.measurementCount() << " (" << async << " async tasks, " << unfinished
        << " unfinished)\n";
    out << "intervals:     " << p.intervalCount() << " (max depth " << maxDepth << ")\n";
    out << "labels:        " << p.labelCount() << "\n";
    out << "marks:         " << p.marks().size() << "\n";
    out << "counters:      " << p.counters().size() << " series, " << points << " points\n";
    if (!p.wakes().empty()) {
        // tokio wakers: the wake -> poll wait over all tasks (semantics in
        // core/analysis/schedulingdelays.h).
        std::size_t selfWakes = 0;
        std::size_t byRef = 0;
        std::size_t inferred = 0;
        for (const Wake& w : p.wakes()) {
            selfWakes += w.isSelfWake() ? 1 : 0;
            byRef += w.isByRef() ? 1 : 0;
            inferred += w.isInferred() ? 1 : 0;
        }
        out << "wakes:         " << p.wakes().size() << " (" << selfWakes << " self-wakes, " << byRef << " by ref";
        if (inferred != 0)
            out << ", " << inferred << " inferred from the ends of futures they created";
        out << ")\n";
        const SchedulingDelays delays(p);
        std::uint64_t count = 0;
        Time sum = 0;
        Time max = 0;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            const DelayStats& s = delays.ofTask(id);
            count += s.count;
            sum = addClamped(sum, s.sum);
            max = std::max(max, s.max);
        }
        out << "sched. delay:  " << ValueFormat::text(sum, p.unit()) << " in all, max "
            << ValueFormat::text(max, p.unit()) << ", over " << count << " polls after a wake\n";
    }
    out << "flows:         " << p.flows().size() << " (" << p.unboundFlowEnds() << " ends unbound)\n";
    out << "memory:        " << (p.modelMemoryUsage() + p.stringMemoryUsage()) / 1024 << " KiB ("
        << (p.intervalCount() ? double(p.modelMemoryUsage()) / double(p.intervalCount()) : 0.0)
        << " bytes per interval + strings)\n";
    const Diagnostics& d = p.diagnostics();
    out << "warnings:      " << d.warningCount() << "\n";
    for (const auto& [kind, count] : d.warningKinds())
        out << "  " << count << " x " << kind << "\n";
    for (const std::string& example : d.examples())
        out << "  e.g. " << example << "\n";
    out << "skipped:       " << d.skippedCount() << " events\n";
    for (const auto& [what, count] : d.skippedEvents())
        out << "  " << count << " x " << what << "\n";
    if (p.trackCount() > 0) {
        out << "\ntracks:\n";
        for (TrackId t = 0; t < p.trackCount(); ++t) {
            const Track& track = p.track(t);
            out << "  " << p.string(track.name) << "  [" << kindName(track.kind) << "]  " << (track.end - track.begin)
                << " intervals, depth " << track.depthCount() << ", busy " << ValueFormat::text(busy[t], p.unit())
                << "\n";
        }
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand summaryCommand()
{
    return {"summary", "format, tracks, measurements, intervals, time span, warnings", &run};
}

} // namespace runlane
