#pragma once

#include "processmessages.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <string>

namespace runlane {

class TimeAxis;

// The messages between the open profile's processes (ProcessMessages, issue
// 43) and what the user picked among them: the endpoint highlighted (a row
// of the round-trip table) and the message selected (a click on an arrow).
// The document owns one; the Messages view, the round-trip table and the
// details pane read it and never each other.
//
// A message is selected alone, like a mark: selecting one clears the time
// axis's selected item, and selecting an item (or a mark) clears it.
class MessagesState : public QObject
{
    Q_OBJECT

public:
    explicit MessagesState(TimeAxis* axis, QObject* parent = nullptr);
    ~MessagesState() override;

    // The open profile's messages, paired on the loading thread
    // (LoadedProfile::messages; null: none); drops the highlight and selection.
    void setMessages(std::shared_ptr<const ProcessMessages> messages);

    const ProcessMessages& messages() const { return *m_messages; }
    bool isEmpty() const { return m_messages->messages().empty(); }

    // The endpoint (a message's name) whose messages are highlighted; "" for none.
    const std::string& highlightedEndpoint() const { return m_endpoint; }
    void setHighlightedEndpoint(const std::string& endpoint);

    // The selected message (an index into messages().messages(), kNone if none).
    std::uint32_t selected() const { return m_selected; }
    void select(std::uint32_t message);

Q_SIGNALS:
    // New messages (a profile shown or dropped): highlight and selection are gone too.
    void changed();
    void highlightChanged();
    void selectionChanged();

private:
    TimeAxis* m_axis;
    std::shared_ptr<const ProcessMessages> m_messages;
    std::string m_endpoint;
    std::uint32_t m_selected = kNone;
    bool m_clearingAxis = false; // select() clears the axis's item: not a selection of the user's
};

} // namespace runlane
