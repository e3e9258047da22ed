#include "previewtarget.h"

#include "profilebuilder.h"

namespace runlane {

PreviewTarget::PreviewTarget(ProfileBuilder& preview, const ProfileBuilder& source, const PreviewSettings& settings)
    : m_preview(preview), m_source(source), m_settings(settings), m_labels(source.labelCount(), kNone)
{
}

// Only the strings of the tracks and of the labels kept are interned again.
StringId PreviewTarget::string(StringId source)
{
    return source == kEmptyString ? kEmptyString : m_preview.intern(m_source.string(source));
}

LabelId PreviewTarget::label(LabelId source)
{
    LabelId& label = m_labels[source];
    if (label == kNone) {
        const Label& l = m_source.labelOf(source);
        label = m_preview.label(string(l.name), string(l.file), l.line);
    }
    return label;
}

TrackId PreviewTarget::addTrack(TrackInfo info)
{
    // The source's own tracks come first, in order, so they keep their ids;
    // a format's few late ones are looked up by kind and thread.
    const bool late = m_preview.trackCount() >= m_source.trackCount();
    if (late) {
        for (const auto& [added, id] : m_added) {
            if (added.kind == info.kind && added.pid == info.pid && added.tid == info.tid)
                return id;
        }
    }
    const TrackInfo asRead = info;
    if (m_settings.nameTrack)
        m_settings.nameTrack(info);
    info.displayName = string(info.displayName);
    info.processName = string(info.processName);
    info.threadName = string(info.threadName);
    info.laneGroup = string(info.laneGroup);
    const TrackId id = m_preview.addTrack(info);
    if (late)
        m_added.emplace_back(asRead, id);
    return id;
}

} // namespace runlane
