#include "warningspanel.h"

#include "diagnostics.h"

#include <QHeaderView>

namespace runlane {

WarningsPanel::WarningsPanel(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("What"), tr("Count")});
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(false);
    setRootIsDecorated(true);
}

void WarningsPanel::showDiagnostics(const Diagnostics& d)
{
    clear();
    auto* warnings = new QTreeWidgetItem(this, {tr("Warnings"), QString::number(d.warningCount())});
    for (const auto& [kind, count] : d.warningKinds())
        new QTreeWidgetItem(warnings, {QString::fromStdString(kind), QString::number(count)});
    if (!d.examples().empty()) {
        auto* examples = new QTreeWidgetItem(warnings, {tr("First examples"), QString::number(d.examples().size())});
        for (const std::string& example : d.examples()) {
            auto* item = new QTreeWidgetItem(examples, {QString::fromStdString(example), QString()});
            item->setToolTip(0, item->text(0));
        }
    }
    auto* skipped = new QTreeWidgetItem(this, {tr("Read but not shown"), QString::number(d.skippedCount())});
    for (const auto& [what, count] : d.skippedEvents())
        new QTreeWidgetItem(skipped, {QString::fromStdString(what), QString::number(count)});
    expandItem(warnings);
}

} // namespace runlane
