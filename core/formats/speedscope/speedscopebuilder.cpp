#include "speedscopebuilder.h"

#include "loaderror.h"
#include "samplestacklayout.h"

#include <algorithm>

namespace runlane {

namespace {

// ValueUnit and the power of ten from the unit's values to its ticks.
bool unitOf(const std::string& unit, ValueUnit& kind, int& scale)
{
    static const struct {
        const char* name;
        ValueUnit kind;
        int scale;
    } units[] = {{"nanoseconds", ValueUnit::Nanoseconds, 0}, {"microseconds", ValueUnit::Nanoseconds, 3},
                 {"milliseconds", ValueUnit::Nanoseconds, 6}, {"seconds", ValueUnit::Nanoseconds, 9},
                 {"bytes", ValueUnit::Bytes, 3},              {"none", ValueUnit::None, 3},
                 {"", ValueUnit::None, 3}};
    for (const auto& u : units) {
        if (unit == u.name) {
            kind = u.kind;
            scale = u.scale;
            return true;
        }
    }
    return false;
}

} // namespace

SpeedscopeBuilder::SpeedscopeBuilder(const SpeedscopeFile& file, ProfileBuilder& builder)
    : m_file(file), m_builder(builder), m_labels(file.frames.size(), kNone)
{
}

Time SpeedscopeBuilder::value(const Decimal& d, const std::string& what) const
{
    Time out = 0;
    if (scaleDecimal(d, m_scale, out) != ParseStatus::Ok)
        throw FormatError(what + " is out of range");
    return out;
}

LabelId SpeedscopeBuilder::labelOf(std::uint32_t frame, std::size_t profile)
{
    if (frame >= m_file.frames.size())
        throw FormatError("profile #" + std::to_string(profile) + " uses frame " + std::to_string(frame) + ", but only "
                          + std::to_string(m_file.frames.size()) + " frames are defined");
    if (m_labels[frame] == kNone) {
        const SpeedscopeFile::Frame& f = m_file.frames[frame];
        m_labels[frame] = m_builder.label(f.name, f.file, std::int32_t(f.line));
    }
    return m_labels[frame];
}

void SpeedscopeBuilder::build()
{
    if (m_file.profiles.empty())
        throw FormatError("the file holds no profiles");
    ValueUnit unit = ValueUnit::None;
    if (!unitOf(m_file.profiles.front().unit, unit, m_scale))
        throw FormatError("unknown unit '" + m_file.profiles.front().unit + "' of profile #0");
    m_builder.setUnit(unit);
    bool anySampled = false;
    for (std::size_t i = 0; i < m_file.profiles.size(); ++i) {
        const SpeedscopeFile::Profile& p = m_file.profiles[i];
        ValueUnit kind = ValueUnit::None;
        int scale = 0;
        if (!unitOf(p.unit, kind, scale) || kind != unit || scale != m_scale) {
            m_builder.diagnostics().warn("mixed units", "profile #" + std::to_string(i) + " is in '" + p.unit
                                                            + "', unlike the first; left out");
            continue;
        }
        TrackInfo info;
        info.tid = std::int64_t(i);
        info.threadSortIndex = std::int64_t(i);
        info.displayName = m_builder.intern(p.name.empty() ? "profile " + std::to_string(i + 1) : p.name);
        const TrackId track = m_builder.addTrack(info);
        if (p.hasStart)
            m_builder.extendSpan(value(p.startValue, "startValue"));
        if (p.hasEnd)
            m_builder.extendSpan(value(p.endValue, "endValue"));
        if (p.type == "evented") {
            evented(p, track, i);
        } else if (p.type == "sampled") {
            sampled(p, track, i);
            anySampled = true;
        } else {
            throw FormatError("profile #" + std::to_string(i) + " has type '" + p.type
                              + "'; expected \"evented\" or \"sampled\"");
        }
    }
    m_builder.setPrefersAggregatedView(anySampled);
}

void SpeedscopeBuilder::evented(const SpeedscopeFile::Profile& p, TrackId track, std::size_t index)
{
    struct Open {
        std::uint32_t frame;
        Time start;
        std::uint32_t order;
    };
    std::vector<Open> stack;
    Time last = kTimeMin;
    for (std::size_t k = 0; k < p.events.size(); ++k) {
        const SpeedscopeFile::Event& e = p.events[k];
        const Time at = value(e.at, "'at' of event #" + std::to_string(k));
        const LabelId label = labelOf(e.frame, index);
        if (at < last) {
            m_builder.diagnostics().warnWith("events out of order", [&] {
                return "profile #" + std::to_string(index) + ", event #" + std::to_string(k) + " goes back in time";
            });
        }
        last = std::max(last, at);
        if (e.open) {
            stack.push_back(Open{e.frame, at, m_order++});
            continue;
        }
        auto match = std::find_if(stack.rbegin(), stack.rend(), [&](const Open& o) { return o.frame == e.frame; });
        if (match == stack.rend()) {
            m_builder.diagnostics().warnWith("close without open", [&] {
                return "profile #" + std::to_string(index) + ", event #" + std::to_string(k) + " closes frame '"
                    + m_file.frames[e.frame].name + "', which is not open; ignored";
            });
            continue;
        }
        // Frames opened inside it and left open close with it.
        while (stack.back().frame != e.frame || &stack.back() != &*match) {
            m_builder.diagnostics().warnWith("frames closed out of order", [&] {
                return "profile #" + std::to_string(index) + ", event #" + std::to_string(k) + " closes frame '"
                    + m_file.frames[e.frame].name + "' while '" + m_file.frames[stack.back().frame].name
                    + "' is open inside it";
            });
            const Open& inner = stack.back();
            m_builder.addCall(track, m_labels[inner.frame], inner.start, at, inner.order);
            stack.pop_back();
        }
        m_builder.addCall(track, label, stack.back().start, std::max(at, stack.back().start), stack.back().order);
        stack.pop_back();
    }
    for (const Open& open : stack) {
        m_builder.diagnostics().warnWith("frame never closed", [&] {
            return "profile #" + std::to_string(index) + ": frame '" + m_file.frames[open.frame].name
                + "' is never closed; it ends with the profile";
        });
        m_builder.addCall(track, m_labels[open.frame], open.start, ProfileBuilder::kOpen, open.order);
    }
}

void SpeedscopeBuilder::sampled(const SpeedscopeFile::Profile& p, TrackId track, std::size_t index)
{
    const std::size_t samples = p.sampleStart.size() - 1;
    if (p.weights.size() != samples) {
        m_builder.diagnostics().warn("weights", "profile #" + std::to_string(index) + " has "
                                                    + std::to_string(p.weights.size()) + " weights for "
                                                    + std::to_string(samples) + " samples; missing ones count 1");
    }
    SampleStackLayout layout(m_builder, track, p.hasStart ? value(p.startValue, "startValue") : 0);
    Time unit = 0;
    scaleDecimal(Decimal{false, 1, 0}, m_scale, unit);
    std::vector<LabelId> stack;
    for (std::size_t k = 0; k < samples; ++k) {
        stack.clear();
        for (std::uint32_t s = p.sampleStart[k]; s < p.sampleStart[k + 1]; ++s)
            stack.push_back(labelOf(p.sampleFrames[s], index));
        const Time weight = k < p.weights.size() ? value(p.weights[k], "weight #" + std::to_string(k)) : unit;
        layout.add(stack, weight);
    }
    layout.finish();
}

} // namespace runlane
