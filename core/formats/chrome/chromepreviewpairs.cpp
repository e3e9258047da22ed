#include "chromepreviewpairs.h"

#include "previewtarget.h"

#include <algorithm>
#include <span>

namespace runlane {

ChromePreviewPairs::ChromePreviewPairs(ProfileBuilder& builder, std::function<void(TrackInfo&)> nameTrack, Tasks tasks)
    : m_builder(builder), m_tasks(std::move(tasks))
{
    if (PreviewSettings* settings = builder.previewSettings()) {
        settings->nameTrack = std::move(nameTrack);
        settings->completeUpTo = [this] { return completeUpTo(); };
        if (m_tasks.track) {
            m_selecting = true;
            settings->addTasks = [this](PreviewTarget& target) { return addTasks(target); };
        }
    }
}

void ChromePreviewPairs::beginEnd(TrackId track, Time ts, LabelId label, bool begin, std::uint32_t order)
{
    if (track >= m_stacks.size())
        m_stacks.resize(track + 1);
    std::vector<Open>& stack = m_stacks[track];
    if (begin) {
        stack.push_back(Open{ts, label, order});
        return;
    }
    // An E with nothing open, or before the B it would end: the final
    // matching sorts them out; the preview leaves them.
    if (stack.empty() || ts < stack.back().ts)
        return;
    const Open open = stack.back();
    stack.pop_back();
    m_builder.offerPreview(PreviewItem{open.ts, ts, track, open.label, open.order});
}

void ChromePreviewPairs::async(char kind, Time ts, bool asyncHooks)
{
    m_asyncHooks = m_asyncHooks || asyncHooks;
    if (kind == 'b') {
        if (m_asyncOpen++ == 0)
            m_asyncOpenSince = ts;
    } else if (kind == 'e' && m_asyncOpen > 0) {
        if (--m_asyncOpen == 0)
            m_asyncOpenSince = kTimeMax;
    }
}

Time ChromePreviewPairs::completeUpTo() const
{
    if (!m_inOrder)
        return kTimeMin;
    Time complete = m_latest;
    if (m_asyncOpen > 0)
        complete = std::min(complete, m_asyncOpenSince);
    for (const std::vector<Open>& stack : m_stacks) {
        if (!stack.empty())
            complete = std::min(complete, stack.front().ts);
    }
    return complete;
}

std::optional<std::uint64_t> ChromePreviewPairs::addTasks(PreviewTarget& target)
{
    if (m_asyncHooks)
        return std::nullopt;
    const std::vector<ChromeAsyncTask>& tasks = m_tasks.list;
    // A task's life grows only with its events, which touch it.
    const std::uint64_t leftOut = m_selection.select(
        target.taskBudget(),
        [&tasks](std::uint32_t i) -> std::optional<LongestLivedTasks::Life> {
            const ChromeAsyncTask& task = tasks[i];
            if (!task.anyBegin && !task.anyFinalState)
                return std::nullopt;
            return LongestLivedTasks::Life{std::uint64_t(task.last) - std::uint64_t(task.first)};
        },
        m_kept);
    std::vector<ChromeAsyncEvent> scratch;
    for (const LongestLivedTasks::Kept& kept : m_kept)
        addTask(target, tasks[kept.task], scratch);
    return leftOut;
}

// The task and its top-level slices by walkAsyncTask, as
// ChromeTraceBuilder::buildAsyncTask builds them at the end; its nested
// slices, warnings, wakes, marks and flows are the final build's.
void ChromePreviewPairs::addTask(PreviewTarget& target, const ChromeAsyncTask& task,
                                 std::vector<ChromeAsyncEvent>& scratch) const
{
    auto byTime = [](const ChromeAsyncEvent& a, const ChromeAsyncEvent& b) { return a.ts < b.ts; };
    std::span<const ChromeAsyncEvent> events = task.events;
    if (!std::is_sorted(events.begin(), events.end(), byTime)) {
        scratch.assign(events.begin(), events.end());
        std::stable_sort(scratch.begin(), scratch.end(), byTime);
        events = scratch;
    }
    TrackId track = m_tasks.track(task);
    if (track == kNone) {
        TrackInfo info;
        info.kind = task.onThread ? TrackKind::Thread : TrackKind::Async;
        info.pid = task.pid;
        info.tid = task.onThread ? task.tid : 0;
        track = target.addTrack(info);
    }
    struct Preview {
        PreviewTarget& target;
        const ChromeAsyncTask& of;
        std::span<const ChromeAsyncEvent> events;
        TrackId track;
        MeasurementId id = kNone;
        Time start = 0; // the open top-level slice's
        std::uint32_t order = 0;

        void task(const ChromeAsyncEvent& first)
        {
            const bool bornFinished = events.front().state >= 0 && !of.anyBegin;
            id = target.profile().addMeasurement(track, target.label(first.label), events.front().ts,
                                                 of.onThread ? ProfileBuilder::kAutoCreator : kNone,
                                                 AsyncMeasurement | (bornFinished ? BornFinished : 0));
        }
        void begin(const ChromeAsyncEvent& ev, std::size_t depth)
        {
            if (depth == 0) {
                start = ev.ts;
                order = ev.order;
            }
        }
        void end(const ChromeAsyncEvent& ev, std::size_t depth, bool)
        {
            if (depth == 0)
                target.profile().addInterval(id, start, ev.ts, order);
        }
        void unmatched(const ChromeAsyncEvent&, bool) {}
        void wake(const ChromeAsyncEvent&) {}
        void mark(const ChromeAsyncEvent&) {}
    };
    Preview preview{target, task, events, track};
    const std::size_t open = walkAsyncTask(events, task.anyFinalState, preview);
    if (preview.id == kNone)
        return;
    if (open > 0) {
        target.profile().addInterval(preview.id, preview.start, ProfileBuilder::kOpen, preview.order);
        return; // unfinished so far
    }
    const ChromeAsyncEvent& last = events.back();
    const FinalState state = last.state >= 0 ? FinalState(last.state) : FinalState::Completed;
    if (state != FinalState::Unfinished)
        target.profile().finish(preview.id, last.ts, state);
}

} // namespace runlane
