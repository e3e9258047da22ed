#pragma once

#include "previewcollector.h"
#include "profiletypes.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace runlane {

class ProfileBuilder;

// A preview being built (PreviewCollector::build), as a format's
// PreviewSettings::addTasks sees it: the source's labels and strings are
// interned again in the preview, and its tracks keep their ids there.
class PreviewTarget
{
public:
    PreviewTarget(ProfileBuilder& preview, const ProfileBuilder& source, const PreviewSettings& settings);

    ProfileBuilder& profile() { return m_preview; }
    std::size_t taskBudget() const { return m_settings.taskBudget; }
    StringId string(StringId source);
    LabelId label(LabelId source);
    // A track the source does not have yet (the format adds it at the end
    // of the file), in the source's strings: added once to the preview,
    // named as the format names its tracks; the same (kind, pid, tid) again
    // is the same track.
    TrackId addTrack(TrackInfo info);

private:
    ProfileBuilder& m_preview;
    const ProfileBuilder& m_source;
    const PreviewSettings& m_settings;
    std::vector<LabelId> m_labels; // by the source's label; kNone: not yet
    std::vector<std::pair<TrackInfo, TrackId>> m_added;
};

} // namespace runlane
