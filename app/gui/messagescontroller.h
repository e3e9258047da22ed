#pragma once

#include <QObject>

class QDockWidget;
class QMainWindow;
class QSortFilterProxyModel;
class QTableView;

namespace runlane {

class ProfileDocument;
class RoundTripModel;

// The Round trips dock (issue 43): the round-trip table of the messages
// between the profile's processes (RoundTripModel), sortable, tabified with
// the dock given. It is shown while the open profile has messages and
// hidden otherwise; a row selected highlights its endpoint's messages in
// the Messages view, through the document's MessagesState. Kept out of
// MainWindow, which only makes it.
class MessagesController : public QObject
{
    Q_OBJECT

public:
    MessagesController(QMainWindow* window, ProfileDocument* document, QDockWidget* tabWith);

    QDockWidget* dock() const { return m_dock; }
    QTableView* table() const { return m_table; }
    QSortFilterProxyModel* sorted() const { return m_sorted; }

private:
    void profileShown();
    void selectionChanged();

    ProfileDocument* m_document;
    QDockWidget* m_front; // the dock tabified with, kept in front
    RoundTripModel* m_model;
    QSortFilterProxyModel* m_sorted;
    QTableView* m_table;
    QDockWidget* m_dock;
};

} // namespace runlane
