#include "chromepreviewpairs.h"

#include <algorithm>

namespace runlane {

ChromePreviewPairs::ChromePreviewPairs(ProfileBuilder& builder, std::function<void(TrackInfo&)> nameTrack)
    : m_builder(builder)
{
    if (PreviewSettings* settings = builder.previewSettings()) {
        settings->nameTrack = std::move(nameTrack);
        settings->completeUpTo = [this] { return completeUpTo(); };
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

void ChromePreviewPairs::async(char kind, Time ts)
{
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

} // namespace runlane
