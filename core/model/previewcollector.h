#pragma once

#include "profile.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace runlane {

class ProfileBuilder;
class PreviewTarget;

// How a load makes its previews (LoadControl::preview), handed by the
// loader to ProfileBuilder::setPreviewSettings; a format that can show a
// part of its file starts them (ProfileBuilder::startPreviews).
struct PreviewSettings {
    std::function<void(std::shared_ptr<const Profile>)> emit;
    // (bytes read, total bytes; -1 unknown) when a preview is made.
    std::function<std::pair<std::int64_t, std::int64_t>()> bytes;
    int firstMs = 250;
    int everyMs = 1000;
    // 100,000: a preview of generated 1 M and 5 M event traces builds in
    // 4-14 ms; 150,000 kept 126,521 calls at 1 M, 22-40 ms, and more
    // while the load runs beside it (docs/performance.md).
    std::size_t budget = 100'000;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    // Set by the format: the time before which its events so far are
    // complete (PartialLoad::completeUpTo), and the names it gives a
    // track at the end of the file (metadata may come late). Either null.
    std::function<Time()> completeUpTo;
    std::function<void(TrackInfo&)> nameTrack;
    // Set by a format that builds its tasks only at the end of the file
    // (Chrome's async slices, matched after a sort by time): adds the tasks
    // its events so far make to a preview, at most `taskBudget` of them,
    // and returns how many it left out; none if it cannot (that preview
    // holds calls only). Null: the previews hold calls only.
    std::function<std::optional<std::uint64_t>(PreviewTarget&)> addTasks;
    // The longest-lived are kept (LoadControl::previewTaskBudget).
    std::size_t taskBudget = 10'000;
};

// One completed interval offered to a preview.
struct PreviewItem {
    Time start;
    Time end;
    TrackId track;
    LabelId label;
    std::uint32_t order;
};

// The intervals a preview shows, bounded whatever the file's size: those at
// least threshold() long. When more than `budget` are held, the threshold
// goes up to the smallest power of two at least twice the old one (1 ns
// from 0) under which no more than `budget` remain, and the shorter ones
// are dropped. A call on a thread never outlasts its caller, so whole
// nestings are kept: a kept call's callers are kept too. The threshold only
// goes up and at least doubles each time, so it rises at most 63 times and
// an offer costs O(1) amortized. The preview is built from the kept items
// alone, a profile a few milliseconds' work whatever was read before.
class PreviewCollector
{
public:
    explicit PreviewCollector(PreviewSettings settings);

    void offer(const PreviewItem& item)
    {
        if (item.end == kTimeMax || duration(item) < std::uint64_t(m_threshold))
            return;
        m_items.push_back(item);
        if (m_items.size() > m_settings.budget)
            raise();
    }
    // Intervals shorter than this are dropped (PartialLoad::shortestKept).
    Time threshold() const { return m_threshold; }
    std::span<const PreviewItem> items() const { return m_items; }
    PreviewSettings& settings() { return m_settings; }

    // True when a preview is due at `now`; the next is due 0.95 everyMs
    // later.
    bool due(std::chrono::steady_clock::time_point now);
    // True once due() said so: previews are being shown.
    bool anyDue() const { return m_anyDue; }
    // The preview of what `source` has read: its tracks (named as the
    // format names them at the end), the kept items as calls, the tasks the
    // format adds (PreviewSettings::addTasks), `partial`.
    std::shared_ptr<const Profile> build(const ProfileBuilder& source, const PartialLoad& partial) const;

private:
    static std::uint64_t duration(const PreviewItem& item)
    {
        return std::uint64_t(item.end) - std::uint64_t(item.start);
    }
    void raise();

    PreviewSettings m_settings;
    std::vector<PreviewItem> m_items;
    Time m_threshold = 0;
    std::chrono::steady_clock::time_point m_next;
    bool m_anyDue = false;
};

} // namespace runlane
