#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace runlane {

namespace {

QString shortcutText(const QAction* action)
{
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts())
        keys.append(key.toString(QKeySequence::NativeText));
    return keys.join(QStringLiteral(", "));
}

// The actions of `menu` and its submenus with a shortcut, `place` being the
// menu's path. A hidden action's shortcut does nothing: it is left out.
void addMenu(const QMenu* menu, const QString& place, std::vector<ShortcutsDialog::Row>& rows, QSet<const QAction*>& seen)
{
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        seen.insert(action);
        const QString text = ShortcutsDialog::withoutMnemonic(action->text());
        if (const QMenu* submenu = action->menu())
            addMenu(submenu, place + QStringLiteral(" ▸ ") + text, rows, seen);
        else if (!action->shortcuts().isEmpty())
            rows.push_back({text, shortcutText(action), place});
    }
}

// Where an action that is in no menu works: the window, or the widget it
// was added to, by the name it shows.
QString placeOf(const QWidget* widget, const QWidget* window)
{
    if (widget == window)
        return ShortcutsDialog::tr("In the window");
    QString name = widget->accessibleName();
    if (name.isEmpty())
        name = widget->windowTitle();
    if (name.isEmpty())
        name = widget->objectName();
    return ShortcutsDialog::tr("In %1").arg(name);
}

} // namespace

QString ShortcutsDialog::withoutMnemonic(const QString& text)
{
    QString shown;
    shown.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && i + 1 < text.size())
            ++i; // "&&" keeps the second "&"; "&O" keeps the "O"
        shown.append(text[i]);
    }
    return shown;
}

std::vector<ShortcutsDialog::Row> ShortcutsDialog::rows(QWidget* window)
{
    std::vector<Row> rows;
    QSet<const QAction*> seen;
    // findChild, not QMainWindow::menuBar(), which would make one.
    if (const QMenuBar* bar = window->findChild<QMenuBar*>()) {
        for (const QAction* action : bar->actions()) {
            if (const QMenu* menu = action->menu(); menu && action->isVisible()) {
                seen.insert(action);
                addMenu(menu, withoutMnemonic(action->text()), rows, seen);
            }
        }
    }
    // Actions added to the window or to one of its widgets (a shortcut
    // that works with no menu item), once: the menus hold many of them too.
    QList<QWidget*> widgets{window};
    widgets += window->findChildren<QWidget*>();
    for (const QWidget* widget : std::as_const(widgets)) {
        if (qobject_cast<const QMenu*>(widget) || qobject_cast<const QMenuBar*>(widget))
            continue;
        for (const QAction* action : widget->actions()) {
            if (seen.contains(action) || action->shortcuts().isEmpty() || !action->isVisible())
                continue;
            seen.insert(action);
            rows.push_back({withoutMnemonic(action->text()), shortcutText(action), placeOf(widget, window)});
        }
    }
    const std::vector<Row> views = viewKeys();
    rows.insert(rows.end(), views.begin(), views.end());
    return rows;
}

std::vector<ShortcutsDialog::Row> ShortcutsDialog::viewKeys()
{
    // The views handle these in their own input events: no action carries
    // them (docs/viewer.md, "Keys and mouse").
    const QString views = tr("Views");
    return {
        {tr("Zoom at the cursor"), tr("Wheel, Ctrl+Wheel, pinch, W / S, + / −"), views},
        {tr("Pan"), tr("Drag, horizontal wheel, A / D, ← / →"), views},
        {tr("Scroll rows"), tr("Shift+Wheel, wheel over the names"), views},
        {tr("Select a time range"), tr("Shift+Drag"), views},
        {tr("Zoom to the box or task"), tr("Double-click, Enter"), views},
        {tr("Whole profile"), tr("0, Home"), views},
        {tr("Collapse / expand the selected box"), tr("C / E, click ▸ / ▾"), views},
        {tr("Clear the range, then the selection"), tr("Esc"), views},
        {tr("Focus a label everywhere"), tr("Click a rank row or a usage band"), views},
        {tr("Open a file; compare with it as the base"), tr("Drop it; on the right edge or with Shift"), views},
    };
}

ShortcutsDialog::ShortcutsDialog(QWidget* window) : QDialog(window)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* model = new QStandardItemModel(0, 3, this);
    model->setHorizontalHeaderLabels({tr("Command"), tr("Keys"), tr("Menu")});
    for (const Row& row : rows(window)) {
        QList<QStandardItem*> items;
        for (const QString& text : {row.action, row.shortcut, row.place}) {
            auto* item = new QStandardItem(text);
            item->setEditable(false);
            items.append(item);
        }
        model->appendRow(items);
    }
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(model);
    m_proxy->setFilterKeyColumn(-1); // any column: "ctrl+g", "find" or "export"
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("shortcutsFilter"));
    m_filter->setPlaceholderText(tr("Filter: a command, a key or a menu"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->resizeColumnsToContents();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(720, 560);
}

QAbstractItemModel* ShortcutsDialog::shown() const
{
    return m_proxy;
}

void ShortcutsDialog::showFor(QWidget* window)
{
    ShortcutsDialog dialog(window);
    dialog.exec();
}

} // namespace runlane
