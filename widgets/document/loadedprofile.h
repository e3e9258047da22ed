#pragma once

#include "flowspans.h"
#include "frameseries.h"
#include "labelindex.h"
#include "measurementmetrics.h"
#include "processmessages.h"
#include "profile.h"
#include "schedulingdelays.h"
#include "taskpacking.h"

#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace runlane {

// A profile with what the views need computed once on the loading thread:
// per-measurement metrics, the async tasks packed into rows, and per track how busy it is along its span
// (the overview strip's picture).
struct LoadedProfile {
    static constexpr int kOverviewBins = 1024;

    std::shared_ptr<const Profile> profile;
    std::shared_ptr<const MeasurementMetrics> metrics;
    std::shared_ptr<const LabelIndex> labels;
    std::shared_ptr<const TaskPacking> tasks; // the task lanes' packed rows
    // The same without the tasks that never ran; null if every task ran.
    std::shared_ptr<const TaskPacking> tasksThatRan;
    std::shared_ptr<const FlowSpans> flowSpans; // the icicle's arrows crossing the view
    // Scheduling delays per task and label; null when the profile has no wakes.
    std::shared_ptr<const SchedulingDelays> delays;
    // The messages between its processes and its frames (both empty for
    // most profiles): a trace of 100,000 messages takes a tenth of a second
    // to pair, which the GUI thread must not spend. Null: none.
    std::shared_ptr<const ProcessMessages> messages;
    std::shared_ptr<const FrameSeries> frames;
    // overview[track][bin]: busy fraction of that bin of the whole span.
    std::vector<std::vector<float>> overview;
    Time longestInterval = 1; // for colouring by duration
    // ColorScheme::execPerLabel: found here, not on the GUI thread as the
    // colours are given (empty for a profile of few labels).
    std::vector<double> labelExec;
    QString path; // as opened (":/..." for the bundled demo)

    bool isNull() const { return profile == nullptr; }
    // Computes metrics, label index and overview for `profile` (call off
    // the GUI thread). Throws LoadCancelled between its steps once `cancel`
    // is set.
    static LoadedProfile prepare(std::shared_ptr<const Profile> profile, const QString& path,
                                 const std::atomic<bool>* cancel = nullptr);
};

} // namespace runlane
