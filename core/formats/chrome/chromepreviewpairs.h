#pragma once

#include "chromeevent.h"
#include "profilebuilder.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace runlane {

// A Chrome trace while it loads, for the previews (LoadControl::preview)
// and for a load stopped and kept (LoadControl::keepPartial): how many
// events were read, whether they came in time order, and the B/E pairs of
// each thread matched in file order on a stack as they complete, so that
// a preview shows them (ChromeTraceBuilder matches them for good only at
// the end of the file, after a sort: a B/E out of time order is skipped
// here, never there). X events reach the previews through addCall.
// Only made when the load wants either: a plain load pays nothing.
class ChromePreviewPairs
{
public:
    // Sets the builder's preview hooks (when previews are on): the time
    // known complete, and the track names the metadata so far gives.
    ChromePreviewPairs(ProfileBuilder& builder, std::function<void(TrackInfo&)> nameTrack);

    // Every event, before the builder takes it.
    void event(const ChromeEvent& e, std::uint64_t index)
    {
        m_builder.pollPreview(index); // a preview of the events before this one
        m_events = index + 1;
        // Metadata carries a ts of 0 or none, wherever it is written.
        if (e.ts.kind == ChromeEvent::TimeValue::Ok && !(e.ph.size() == 1 && e.ph[0] == 'M')) {
            m_inOrder = m_inOrder && e.ts.ns >= m_latest;
            m_latest = std::max(m_latest, e.ts.ns);
        }
    }
    void beginEnd(TrackId track, Time ts, LabelId label, bool begin, std::uint32_t order);
    // An async 'b' or 'e' (others ignored): while any is open, nothing
    // after the first open one's start is known complete.
    void async(char kind, Time ts);

    std::uint64_t eventsRead() const { return m_events; }
    // PartialLoad::completeUpTo: the latest timestamp read if every event
    // came in time order, but no later than the start of a slice still
    // open (its end is still to come); kTimeMin once one came out of order.
    Time completeUpTo() const;

private:
    struct Open {
        Time ts;
        LabelId label;
        std::uint32_t order;
    };

    ProfileBuilder& m_builder;
    std::vector<std::vector<Open>> m_stacks; // by track
    std::uint64_t m_events = 0;
    Time m_latest = kTimeMin;
    bool m_inOrder = true;
    std::int64_t m_asyncOpen = 0;
    Time m_asyncOpenSince = kTimeMax;
};

} // namespace runlane
