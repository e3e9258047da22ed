// Help ▸ Keyboard Shortcuts (app/gui/shortcutsdialog.cpp): the rows come
// from the window's own actions (its menus, then its widgets' actions),
// exactly as the menus show them; the filter narrows them; an action added
// later is listed by the next dialog.
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "shortcutsdialog.h"

#include <QAction>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>

using namespace runlane;
using namespace runlane::test;

namespace {

// "action | keys | place", one string per row, for exact comparisons.
QStringList texts(const std::vector<ShortcutsDialog::Row>& rows)
{
    QStringList list;
    for (const ShortcutsDialog::Row& row : rows)
        list.append(row.action + QStringLiteral(" | ") + row.shortcut + QStringLiteral(" | ") + row.place);
    return list;
}

QStringList texts(const QAbstractItemModel* model)
{
    QStringList list;
    for (int row = 0; row < model->rowCount(); ++row)
        list.append(model->index(row, 0).data().toString() + QStringLiteral(" | ") + model->index(row, 1).data().toString() +
                    QStringLiteral(" | ") + model->index(row, 2).data().toString());
    return list;
}

QAction* addAction(QWidget* to, const QString& text, const QList<QKeySequence>& keys)
{
    auto* action = new QAction(text, to);
    action->setShortcuts(keys);
    to->addAction(action);
    return action;
}

// A window of every kind of place: menus, a submenu, a separator, an action
// without keys, a hidden one, one in two menus, one on a widget, one on the window.
struct SampleWindow {
    QMainWindow window;
    SampleWindow()
    {
        QMenu* file = window.menuBar()->addMenu(QStringLiteral("&File"));
        addAction(file, QStringLiteral("&Open…"), {QKeySequence(Qt::CTRL | Qt::Key_O)});
        QMenu* exports = file->addMenu(QStringLiteral("&Export"));
        addAction(exports, QStringLiteral("Rank as &CSV…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)});
        addAction(exports, QStringLiteral("Without keys"), {});
        file->addSeparator();
        addAction(file, QStringLiteral("Hidden"), {QKeySequence(Qt::CTRL | Qt::Key_H)})->setVisible(false);
        addAction(file, QStringLiteral("Save && &quit"), {QKeySequence(Qt::CTRL | Qt::Key_Q)});
        QMenu* edit = window.menuBar()->addMenu(QStringLiteral("&Edit"));
        QAction* find = addAction(edit, QStringLiteral("&Find…"), {QKeySequence(Qt::CTRL | Qt::Key_F), QKeySequence(Qt::Key_F3)});
        auto* panel = new QWidget(&window);
        panel->setAccessibleName(QStringLiteral("Rank"));
        panel->addAction(find); // in a menu already: listed there only
        addAction(panel, QStringLiteral("Copy rows"), {QKeySequence(Qt::CTRL | Qt::Key_C)});
        window.setCentralWidget(panel);
        addAction(&window, QStringLiteral("Follow"), {QKeySequence(Qt::Key_End)});
    }
};

const QStringList kSampleRows = {
    QStringLiteral("Open… | Ctrl+O | File"),
    QStringLiteral("Rank as CSV… | Ctrl+Shift+E | File ▸ Export"),
    QStringLiteral("Save & quit | Ctrl+Q | File"),
    QStringLiteral("Find… | Ctrl+F, F3 | Edit"),
    QStringLiteral("Follow | End | In the window"),
    QStringLiteral("Copy rows | Ctrl+C | In Rank"),
};

} // namespace

class TestShortcutsDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        useTemporarySettings(m_settings.path(), QStringLiteral("tst_shortcutsdialog"));
    }

    void withoutMnemonic_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("first letter") << "&Open…" << "Open…";
        QTest::newRow("inside") << "A&ggregated flame graph" << "Aggregated flame graph";
        QTest::newRow("a literal &") << "Save && &quit" << "Save & quit";
        QTest::newRow("none") << "Follow" << "Follow";
        QTest::newRow("last character") << "R&D&" << "RD&";
        QTest::newRow("empty") << "" << "";
    }

    void withoutMnemonic()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(ShortcutsDialog::withoutMnemonic(text), shown);
    }

    // Menus in order (submenus as paths), then the widgets' own actions;
    // separators, actions without keys, hidden ones and repeats left out.
    void rowsOfASampleWindow()
    {
        SampleWindow sample;
        const std::vector<ShortcutsDialog::Row> rows = ShortcutsDialog::rows(&sample.window);
        const QStringList views = texts(ShortcutsDialog::viewKeys());
        QCOMPARE(views.size(), 10);
        QCOMPARE(views.first(), QStringLiteral("Zoom at the cursor | Wheel, Ctrl+Wheel, pinch, W / S, + / − | Views"));
        QCOMPARE(texts(rows), kSampleRows + views);
    }

    // The filter matches any column, ignoring case, as typed.
    void filter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("shown");
        QTest::newRow("none") << "" << kSampleRows + texts(ShortcutsDialog::viewKeys());
        QTest::newRow("a key") << "ctrl+o" << QStringList{kSampleRows[0]};
        QTest::newRow("a key in a list") << "F3" << QStringList{kSampleRows[3]};
        QTest::newRow("a menu") << "export" << QStringList{kSampleRows[1]};
        QTest::newRow("a place") << "in rank" << QStringList{kSampleRows[5]};
        QTest::newRow("a command") << "copy" << QStringList{kSampleRows[5]};
        QTest::newRow("view keys") << "shift+drag"
                                   << QStringList{QStringLiteral("Select a time range | Shift+Drag | Views")};
        QTest::newRow("nothing") << "no such command" << QStringList();
    }

    void filter()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, shown);
        SampleWindow sample;
        ShortcutsDialog dialog(&sample.window);
        dialog.filter()->setText(filter);
        QCOMPARE(texts(dialog.shown()), shown);
        dialog.filter()->clear();
        QCOMPARE(dialog.shown()->rowCount(), int(kSampleRows.size()) + 10);
    }

    // The viewer's own window, as Help ▸ Keyboard Shortcuts lists it.
    void mainWindowRows_data()
    {
        QTest::addColumn<QString>("row");
        for (const char* row : {"Open… | Ctrl+O | File", "Compare with… | Ctrl+Shift+O | File", "Reload | F5 | File",
                                "Copy rank rows | Ctrl+C | Edit",
                                "Find… | Ctrl+F | Edit", "Next occurrence | F3 | Edit",
                                "Previous occurrence | Shift+F3 | Edit", "Zoom to all | Ctrl+0 | View",
                                "Back | Alt+Left | View", "Forward | Alt+Right | View",
                                "Aggregated flame graph | Ctrl+G | View", "Keyboard Shortcuts | F1 | Help",
                                "Follow | End | In the window"})
            QTest::newRow(row) << QString::fromUtf8(row);
    }

    void mainWindowRows()
    {
        QFETCH(QString, row);
        MainWindow window;
        const QStringList rows = texts(ShortcutsDialog::rows(&window));
        QCOMPARE(rows.count(row), 1);
    }

    // The platform's standard keys as it binds them (offscreen: Close is
    // Ctrl+F4, Quit has none and is not listed; GNOME's and KDE's themes bind
    // Ctrl+W and Ctrl+Q), which a list written by hand would get wrong.
    void standardKeysAsThePlatformBindsThem_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QKeySequence::StandardKey>("key");
        QTest::newRow("Open…") << "Open… | %1 | File" << QKeySequence::Open;
        QTest::newRow("Close") << "Close | %1 | File" << QKeySequence::Close;
        QTest::newRow("Quit") << "Quit | %1 | File" << QKeySequence::Quit;
        QTest::newRow("Copy") << "Copy rank rows | %1 | Edit" << QKeySequence::Copy;
        QTest::newRow("Find") << "Find… | %1 | Edit" << QKeySequence::Find;
    }

    void standardKeysAsThePlatformBindsThem()
    {
        QFETCH(QString, text);
        QFETCH(QKeySequence::StandardKey, key);
        // The menus take a standard key's first binding (QKeySequence(key)).
        const QString keys = QKeySequence(key).toString(QKeySequence::NativeText);
        MainWindow window;
        const QStringList rows = texts(ShortcutsDialog::rows(&window));
        QCOMPARE(rows.count(text.arg(keys)), keys.isEmpty() ? 0 : 1);
    }

    // Exact rows for a key, in the real window.
    void mainWindowFilter()
    {
        MainWindow window;
        ShortcutsDialog dialog(&window);
        dialog.filter()->setText(QStringLiteral("ctrl+o"));
        QCOMPARE(texts(dialog.shown()), QStringList{QStringLiteral("Open… | Ctrl+O | File")});
        dialog.filter()->setText(QStringLiteral("f3"));
        QCOMPARE(texts(dialog.shown()), QStringList({QStringLiteral("Next occurrence | F3 | Edit"),
                                                     QStringLiteral("Previous occurrence | Shift+F3 | Edit")}));
    }

    // An action added to a menu, or to a new submenu, after the window was
    // made is in the next dialog: nothing is listed by hand.
    void addedActionIsListed()
    {
        MainWindow window;
        QMenu* help = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && ShortcutsDialog::withoutMnemonic(menu->text()) == QLatin1String("Help"))
                help = menu->menu();
        QVERIFY(help);
        const QString added = QStringLiteral("Added later | Ctrl+Alt+T | Help");
        const QString nested = QStringLiteral("Deeper | Ctrl+Alt+U | Help ▸ More");
        QCOMPARE(texts(ShortcutsDialog::rows(&window)).count(added), 0);
        addAction(help, QStringLiteral("&Added later"), {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_T)});
        addAction(help->addMenu(QStringLiteral("&More")), QStringLiteral("Deeper"), {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_U)});
        ShortcutsDialog dialog(&window);
        dialog.filter()->setText(QStringLiteral("ctrl+alt+"));
        QCOMPARE(texts(dialog.shown()), QStringList({added, nested}));
    }

    // F1 opens the dialog on the window's rows; Help ▸ User Guide is there.
    void helpMenuOpensTheDialog()
    {
        MainWindow window;
        window.show();
        QVERIFY(window.action(QStringLiteral("userGuide")));
        QAction* shortcuts = window.action(QStringLiteral("shortcuts"));
        QVERIFY(shortcuts);
        QCOMPARE(shortcuts->shortcut(), QKeySequence(Qt::Key_F1));
        int shownRows = -1;
        // The dialog is modal: read and closed from the event loop it runs.
        auto done = std::make_shared<bool>(false);
        std::function<void()> readDialog = [&, done] {
            if (*done)
                return;
            if (auto* dialog = window.findChild<ShortcutsDialog*>(); dialog && dialog->isVisible()) {
                shownRows = dialog->shown()->rowCount();
                dialog->reject();
                return;
            }
            QTimer::singleShot(20, readDialog);
        };
        QTimer::singleShot(20, readDialog);
        shortcuts->trigger();
        *done = true;
        QCOMPARE(shownRows, int(ShortcutsDialog::rows(&window).size()));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestShortcutsDialog)
#include "tst_shortcutsdialog.moc"
