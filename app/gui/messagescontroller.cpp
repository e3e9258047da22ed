#include "messagescontroller.h"

#include "messagesstate.h"
#include "profiledocument.h"
#include "roundtripmodel.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace runlane {

MessagesController::MessagesController(QMainWindow* window, ProfileDocument* document, QDockWidget* tabWith)
    : QObject(window), m_document(document), m_front(tabWith), m_model(new RoundTripModel(document, this)),
      m_sorted(new QSortFilterProxyModel(this)), m_table(new QTableView), m_dock(new QDockWidget(tr("Round trips"), window))
{
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(RoundTripModel::SortRole);
    m_table->setObjectName(QStringLiteral("roundTripTable"));
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RoundTripModel::Max, Qt::DescendingOrder); // the slowest endpoints first
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(RoundTripModel::Endpoint, QHeaderView::Stretch);
    m_dock->setObjectName(QStringLiteral("roundTrips"));
    m_dock->setWidget(m_table);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (tabWith)
        window->tabifyDockWidget(tabWith, m_dock);
    m_dock->hide(); // until a profile with messages
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MessagesController::selectionChanged);
    connect(m_document, &ProfileDocument::profileChanged, this, &MessagesController::profileShown);
}

void MessagesController::profileShown()
{
    const bool shown = m_document->hasProfile() && !m_document->messages()->isEmpty();
    const bool appears = shown && m_dock->isHidden();
    m_dock->setVisible(shown);
    // Beside the rank, not over it: the tab in front stays in front.
    if (appears && m_front && m_front->isVisible())
        m_front->raise();
}

void MessagesController::selectionChanged()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    m_document->messages()->setHighlightedEndpoint(
        rows.isEmpty() ? std::string() : rows.front().data(RoundTripModel::EndpointRole).toString().toStdString());
}

} // namespace runlane
