#include "samplestacklayout.h"

#include "loaderror.h"

namespace runlane {

SampleStackLayout::SampleStackLayout(ProfileBuilder& builder, TrackId track, Time start)
    : m_builder(builder), m_track(track), m_now(start)
{
}

void SampleStackLayout::closeTo(std::size_t depth)
{
    while (m_open.size() > depth) {
        const Open& o = m_open.back();
        m_builder.addCall(m_track, o.label, o.start, m_now, o.order);
        m_open.pop_back();
    }
}

void SampleStackLayout::add(std::span<const LabelId> stack, Time weight)
{
    if (weight < 0)
        throw FormatError("a sample weight is negative");
    std::size_t common = 0;
    while (common < m_open.size() && common < stack.size() && m_open[common].label == stack[common])
        ++common;
    closeTo(common);
    for (std::size_t d = common; d < stack.size(); ++d)
        m_open.push_back(Open{stack[d], m_now, m_order++});
    if (m_now > kTimeMax - 1 - weight)
        throw FormatError("the sample weights add up beyond range");
    m_now += weight;
}

void SampleStackLayout::skipTo(Time t)
{
    if (t < m_now)
        throw FormatError("a sample starts before the previous one ends");
    closeTo(0);
    m_now = t;
}

Time SampleStackLayout::finish()
{
    closeTo(0);
    m_builder.extendSpan(m_now);
    return m_now;
}

} // namespace runlane
