#include "tokiotaskbuilder.h"

#include <algorithm>

namespace runlane {

namespace {

std::uint32_t orderOf(std::uint64_t index)
{
    return index < kNone - 1 ? std::uint32_t(index) : kNone - 1;
}

// "src/main.rs:12:5" -> ("src/main.rs", 12); a location without a line is
// all file.
std::pair<std::string_view, std::int32_t> splitLocation(std::string_view location)
{
    std::int32_t numbers[2] = {0, 0};
    int found = 0;
    // Up to two trailing ":digits" (line, then column).
    while (found < 2) {
        const std::size_t colon = location.rfind(':');
        if (colon == std::string_view::npos || colon + 1 == location.size())
            break;
        const std::string_view digits = location.substr(colon + 1);
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 9)
            break;
        numbers[found++] = std::int32_t(std::stol(std::string(digits)));
        location = location.substr(0, colon);
    }
    // With two numbers the last one read is the line; with one, it is.
    return {location, found == 2 ? numbers[1] : numbers[0]};
}

} // namespace

TokioTaskBuilder::TokioTaskBuilder(ProfileBuilder& builder) : m_builder(builder)
{
    TrackInfo info;
    info.kind = TrackKind::Async;
    info.workerPool = true;
    info.displayName = m_builder.intern("tokio runtime");
    m_track = m_builder.addTrack(info);
}

LabelId TokioTaskBuilder::labelOf(const TokioEvent& e)
{
    m_labelKey = e.name;
    m_labelKey += '\x1f';
    m_labelKey += e.location;
    m_labelKey += '\x1f';
    m_labelKey += e.locFile;
    m_labelKey += '\x1f';
    m_labelKey += std::to_string(e.locLine);
    m_labelKey += '\x1f';
    m_labelKey += e.taskKind;
    const auto it = m_labels.find(m_labelKey);
    if (it != m_labels.end())
        return it->second;

    std::string_view file = e.locFile;
    std::int32_t line = std::int32_t(std::clamp<std::int64_t>(e.locLine, 0, INT32_MAX));
    if (!e.location.empty())
        std::tie(file, line) = splitLocation(e.location);
    std::string name = e.name;
    if (name.empty()) {
        name = file.empty() ? std::string("(unnamed task)") : std::string(file);
        if (!file.empty() && line > 0)
            name += ":" + std::to_string(line);
    }
    // Blocking and local tasks are told apart in every view by their name.
    if (!e.taskKind.empty() && e.taskKind != "task")
        name += " [" + e.taskKind + "]";
    // A named task keeps its position as the label's file and line; an
    // unnamed one has it in its name already.
    const LabelId label = e.name.empty() ? m_builder.label(name) : m_builder.label(name, file, line);
    m_labels.emplace(m_labelKey, label);
    return label;
}

void TokioTaskBuilder::warnState(std::uint64_t index, const TokioEvent& e, std::string_view why)
{
    m_builder.diagnostics().warnWith("task state", [&] {
        return "event #" + std::to_string(index) + ": " + e.tag + " of task " + std::to_string(e.id) + ", "
            + std::string(why) + "; ignored";
    });
}

void TokioTaskBuilder::spawn(const TokioEvent& e, std::uint64_t index)
{
    MeasurementId creator = kNone;
    std::uint8_t flags = AsyncMeasurement;
    if (m_entered.size() == 1) {
        creator = m_tasks[m_entered.front()].measurement;
    } else if (m_entered.size() > 1) {
        flags |= CreatorUnknown;
        m_builder.setCreatorUnknownReason("multi-threaded runtime");
        ++m_unknownCreators;
    }
    const auto [it, fresh] = m_live.try_emplace(e.id, std::uint32_t(m_tasks.size()));
    if (!fresh) {
        // The earlier task's Close is missing: it stays unfinished, and its
        // id names the new one from here on.
        m_builder.diagnostics().warnWith("task state", [&] {
            return "event #" + std::to_string(index) + ": task " + std::to_string(e.id)
                + " is spawned again before its Close; the earlier one is left unfinished";
        });
        Task& old = m_tasks[it->second];
        if (old.entered) {
            exit(old, e.at);
            m_entered.erase(std::find(m_entered.begin(), m_entered.end(), it->second));
        }
        it->second = std::uint32_t(m_tasks.size());
    }
    Task task;
    task.measurement = m_builder.addMeasurement(m_track, labelOf(e), e.at, creator, flags);
    m_tasks.push_back(task);
}

void TokioTaskBuilder::enter(Task& task, const TokioEvent& e, std::uint64_t index)
{
    if (task.entered) {
        warnState(index, e, "which is being polled already");
        return;
    }
    task.entered = true;
    task.enteredAt = e.at;
    task.order = orderOf(index);
}

void TokioTaskBuilder::exit(Task& task, Time at)
{
    m_builder.addInterval(task.measurement, task.enteredAt, at, task.order);
    task.entered = false;
}

void TokioTaskBuilder::waker(std::uint32_t slot, const TokioEvent& e)
{
    Wake wake;
    wake.time = e.at;
    wake.task = m_tasks[slot].measurement;
    wake.flags = std::uint8_t((e.selfWake ? Wake::SelfWake : 0) | (e.op == TokioEvent::WakerOp::WakeByRef ? Wake::ByRef : 0));
    m_builder.addWake(wake);
}

void TokioTaskBuilder::add(const TokioEvent& e, std::uint64_t index)
{
    if (e.kind == TokioEvent::Kind::Unknown) {
        m_builder.diagnostics().skipped("tokio event " + e.tag.substr(0, 40));
        return;
    }
    m_builder.extendSpan(e.at);
    if (e.kind == TokioEvent::Kind::Spawn) {
        spawn(e, index);
        return;
    }
    if (e.kind == TokioEvent::Kind::Waker) {
        // Wakers outlive their tasks: Clone and Drop after the Close are
        // normal, so every one is counted and none is a warning.
        if (e.op == TokioEvent::WakerOp::Clone || e.op == TokioEvent::WakerOp::Drop) {
            ++(e.op == TokioEvent::WakerOp::Clone ? m_clones : m_drops);
            return;
        }
        const auto it = m_live.find(e.id);
        if (it == m_live.end())
            ++m_unknownWakes;
        else
            waker(it->second, e);
        return;
    }
    const auto it = m_live.find(e.id);
    if (it == m_live.end()) {
        warnState(index, e, "which is not spawned (or closed already)");
        return;
    }
    const std::uint32_t slot = it->second;
    Task& task = m_tasks[slot];
    switch (e.kind) {
    case TokioEvent::Kind::Enter:
        if (!task.entered)
            m_entered.push_back(slot);
        enter(task, e, index);
        break;
    case TokioEvent::Kind::Exit:
        if (!task.entered) {
            warnState(index, e, "which is not being polled");
            return;
        }
        exit(task, e.at);
        m_entered.erase(std::find(m_entered.begin(), m_entered.end(), slot));
        break;
    case TokioEvent::Kind::Close:
        if (task.entered) {
            exit(task, e.at);
            m_entered.erase(std::find(m_entered.begin(), m_entered.end(), slot));
        }
        m_builder.finish(task.measurement, e.at, FinalState::Completed);
        ++m_closed;
        m_live.erase(it); // the id may be used again
        break;
    default:
        break;
    }
}

void TokioTaskBuilder::finish()
{
    // A poll still going on at the end lasts until the profile's end.
    for (const std::uint32_t slot : m_entered)
        m_builder.addInterval(m_tasks[slot].measurement, m_tasks[slot].enteredAt, ProfileBuilder::kOpen, m_tasks[slot].order);
    m_entered.clear();
    Diagnostics& d = m_builder.diagnostics();
    const std::uint64_t open = m_tasks.size() - m_closed;
    if (open > 0)
        d.warn("unfinished tasks", std::to_string(open) + " of " + std::to_string(m_tasks.size())
                                       + " tasks have no Close: unfinished at the end of the recording");
    if (m_unknownCreators > 0)
        d.warn("creator unknown", std::to_string(m_unknownCreators)
                                      + " tasks were spawned while several tasks were being polled: creator unknown "
                                        "(multi-threaded runtime)");
    if (m_clones > 0)
        d.skipped("waker Clone", m_clones);
    if (m_drops > 0)
        d.skipped("waker Drop", m_drops);
    if (m_unknownWakes > 0)
        d.skipped("wake of a closed or unknown task", m_unknownWakes);
}

} // namespace runlane
