#include "chromeflowcollector.h"

namespace runlane {

std::string ChromeFlowCollector::idText(const ChromeEvent::Value& value)
{
    if (value.kind == ChromeEvent::Value::Number)
        return std::to_string(value.number);
    if (const std::optional<std::uint64_t> number = value.hexNumber())
        return std::to_string(*number);
    return "'" + std::string(value.text); // not a number: the text itself names it
}

std::uint32_t ChromeFlowCollector::keyOf(const std::string& key)
{
    return m_keys.try_emplace(key, std::uint32_t(m_keys.size())).first->second;
}

void ChromeFlowCollector::addFlowEvent(const ChromeEvent& e, std::uint32_t order, char ph, std::int64_t pid,
                                       std::int64_t tid, Time ts)
{
    m_key = "1\x1f";
    m_key += e.cat;
    m_key += '\x1f';
    m_key += e.name;
    m_key += '\x1f';
    m_key += e.scope;
    m_key += '\x1f';
    if (!e.appendScopedId(m_key, pid, idText)) {
        m_builder.diagnostics().warnWith("flow event without id", [&] {
            return "'" + std::string(1, ph) + "' event #" + std::to_string(order) + " '" + std::string(e.name.substr(0, 80))
                + "' has no 'id' or 'id2'; ignored";
        });
        return;
    }
    FlowBinder::Point point;
    point.key = keyOf(m_key);
    point.time = ts;
    point.order = order;
    point.name = e.hasName ? m_builder.intern(e.name, e.nameHash) : kEmptyString;
    point.role = ph == 's' ? FlowBinder::Role::Start : ph == 't' ? FlowBinder::Role::Step : FlowBinder::Role::End;
    point.binding = ph == 'f' && e.bp != "e" ? FlowBinder::Binding::Next : FlowBinder::Binding::Enclosing;
    m_threadPoints.push_back(ThreadPoint{point, pid, tid});
}

bool ChromeFlowCollector::slicePoint(const ChromeEvent& e, std::uint32_t order, Time ts, FlowBinder::Point& point)
{
    if (e.bindId.kind == ChromeEvent::Value::Invalid) {
        m_builder.diagnostics().warnWith("invalid bind_id", [&] {
            return "event #" + std::to_string(order) + ": 'bind_id' must be a number or a string, found "
                + std::string(e.bindId.text) + "; ignored";
        });
        return false;
    }
    if (!e.flowIn && !e.flowOut) {
        // Perfetto counts it too (flow_without_direction).
        m_builder.diagnostics().warnWith("bind_id without direction", [&] {
            return "event #" + std::to_string(order) + " has a 'bind_id' but neither 'flow_in' nor 'flow_out'; ignored";
        });
        return false;
    }
    point.key = keyOf("2\x1f" + idText(e.bindId));
    point.time = ts;
    point.order = order;
    point.role = e.flowIn && e.flowOut ? FlowBinder::Role::Step
        : e.flowOut                    ? FlowBinder::Role::Start
                                       : FlowBinder::Role::End;
    point.binding = FlowBinder::Binding::Slice;
    return true;
}

void ChromeFlowCollector::addSlice(const ChromeEvent& e, std::uint32_t order, Time ts, TrackId track,
                                   MeasurementId measurement)
{
    FlowBinder::Point point;
    if (!slicePoint(e, order, ts, point))
        return;
    point.track = track;
    point.measurement = measurement;
    m_builder.addFlowPoint(point);
}

void ChromeFlowCollector::deferSlice(const ChromeEvent& e, std::uint32_t order, Time ts)
{
    FlowBinder::Point point;
    if (slicePoint(e, order, ts, point))
        m_deferred[order] = point;
}

void ChromeFlowCollector::bindDeferred(std::uint32_t order, TrackId track, MeasurementId measurement)
{
    const auto it = m_deferred.find(order);
    if (it == m_deferred.end())
        return;
    FlowBinder::Point point = it->second;
    m_deferred.erase(it);
    point.track = track;
    point.measurement = measurement;
    m_builder.addFlowPoint(point);
}

void ChromeFlowCollector::finish(const std::function<TrackId(std::int64_t pid, std::int64_t tid)>& threadTrack)
{
    for (ThreadPoint& p : m_threadPoints) {
        p.point.track = threadTrack(p.pid, p.tid);
        m_builder.addFlowPoint(p.point);
    }
    std::vector<ThreadPoint>().swap(m_threadPoints);
    // No slice to bind to (an instant `n`, a `B` that was dropped): the
    // builder finds none and counts them unbound, with the others.
    for (const auto& [order, point] : m_deferred)
        m_builder.addFlowPoint(point);
    m_deferred.clear();
}

} // namespace runlane
