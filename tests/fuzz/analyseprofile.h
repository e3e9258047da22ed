#pragma once

// What the viewer and runlane-cli compute from a profile, run by the fuzz
// targets on everything that loads and by tst_hostileinput on the inputs
// they once broke (tests/data/malformed), so a regression file replays the
// whole path that failed.
#include "baselinereport.h"
#include "calltree.h"
#include "compareformatter.h"
#include "criticalpathsummary.h"
#include "labelindex.h"
#include "measurementmetrics.h"
#include "messagesformatter.h"
#include "processmessages.h"
#include "processlatency.h"
#include "rankformatter.h"
#include "ranktable.h"
#include "schedulingdelays.h"
#include "usageseries.h"

#include <cstdlib>

namespace runlane::fuzz {

inline void analyseProfile(const Profile& profile)
{
    const MeasurementMetrics metrics(profile);
    const RankTable whole = RankTable::compute(metrics);
    const Time third = profile.duration() / 3;
    const RankTable middle = RankTable::compute(metrics, TimeRange{profile.startTime() + third, profile.endTime() - third});
    const RankTable instant = RankTable::compute(metrics, TimeRange{profile.startTime(), profile.startTime() + 1});
    if (RankFormatter::json(profile, whole).empty() || RankFormatter::table(profile, middle).empty()
        || RankFormatter::csv(profile, instant).empty())
        std::abort(); // each has at least its header
    const Time bin = UsageSeries::defaultBinWidth(profile.duration());
    for (TrackId t = 0; t < profile.trackCount() && t < 4; ++t)
        UsageSeries::compute(profile, t, bin, 8);
    // Wakes (tokio): every delay is a wait, never negative.
    const SchedulingDelays delays(profile);
    for (MeasurementId m = 0; m < profile.measurementCount(); ++m) {
        const DelayStats& s = delays.ofTask(m);
        if (s.count > 0 && (s.p90 < 0 || s.p90 > s.max || s.max > s.sum))
            std::abort();
    }
    // The critical path (semantics.md §9) of every measurement, under every
    // wake source whatever the format: its segments follow each other
    // without a gap and cover the measurement's life exactly.
    for (const auto source : {CriticalPath::sourceOf(profile), CriticalPath::WakeSource::Children,
                              CriticalPath::WakeSource::Wakes, CriticalPath::WakeSource::Flows,
                              CriticalPath::WakeSource::Creators}) {
        const CriticalPath path(profile, source);
        for (MeasurementId m = 0; m < profile.measurementCount() && m < 300; ++m) {
            const Measurement& mm = profile.measurement(m);
            Time cursor = mm.created;
            for (const auto& s : path.of(m)) {
                if (s.start != cursor || s.end <= s.start)
                    std::abort();
                cursor = s.end;
            }
            if (mm.finished > mm.created && cursor != mm.finished)
                std::abort();
        }
    }
    // Enso's latency by process, with the first two label names as the
    // foreign processes (an error, such as no @highlight, is fine).
    std::vector<std::string> foreign;
    for (LabelId l = 0; l < profile.labelCount() && l < 2; ++l)
        foreign.emplace_back(profile.string(profile.label(l).name));
    const ProcessLatency::Result latency = ProcessLatency::compute(profile, foreign);
    if (latency.error.empty() && (latency.main < 0 || latency.latencies.size() != foreign.size()))
        std::abort();
    // Messages between processes (Enso's metadata, flows across processes):
    // every pairing goes both ways, and every form of output is written.
    const ProcessMessages messages = ProcessMessages::of(profile);
    for (std::uint32_t k = 0; k < messages.messages().size(); ++k) {
        const std::uint32_t other = messages.messages()[k].pairedWith;
        if (other != kNone && (other >= messages.messages().size() || messages.messages()[other].pairedWith != k))
            std::abort();
    }
    for (const ProcessMessages::RoundTrips& r : messages.roundTrips()) {
        if (r.answered > r.requests || r.p50 > r.p90 || r.p90 > r.max)
            std::abort();
    }
    (void)MessagesFormatter::table(messages, profile.startTime());
    (void)MessagesFormatter::json(messages, profile.startTime());
    (void)MessagesFormatter::svg(messages, profile.startTime());
    const CallTree tree(profile);
    const LabelIndex labels(profile);
    // Compared with itself, one run per side (each call's values) and
    // through its baseline report: whatever it holds, nothing changed.
    RunSet runs;
    runs.add(profile, "fuzz", true);
    const Comparison same = Comparison::compute(runs, runs, {});
    if (same.anyRegressed() || CompareFormatter::markdown(same).empty())
        std::abort();
    RunSet again;
    std::string error;
    if (!BaselineReport::read(BaselineReport::write(runs, "fuzz"), again, error))
        std::abort(); // a report Runlane writes, it reads
}

} // namespace runlane::fuzz
