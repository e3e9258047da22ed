#include "nodeasynchooks.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

namespace runlane {

namespace {

constexpr std::string_view kCallbackSuffix = "_CALLBACK";

} // namespace

bool NodeAsyncHooks::isCallback(std::string_view name)
{
    return name.size() > kCallbackSuffix.size() && name.ends_with(kCallbackSuffix);
}

// Node writes the id as a hexadecimal string ("0x2c"); a number is taken as
// it is. Async ids are positive; Node writes -1 ("0xffffffffffffffff") for
// a resource whose id was already reset, which names no resource.
bool NodeAsyncHooks::parseAsyncId(const ChromeEvent::Value& id, std::int64_t& asyncId)
{
    if (id.kind == ChromeEvent::Value::Number) {
        asyncId = id.number;
        return asyncId > 0;
    }
    const std::optional<std::uint64_t> number = id.hexNumber();
    if (!number || *number == 0 || *number > std::uint64_t(INT64_MAX))
        return false;
    asyncId = std::int64_t(*number);
    return true;
}

std::uint32_t NodeAsyncHooks::resourceFor(Key key, Time ts, std::uint32_t order, StringId type)
{
    const auto [it, added] = m_byAsyncId.try_emplace(key, std::uint32_t(m_resources.size()));
    if (added) {
        // Seen first by a callback or a destroy: created before the trace
        // started. It lives from its first event on.
        Resource r;
        r.init = ts;
        r.order = order;
        r.track = key.track;
        r.type = type;
        r.label = m_builder.label(type);
        m_resources.push_back(r);
    }
    return it->second;
}

void NodeAsyncHooks::add(const ChromeEvent& e, char kind, Time ts, std::uint32_t order, TrackId track,
                         LabelId label, StringId name)
{
    std::int64_t asyncId = 0;
    if (!parseAsyncId(e.id, asyncId)) {
        ++m_badIds;
        return;
    }
    if (kind != 'b' && kind != 'e')
        return; // Node writes no instants here; a stray one changes no lifetime
    const std::string_view text = e.name;
    if (isCallback(text)) {
        const StringId type = m_builder.intern(text.substr(0, text.size() - kCallbackSuffix.size()));
        const std::uint32_t resource = resourceFor(Key{track, asyncId}, ts, order, type);
        m_callbacks.push_back(Callback{resource, ts, order, kind == 'b'});
        return;
    }
    const std::uint32_t index = resourceFor(Key{track, asyncId}, ts, order, name);
    Resource& r = m_resources[index];
    if (kind == 'e') {
        // Node writes some destroys twice; the first one ends the resource.
        r.destroy = std::min(r.destroy, ts);
        return;
    }
    if (r.initSeen)
        return; // ids are never reused within a thread: a repeated init
    r.initSeen = true;
    r.init = std::min(r.init, ts);
    r.order = order;
    r.label = label;
    r.type = name;
    readIds(e, r);
}

// `args.data` is {"executionAsyncId": N, "triggerAsyncId": M}, kept as
// text by the tokenizer (ChromeEvent::argData).
void NodeAsyncHooks::readIds(const ChromeEvent& e, Resource& resource)
{
    if (!e.hasArgData)
        return;
    simdjson::dom::object data;
    if (m_parser.parse(e.argData).get(data))
        return;
    auto read = [&data](const char* key, std::int64_t& out) {
        std::int64_t value = 0;
        if (!data[key].get(value))
            out = value;
    };
    read("executionAsyncId", resource.execution);
    read("triggerAsyncId", resource.trigger);
}

MeasurementId NodeAsyncHooks::measurementOf(TrackId track, std::int64_t asyncId,
                                            const std::vector<MeasurementId>& measurements) const
{
    if (asyncId <= 0)
        return kNone;
    const auto it = m_byAsyncId.find(Key{track, asyncId});
    return it == m_byAsyncId.end() ? kNone : measurements[it->second];
}

void NodeAsyncHooks::finish()
{
    if (m_badIds > 0)
        m_builder.diagnostics().warn("async_hooks event without a resource id",
                                     std::to_string(m_badIds) + " async_hooks events have no resource id (Node writes "
                                         "-1 for a resource already reset); they are ignored");
    // In creation order, so that a creator has its measurement before the
    // resources it created (it was created before them).
    std::vector<std::uint32_t> order(m_resources.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const Resource& x = m_resources[a];
        const Resource& y = m_resources[b];
        return x.init != y.init ? x.init < y.init : x.order < y.order;
    });
    std::vector<MeasurementId> measurements(m_resources.size(), kNone);
    if (!m_resources.empty()) {
        m_builder.setHidesTasksThatNeverRan(true); // thousands of promises that never run a callback
        m_builder.setWakeSource(WakeSource::Creators); // a resource's creator ran its init
        m_builder.setTasksNameTheirCreator(true); // an added CPU profile knows the JS function
    }
    for (const std::uint32_t index : order) {
        const Resource& r = m_resources[index];
        // The main script (1) and "no JavaScript" (0) are no resource: a root.
        const MeasurementId creator = measurementOf(r.track, r.execution, measurements);
        measurements[index] = m_builder.addMeasurement(r.track, r.label, r.init, creator, AsyncMeasurement);
    }
    for (std::size_t index = 0; index < m_resources.size(); ++index) {
        const MeasurementId trigger = measurementOf(m_resources[index].track, m_resources[index].trigger, measurements);
        // Usually the creator itself (Node's callbacks trigger what they
        // create): a link only when it says more.
        if (trigger != kNone && trigger != m_builder.measurement(measurements[index]).creator)
            m_builder.addTrigger(measurements[index], trigger);
    }
    buildCallbacks(measurements);
    std::map<StringId, std::uint64_t> neverDestroyed; // by type
    for (std::size_t index = 0; index < m_resources.size(); ++index) {
        const Resource& r = m_resources[index];
        if (r.destroy != kTimeMax) {
            m_builder.finish(measurements[index], std::max(r.destroy, r.init), FinalState::Completed);
            continue;
        }
        ++neverDestroyed[r.type];
    }
    warnUnfinished(neverDestroyed);
    std::vector<Resource>().swap(m_resources);
    m_byAsyncId.clear();
}

// Each resource's callback runs, `b` to `e` in time order. A callback of a
// resource inside another of the same resource (Node does not write that)
// stays part of the outer run.
void NodeAsyncHooks::buildCallbacks(const std::vector<MeasurementId>& measurements)
{
    std::stable_sort(m_callbacks.begin(), m_callbacks.end(), [](const Callback& a, const Callback& b) {
        return a.resource != b.resource ? a.resource < b.resource : a.ts < b.ts;
    });
    std::uint64_t unmatched = 0;
    std::uint64_t unended = 0;
    for (std::size_t i = 0; i < m_callbacks.size();) {
        const std::uint32_t resource = m_callbacks[i].resource;
        const MeasurementId m = measurements[resource];
        std::uint32_t depth = 0;
        const Callback* open = nullptr;
        for (; i < m_callbacks.size() && m_callbacks[i].resource == resource; ++i) {
            const Callback& c = m_callbacks[i];
            if (c.begin) {
                if (depth++ == 0)
                    open = &c;
                continue;
            }
            if (depth == 0) {
                ++unmatched;
                continue;
            }
            if (--depth == 0)
                m_builder.addInterval(m, open->ts, c.ts, open->order);
        }
        if (depth > 0) {
            ++unended;
            m_builder.addInterval(m, open->ts, ProfileBuilder::kOpen, open->order);
        }
    }
    if (unmatched > 0)
        m_builder.diagnostics().warn("async_hooks callback end without begin",
                                     std::to_string(unmatched) + " callback ends have no begin; they are ignored");
    if (unended > 0)
        m_builder.diagnostics().warn("async_hooks callback never ended",
                                     std::to_string(unended) + " callbacks never end; they end with the profile");
    std::vector<Callback>().swap(m_callbacks);
}

// One line for all of them: promises alone are often thousands.
void NodeAsyncHooks::warnUnfinished(const std::map<StringId, std::uint64_t>& neverDestroyed)
{
    std::vector<std::pair<std::uint64_t, std::string_view>> byCount; // most first, then by name
    std::uint64_t total = 0;
    for (const auto& [type, count] : neverDestroyed) {
        byCount.emplace_back(count, m_builder.string(type));
        total += count;
    }
    std::sort(byCount.begin(), byCount.end(),
              [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    if (total == 0)
        return;
    std::string message = std::to_string(total) + (total == 1 ? " async resource was" : " async resources were")
        + " never destroyed and stay unfinished (";
    std::size_t listed = 0;
    for (const auto& [count, type] : byCount) {
        if (listed++ == 6) {
            message += ", …";
            break;
        }
        message += (listed > 1 ? ", " : "") + std::to_string(count) + " "
            + std::string(type);
    }
    m_builder.diagnostics().warn("async resource never destroyed", message + ")");
}

} // namespace runlane
