#pragma once

#include <QTreeWidget>

namespace runlane {

class Diagnostics;

// The warnings found while loading, by kind with counts and the first
// examples, and the events that were read but not shown.
class WarningsPanel : public QTreeWidget
{
    Q_OBJECT

public:
    explicit WarningsPanel(QWidget* parent = nullptr);
    void showDiagnostics(const Diagnostics& diagnostics);
};

} // namespace runlane
