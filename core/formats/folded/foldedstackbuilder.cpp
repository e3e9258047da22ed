#include "foldedstackbuilder.h"

namespace runlane {

namespace {

TrackId stackTrack(ProfileBuilder& builder)
{
    TrackInfo info;
    info.displayName = builder.intern("stacks");
    return builder.addTrack(info);
}

} // namespace

FoldedStackBuilder::FoldedStackBuilder(ProfileBuilder& builder)
    : m_builder(builder), m_layout(builder, stackTrack(builder), 0)
{
    m_builder.setUnit(ValueUnit::Samples);
    m_builder.setPrefersAggregatedView(true);
}

void FoldedStackBuilder::addStack(std::string_view stack, Time count, std::uint64_t)
{
    // Every ';' separates two frames, so "a;;b" is three frames deep and
    // "a;b;" ends in a blank one: an empty frame is a frame with an empty
    // name (as in flamegraph.pl, inferno and speedscope), never a level
    // dropped, which would bill its samples to its parent.
    m_stack.clear();
    for (std::size_t pos = 0; pos <= stack.size();) {
        std::size_t end = stack.find(';', pos);
        if (end == std::string_view::npos)
            end = stack.size();
        m_stack.push_back(m_builder.label(stack.substr(pos, end - pos)));
        pos = end + 1;
    }
    m_layout.add(m_stack, count);
    ++m_lines;
}

void FoldedStackBuilder::finish()
{
    m_layout.finish();
}

} // namespace runlane
