#pragma once

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace runlane {

class ProfileDocument;

// Beside the differential flame graph: its legend, and the call paths the
// base runs had and the new profile has not, largest first — a flame graph
// of the new profile cannot draw them, and nothing may vanish silently.
class RemovedPathsPanel : public QWidget
{
    Q_OBJECT

public:
    static constexpr std::size_t kMaxListed = 1000;

    explicit RemovedPathsPanel(ProfileDocument* document, QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    QLabel* legend() const { return m_legend; }

private:
    void refresh();

    ProfileDocument* m_document;
    QLabel* m_legend;
    QTreeWidget* m_list;
};

} // namespace runlane
