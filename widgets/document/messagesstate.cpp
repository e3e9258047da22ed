#include "messagesstate.h"

#include "timeaxis.h"

namespace runlane {

MessagesState::MessagesState(TimeAxis* axis, QObject* parent)
    : QObject(parent), m_axis(axis), m_messages(std::make_shared<const ProcessMessages>())
{
    // A box, a task or a mark selected: the message is no longer the selection.
    connect(m_axis, &TimeAxis::selectedItemChanged, this, [this] {
        if (!m_clearingAxis)
            select(kNone);
    });
}

MessagesState::~MessagesState() = default;

void MessagesState::setMessages(std::shared_ptr<const ProcessMessages> messages)
{
    const bool had = !isEmpty();
    m_messages = messages ? std::move(messages) : std::make_shared<const ProcessMessages>();
    m_endpoint.clear();
    m_selected = kNone;
    if (had || !isEmpty())
        Q_EMIT changed();
}

void MessagesState::setHighlightedEndpoint(const std::string& endpoint)
{
    if (endpoint == m_endpoint)
        return;
    m_endpoint = endpoint;
    Q_EMIT highlightChanged();
}

void MessagesState::select(std::uint32_t message)
{
    if (message >= m_messages->messages().size())
        message = kNone;
    if (message == m_selected)
        return;
    m_selected = message;
    if (message != kNone) {
        m_clearingAxis = true;
        m_axis->clearSelectedItem();
        m_clearingAxis = false;
    }
    Q_EMIT selectionChanged();
}

} // namespace runlane
