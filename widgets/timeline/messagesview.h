#pragma once

#include "processmessages.h"
#include "timelineview.h"

#include <memory>
#include <optional>
#include <vector>

namespace runlane {

class Profile;
class ProfileDocument;

// The messages between the profile's processes on the shared time axis
// (issue 43, formats.md (n)'s beanpoles turned sideways): one horizontal
// pole per process, an arrow per message from its sender's pole to its
// receiver's at the time it was sent (and received), labelled by its
// endpoint where there is room; a request and its response, paired by
// request id, as a bracket on the requester's pole spanning the round trip.
// The round-trip table's endpoint (MessagesState's highlight) is drawn in
// its own colour, the others faint; a click selects a message.
//
// Painting looks up only the visible messages: per pair of poles their
// times are sorted, each pixel bucket of kMergePixels px is found by binary
// search and drawn as one arrow however many messages it holds, so a frame
// costs O(pairs × columns × log n) and not O(n).
//
// As a panel of a window the view shows itself only while the profile has
// messages (and the timeline is shown, not the aggregated flame graph).
class MessagesView : public TimelineView
{
    Q_OBJECT

public:
    // Between two poles three rows of labels: the arrows going down (under
    // the upper pole), those going up (in the middle), and the round trips
    // of the brackets on the lower pole (above it).
    static constexpr int kPoleSpacing = 52;
    static constexpr int kMargin = 24; // above the first pole and below the last
    // Messages of one pair of poles closer than this share an arrow (a bracket).
    static constexpr int kMergePixels = 3;

    explicit MessagesView(ProfileDocument* document, QWidget* parent = nullptr);

    void paintContent(QPainter& painter, QSize size, int scrollY) const override;
    int contentHeight() const override;
    bool hasContent() const;

    // What a paint `timeWidth` px wide draws, in drawing order: the arrows,
    // the brackets, then the highlighted endpoint's arrows and brackets over
    // them, then the selected message's.
    struct Item {
        enum class Kind : std::uint8_t { Arrow, Bracket };
        Kind kind = Kind::Arrow;
        std::uint32_t message = kNone; // the first (a bracket's: its request)
        std::uint32_t count = 1; // messages (requests) merged into it
        double x = 0; // sent (the request), in the time area
        double xEnd = 0; // received (the response)
        bool highlighted = false;
        bool selected = false;
        bool labelled = false; // its endpoint (round trip) written beside it
    };
    std::vector<Item> items(int timeWidth) const;

    std::size_t poleCount() const;
    // A pole's y in content coordinates.
    static int poleY(std::size_t pole) { return kMargin + int(pole) * kPoleSpacing; }
    // The message under a point in widget coordinates (an arrow's or a
    // bracket's first); kNone if none.
    std::uint32_t messageAt(QPoint pos) const;
    // What the tooltip says there ("" if nothing is there).
    QString describeAt(QPoint pos) const;
    // A message in words: from → to, kind and name, request id, time, round trip.
    static QString describe(const Profile& profile, const ProcessMessages& messages, std::uint32_t message);

protected:
    void paintMargin(QPainter& p, const QRect& margin) const override;
    void clicked(QPoint pos) override;
    QString toolTipAt(QPoint pos) const override;

private:
    // One direction between two poles: its messages (or paired requests) in time order.
    struct Lane {
        std::uint32_t from = 0;
        std::uint32_t to = 0;
        std::vector<Time> times;
        std::vector<std::uint32_t> messages;
    };

    void dropProfile();
    void rebuild();
    void rebuildHighlight();
    void updateVisibility();
    const ProcessMessages& model() const;
    // Appends a lane's items between `from` and `to`, merged per pixel bucket.
    void collect(const Lane& lane, Item::Kind kind, Time from, Time to, int timeWidth, bool highlighted,
                 std::vector<Item>& out) const;
    // The item under a point in widget coordinates, topmost first.
    std::optional<Item> itemAt(QPoint pos) const;
    void collectAll(const std::vector<Lane>& arrows, const std::vector<Lane>& brackets, int timeWidth, bool highlighted,
                    std::vector<Item>& out) const;
    Item itemOf(Item::Kind kind, std::uint32_t message, int timeWidth) const;
    void label(std::vector<Item>& items, std::size_t from) const;
    QString labelOf(const Item& item) const;
    void paintItem(QPainter& p, const Item& item, int scroll, bool faint) const;

    std::shared_ptr<const Profile> m_profile; // the profile of the lanes, while open
    std::vector<Lane> m_arrows;
    std::vector<Lane> m_brackets; // the paired requests, on their requester's pole
    std::vector<Lane> m_highlightArrows; // the highlighted endpoint's
    std::vector<Lane> m_highlightBrackets;
    Time m_longestTrip = 0; // how far left of the view a bracket may start
};

} // namespace runlane
