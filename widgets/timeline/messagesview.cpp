#include "messagesview.h"

#include "colorscheme.h"
#include "messagesformatter.h"
#include "messagesstate.h"
#include "profile.h"
#include "profiledocument.h"
#include "qstringutf8.h"
#include "timeaxis.h"
#include "valueformat.h"

#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>
#include <map>

namespace runlane {

namespace {

constexpr int kBracketOffset = 8; // px from the requester's pole
constexpr int kHitPixels = 4;
constexpr int kLabelGap = 4;

// The highlighted endpoint's colour: apart from the text, the selection and the flows.
QColor highlightColor()
{
    return ColorScheme::isDark() ? QColor(255, 170, 60) : QColor(215, 110, 0);
}

} // namespace

MessagesView::MessagesView(ProfileDocument* document, QWidget* parent) : TimelineView(document, parent)
{
    setMinimumHeight(kMargin * 2);
    setScrollStep(kPoleSpacing);
    connect(m_axis, &TimeAxis::visibleRangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_document, &ProfileDocument::profileAboutToChange, this, &MessagesView::dropProfile);
    connect(m_document, &ProfileDocument::profileChanged, this, &MessagesView::rebuild);
    connect(m_document, &ProfileDocument::viewModeChanged, this, [this] {
        updateVisibility();
        update();
    });
    MessagesState* state = m_document->messages();
    connect(state, &MessagesState::changed, this, &MessagesView::rebuild);
    connect(state, &MessagesState::highlightChanged, this, [this] {
        rebuildHighlight();
        update();
    });
    connect(state, &MessagesState::selectionChanged, this, qOverload<>(&QWidget::update));
    rebuild();
}

const ProcessMessages& MessagesView::model() const
{
    return m_document->messages()->messages();
}

bool MessagesView::hasContent() const
{
    return !m_arrows.empty() && !m_document->isAggregated();
}

std::size_t MessagesView::poleCount() const
{
    return m_arrows.empty() ? 0 : model().processes().size();
}

int MessagesView::contentHeight() const
{
    const std::size_t poles = poleCount();
    return poles == 0 ? 0 : 2 * kMargin + int(poles - 1) * kPoleSpacing;
}

void MessagesView::dropProfile()
{
    m_profile.reset();
    m_arrows.clear();
    m_brackets.clear();
    m_highlightArrows.clear();
    m_highlightBrackets.clear();
    m_longestTrip = 0;
    updateScrollBar();
    updateVisibility();
    update();
}

namespace {

// Appends message `index` to the lane of its direction, made if new.
void addToLane(auto& lanes, std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t>& byPair,
               const ProcessMessages::Message& m, std::uint32_t index)
{
    const auto [it, added] = byPair.try_emplace({m.from, m.to}, lanes.size());
    if (added) {
        lanes.emplace_back();
        lanes.back().from = m.from;
        lanes.back().to = m.to;
    }
    lanes[it->second].times.push_back(m.time);
    lanes[it->second].messages.push_back(index);
}

} // namespace

void MessagesView::rebuild()
{
    dropProfile();
    // MessagesState has the messages of the open profile (it is set before profileChanged).
    m_profile = m_document->sharedProfile();
    if (m_profile) {
        const std::vector<ProcessMessages::Message>& messages = model().messages();
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> arrows;
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> brackets;
        for (std::uint32_t i = 0; i < messages.size(); ++i) {
            const ProcessMessages::Message& m = messages[i];
            addToLane(m_arrows, arrows, m, i);
            if (m.kind == ProcessMessages::Kind::Request && m.pairedWith < messages.size()) {
                addToLane(m_brackets, brackets, m, i);
                m_longestTrip = std::max(m_longestTrip, messages[m.pairedWith].time - m.time);
            }
        }
        rebuildHighlight();
    }
    m_scroll->setValue(0);
    updateScrollBar();
    updateVisibility();
    update();
}

void MessagesView::rebuildHighlight()
{
    m_highlightArrows.clear();
    m_highlightBrackets.clear();
    const std::string& endpoint = m_document->messages()->highlightedEndpoint();
    if (endpoint.empty() || !m_profile)
        return;
    const std::vector<ProcessMessages::Message>& messages = model().messages();
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> arrows;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> brackets;
    for (std::uint32_t i = 0; i < messages.size(); ++i) {
        const ProcessMessages::Message& m = messages[i];
        if (m.name != endpoint)
            continue;
        addToLane(m_highlightArrows, arrows, m, i);
        if (m.kind == ProcessMessages::Kind::Request && m.pairedWith < messages.size())
            addToLane(m_highlightBrackets, brackets, m, i);
    }
}

void MessagesView::updateVisibility()
{
    // A window (a test's, an export's) is shown by whoever made it.
    if (!isWindow())
        setVisible(hasContent());
}

MessagesView::Item MessagesView::itemOf(Item::Kind kind, std::uint32_t message, int timeWidth) const
{
    const std::vector<ProcessMessages::Message>& messages = model().messages();
    const ProcessMessages::Message& m = messages[message];
    Item item;
    item.kind = kind;
    item.message = message;
    item.x = m_axis->xFor(m.time, timeWidth);
    const bool bracket = kind == Item::Kind::Bracket && m.pairedWith < messages.size();
    item.xEnd = m_axis->xFor(bracket ? messages[m.pairedWith].time : m.arrival, timeWidth);
    return item;
}

void MessagesView::collect(const Lane& lane, Item::Kind kind, Time from, Time to, int timeWidth, bool highlighted,
                           std::vector<Item>& out) const
{
    // One item per bucket of kMergePixels px: the bucket's first message is
    // found by binary search, and so is the next bucket's. Left of the view
    // (brackets reaching into it) the buckets are as wide as it takes to
    // have no more of them than in the view.
    const std::vector<Time>& times = lane.times;
    const Time visible = m_axis->visibleStart();
    const int buckets = std::max(1, timeWidth / kMergePixels);
    const Time leftBucket = std::max<Time>(1, (visible - std::min(from, visible)) / buckets);
    auto i = std::lower_bound(times.begin(), times.end(), from);
    while (i != times.end() && *i <= to) {
        Item item = itemOf(kind, lane.messages[std::size_t(i - times.begin())], timeWidth);
        Time bucketEnd = 0;
        if (*i < visible)
            bucketEnd = std::min(visible, *i + leftBucket);
        else
            bucketEnd = m_axis->timeAt((std::floor(item.x / kMergePixels) + 1) * kMergePixels, timeWidth);
        const auto next = std::lower_bound(i + 1, times.end(), bucketEnd);
        item.count = std::uint32_t(next - i);
        item.highlighted = highlighted;
        if (kind == Item::Kind::Arrow || item.xEnd >= 0) // a bracket that ends left of the view is not drawn
            out.push_back(item);
        i = next;
    }
}

void MessagesView::collectAll(const std::vector<Lane>& arrows, const std::vector<Lane>& brackets, int timeWidth,
                              bool highlighted, std::vector<Item>& out) const
{
    const Time from = m_axis->visibleStart();
    const Time to = m_axis->visibleEnd();
    for (const Lane& lane : arrows) {
        const std::size_t first = out.size();
        collect(lane, Item::Kind::Arrow, from, to, timeWidth, highlighted, out);
        label(out, first);
    }
    // A bracket starts up to the longest round trip left of the view.
    const Time reach = from >= kTimeMin + m_longestTrip ? from - m_longestTrip : kTimeMin;
    for (const Lane& lane : brackets) {
        const std::size_t first = out.size();
        collect(lane, Item::Kind::Bracket, reach, to, timeWidth, highlighted, out);
        label(out, first);
    }
}

QString MessagesView::labelOf(const Item& item) const
{
    const ProcessMessages::Message& m = model().messages()[item.message];
    if (item.kind == Item::Kind::Arrow)
        return qs(m.name);
    const Time trip = model().messages()[m.pairedWith].time - m.time;
    return QString::fromStdString(ValueFormat::text(trip, m_profile->unit()));
}

void MessagesView::label(std::vector<Item>& items, std::size_t from) const
{
    // Left to right along one lane: a message alone in its bucket is
    // labelled if its label clears the one before and the next item (the
    // zoom is in enough for it); a bracket if the label fits inside it and
    // clears the one before (brackets of requests at once overlap).
    const QFontMetrics metrics = fontMetrics();
    double lastRight = -1e9;
    for (std::size_t k = from; k < items.size(); ++k) {
        Item& item = items[k];
        if (item.count != 1)
            continue;
        const int width = metrics.horizontalAdvance(labelOf(item));
        if (item.kind == Item::Kind::Bracket) {
            const double left = (item.x + item.xEnd - width) / 2;
            item.labelled = item.xEnd - item.x >= width + 2 * kLabelGap && left > lastRight + kLabelGap;
            if (item.labelled)
                lastRight = left + width;
            continue;
        }
        const double left = std::max(item.x, item.xEnd) + kLabelGap;
        const bool clearsNext = k + 1 == items.size() || items[k + 1].x >= left + width + kLabelGap;
        if (left > lastRight + kLabelGap && clearsNext) {
            item.labelled = true;
            lastRight = left + width;
        }
    }
}

std::vector<MessagesView::Item> MessagesView::items(int timeWidth) const
{
    std::vector<Item> out;
    if (!m_profile || !m_document->isCurrent(m_profile) || timeWidth <= 0)
        return out;
    collectAll(m_arrows, m_brackets, timeWidth, false, out);
    collectAll(m_highlightArrows, m_highlightBrackets, timeWidth, true, out);
    // The selected message last, over everything, alone and labelled, with
    // the bracket of its round trip if it has one.
    const std::vector<ProcessMessages::Message>& messages = model().messages();
    const std::uint32_t selected = m_document->messages()->selected();
    if (selected < messages.size()) {
        Item arrow = itemOf(Item::Kind::Arrow, selected, timeWidth);
        arrow.selected = arrow.labelled = true;
        const ProcessMessages::Message& m = messages[selected];
        const std::uint32_t request = m.kind == ProcessMessages::Kind::Response ? m.pairedWith : selected;
        if (request < messages.size() && messages[request].kind == ProcessMessages::Kind::Request
            && messages[request].pairedWith < messages.size()) {
            Item bracket = itemOf(Item::Kind::Bracket, request, timeWidth);
            bracket.selected = bracket.labelled = true;
            out.push_back(bracket);
        }
        out.push_back(arrow);
    }
    return out;
}

void MessagesView::paintMargin(QPainter& p, const QRect& margin) const
{
    p.fillRect(margin, palette().color(QPalette::Window));
}

void MessagesView::paintContent(QPainter& p, QSize size, int scroll) const
{
    const QPalette& colors = palette();
    p.fillRect(QRect(QPoint(0, 0), size), colors.color(QPalette::Base));
    p.fillRect(QRect(0, 0, TimeAxis::kGutter, size.height()), colors.color(QPalette::Window));
    const int timeWidth = std::max(1, size.width() - TimeAxis::kGutter);
    if (!hasContent() || !m_document->isCurrent(m_profile))
        return;
    // The poles: the process's name in the gutter, a line across the time area.
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const std::vector<std::string>& processes = model().processes();
    for (std::size_t pole = 0; pole < processes.size(); ++pole) {
        const int y = poleY(pole) - scroll;
        p.setPen(colors.color(QPalette::WindowText));
        p.drawText(QRect(6, y - kPoleSpacing / 2, TimeAxis::kGutter - 12, kPoleSpacing), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(qs(processes[pole]), Qt::ElideRight, TimeAxis::kGutter - 12));
        p.setPen(QPen(colors.color(QPalette::Mid), 2));
        p.drawLine(TimeAxis::kGutter, y, size.width(), y);
    }
    p.setFont(font());
    p.save();
    p.setClipRect(QRect(TimeAxis::kGutter, 0, timeWidth, size.height()));
    p.setRenderHint(QPainter::Antialiasing);
    const bool faint = !m_document->messages()->highlightedEndpoint().empty();
    for (const Item& item : items(timeWidth))
        paintItem(p, item, scroll, faint && !item.highlighted && !item.selected);
    p.restore();
    paintRangeSelection(p, timeWidth, 0, size.height(), true);
    p.setPen(colors.color(QPalette::Mid));
    p.drawLine(TimeAxis::kGutter - 1, 0, TimeAxis::kGutter - 1, size.height());
}

void MessagesView::paintItem(QPainter& p, const Item& item, int scroll, bool faint) const
{
    const ProcessMessages::Message& m = model().messages()[item.message];
    QColor color = m.kind == ProcessMessages::Kind::Response ? ColorScheme::mutedText() : ColorScheme::text();
    if (item.kind == Item::Kind::Bracket)
        color = ColorScheme::flow();
    if (item.highlighted)
        color = highlightColor();
    if (faint)
        color = ColorScheme::faintText();
    if (item.selected)
        color = ColorScheme::selection();
    const double width = item.selected || item.count > 1 ? 2 : 1;
    p.setPen(QPen(color, width));
    const double x0 = TimeAxis::kGutter + item.x;
    const double x1 = TimeAxis::kGutter + item.xEnd;
    if (item.kind == Item::Kind::Bracket) {
        // On the requester's pole, on the side away from the arrows it sends.
        const double pole = poleY(m.from) - scroll;
        const double side = m.to > m.from ? -1 : 1;
        const double y = pole + side * kBracketOffset;
        p.drawLine(QPointF(x0, pole), QPointF(x0, y));
        p.drawLine(QPointF(x0, y), QPointF(x1, y));
        p.drawLine(QPointF(x1, y), QPointF(x1, pole));
        if (item.labelled) {
            const QFontMetrics metrics = p.fontMetrics();
            const double baseline = side < 0 ? y - 2 : y + metrics.ascent() + 1;
            const QString text = labelOf(item);
            p.drawText(QPointF((x0 + x1 - metrics.horizontalAdvance(text)) / 2, baseline), text);
        }
        return;
    }
    const double y0 = poleY(m.from) - scroll;
    const double y1 = poleY(m.to) - scroll;
    p.drawLine(QPointF(x0, y0), QPointF(x1, y1));
    // The head at the receiver's end, along the arrow.
    const double dx = x1 - x0;
    const double dy = y1 - y0;
    const double length = std::max(1.0, std::hypot(dx, dy));
    const QPointF tip(x1, y1);
    const QPointF back(x1 - 7 * dx / length, y1 - 7 * dy / length);
    const QPointF across(-3 * dy / length, 3 * dx / length);
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(back + across);
    head.lineTo(back - across);
    head.closeSubpath();
    p.fillPath(head, color);
    if (item.labelled) {
        const QFontMetrics metrics = p.fontMetrics();
        // Down: under the sender's pole; up: between that row and the brackets' above the lower pole.
        const double baseline = y1 > y0 ? y0 + metrics.ascent() + 3 : (y0 + y1 - 7 + metrics.ascent()) / 2;
        p.drawText(QPointF(std::max(x0, x1) + kLabelGap, baseline), labelOf(item));
    }
}

std::optional<MessagesView::Item> MessagesView::itemAt(QPoint pos) const
{
    const int timeWidth = m_input.navigator().areaWidth();
    if (!m_profile || pos.x() < TimeAxis::kGutter || pos.x() >= TimeAxis::kGutter + timeWidth)
        return std::nullopt;
    const double px = pos.x() - TimeAxis::kGutter;
    const double py = pos.y() + scrollY();
    const std::vector<Item> all = items(timeWidth);
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        const ProcessMessages::Message& m = model().messages()[it->message];
        if (it->kind == Item::Kind::Bracket) {
            const double y = poleY(m.from) + (m.to > m.from ? -kBracketOffset : kBracketOffset);
            if (std::abs(py - y) <= kHitPixels && px >= it->x - kHitPixels && px <= it->xEnd + kHitPixels)
                return *it;
            continue;
        }
        // The distance from the point to the arrow's segment.
        const double y0 = poleY(m.from);
        const double y1 = poleY(m.to);
        const double dx = it->xEnd - it->x;
        const double dy = y1 - y0;
        const double t = std::clamp(((px - it->x) * dx + (py - y0) * dy) / std::max(1e-9, dx * dx + dy * dy), 0.0, 1.0);
        if (std::hypot(px - (it->x + t * dx), py - (y0 + t * dy)) <= kHitPixels)
            return *it;
    }
    return std::nullopt;
}

std::uint32_t MessagesView::messageAt(QPoint pos) const
{
    const std::optional<Item> item = itemAt(pos);
    return item ? item->message : kNone;
}

QString MessagesView::describe(const Profile& profile, const ProcessMessages& messages, std::uint32_t message)
{
    const std::vector<ProcessMessages::Message>& all = messages.messages();
    if (message >= all.size())
        return {};
    const ProcessMessages::Message& m = all[message];
    auto at = [&profile](Time t) { return QString::fromStdString(ValueFormat::point(t - profile.startTime(), profile.unit())); };
    auto span = [&profile](Time t) { return QString::fromStdString(ValueFormat::text(t, profile.unit())); };
    QString text = tr("%1 → %2\n%3 %4")
                       .arg(qs(messages.processes()[m.from]), qs(messages.processes()[m.to]),
                            qs(MessagesFormatter::kindName(m.kind)), qs(m.name));
    if (!m.requestId.empty())
        text += tr("\nrequest id %1").arg(qs(m.requestId));
    text += tr("\nat %1").arg(at(m.time));
    if (m.arrival != m.time)
        text += tr(", received at %1").arg(at(m.arrival));
    if (m.pairedWith < all.size())
        text += tr("\nround trip %1").arg(span(m.kind == ProcessMessages::Kind::Response ? m.time - all[m.pairedWith].time
                                                                                         : all[m.pairedWith].time - m.time));
    else if (m.kind == ProcessMessages::Kind::Request && !m.requestId.empty())
        text += tr("\nno response");
    else if (m.kind == ProcessMessages::Kind::Response)
        text += tr("\nno request with this id");
    return text;
}

QString MessagesView::describeAt(QPoint pos) const
{
    const std::optional<Item> item = itemAt(pos);
    if (!item)
        return {};
    QString text = describe(*m_profile, model(), item->message);
    if (item->count > 1)
        text += tr("\n(and %1 more here: zoom in to tell them apart)").arg(item->count - 1);
    return text;
}

QString MessagesView::toolTipAt(QPoint pos) const
{
    return describeAt(pos);
}

void MessagesView::clicked(QPoint pos)
{
    m_document->messages()->select(messageAt(pos));
}

} // namespace runlane
