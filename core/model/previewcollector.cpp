#include "previewcollector.h"

#include "previewtarget.h"
#include "profilebuilder.h"

#include <algorithm>
#include <array>
#include <bit>

namespace runlane {

PreviewCollector::PreviewCollector(PreviewSettings settings)
    : m_settings(std::move(settings)), m_next(m_settings.start + std::chrono::milliseconds(m_settings.firstMs))
{
    m_settings.budget = std::max<std::size_t>(m_settings.budget, 1);
    m_items.reserve(m_settings.budget + 1);
}

void PreviewCollector::raise()
{
    // How many items are at least 2^k long, for every k at once: a count
    // per bit width (an item of width w is at least 2^(w-1) long).
    std::array<std::size_t, 66> atLeast{};
    for (const PreviewItem& item : m_items)
        ++atLeast[std::size_t(std::bit_width(duration(item)))];
    for (std::size_t w = atLeast.size() - 1; w-- > 0;)
        atLeast[w] += atLeast[w + 1];
    int k = m_threshold == 0 ? 0
        : m_threshold == kTimeMax ? 63
                                  : std::countr_zero(std::uint64_t(m_threshold)) + 1;
    // Items at least 2^k long have a bit width of k + 1 or more.
    while (k < 63 && atLeast[std::size_t(k) + 1] > m_settings.budget)
        ++k;
    m_threshold = k < 63 ? Time(1) << k : kTimeMax;
    const std::uint64_t shortest = std::uint64_t(m_threshold);
    std::erase_if(m_items, [shortest](const PreviewItem& item) { return duration(item) < shortest; });
}

bool PreviewCollector::due(std::chrono::steady_clock::time_point now)
{
    if (now < m_next)
        return false;
    // From now, not from when it was due: a preview late behind a slow
    // stretch of the load is not followed by a burst catching up. Less 5 %
    // (the events until the clock is read again), so that previews arrive
    // at least every everyMs.
    m_next = now + std::chrono::milliseconds(m_settings.everyMs - m_settings.everyMs / 20);
    m_anyDue = true;
    return true;
}

std::shared_ptr<const Profile> PreviewCollector::build(const ProfileBuilder& source, const PartialLoad& partial) const
{
    ProfileBuilder preview(std::string(source.formatName()), source.sourcePath());
    PreviewTarget target(preview, source, m_settings);
    for (TrackId t = 0; t < source.trackCount(); ++t)
        target.addTrack(source.trackInfo(t));
    preview.reserve(m_items.size());
    for (const PreviewItem& item : m_items)
        preview.addCall(item.track, target.label(item.label), item.start, item.end, item.order);
    PartialLoad shown = partial;
    if (m_settings.addTasks) {
        const std::optional<std::uint64_t> leftOut = m_settings.addTasks(target);
        shown.holdsTasks = leftOut.has_value();
        shown.tasksLeftOut = leftOut.value_or(0);
    }
    const auto [from, to] = source.spanSoFar();
    if (from <= to) {
        preview.extendSpan(from);
        preview.extendSpan(to);
    }
    preview.setPartial(shown);
    return preview.build();
}

} // namespace runlane
