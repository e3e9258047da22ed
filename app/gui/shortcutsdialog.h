#pragma once

#include <QDialog>
#include <QString>

#include <vector>

class QAbstractItemModel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace runlane {

// Help ▸ Keyboard Shortcuts: every action of a window that has a shortcut,
// read from the window itself each time the dialog is made (its menu bar's
// menus and submenus, then the actions added to its widgets), so that a
// new or changed shortcut is listed without touching this class; then the
// views' own keys and mouse actions, which are no actions. A filter line
// narrows the table to the rows whose text, keys or place contain it.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    struct Row {
        QString action;   // the action's text, without its mnemonic's &
        QString shortcut; // its shortcuts as the platform writes them, ", " between
        QString place;    // "File ▸ Export", or where an action in no menu lives
        bool operator==(const Row&) const = default;
    };

    // `window`'s actions with a shortcut, in the menus' order, then those
    // of its widgets that no menu holds, then viewKeys().
    static std::vector<Row> rows(QWidget* window);
    // The keys and mouse actions the views handle themselves.
    static std::vector<Row> viewKeys();
    // A menu's or action's text as shown: "&&" is "&", another "&" marks
    // the mnemonic and goes.
    static QString withoutMnemonic(const QString& text);

    explicit ShortcutsDialog(QWidget* window);

    QLineEdit* filter() const { return m_filter; }
    // The rows shown, after the filter.
    QAbstractItemModel* shown() const;

    // A dialog for `window`, shown modal.
    static void showFor(QWidget* window);

private:
    QLineEdit* m_filter = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace runlane
