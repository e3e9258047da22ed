#include "historycontroller.h"

#include "historydatabase.h"
#include "comparecontroller.h"
#include "comparesession.h"
#include "historywindow.h"
#include "mainwindow.h"
#include "profile.h"
#include "profiledocument.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QVBoxLayout>

namespace runlane {

HistoryController::HistoryController(QMenu* file, MainWindow* window)
    : QObject(window)
    , m_window(window)
    , m_last(QString::fromStdString(HistoryDatabase::defaultLocation()))
{
    QAction* action = file->addAction(tr("Open &History…"), this, [this] {
        const QString location = askLocation();
        if (!location.isEmpty())
            openHistory(location);
    });
    action->setObjectName(QStringLiteral("openHistory"));
}

QString HistoryController::askLocation()
{
    if (m_chooseLocation)
        return m_chooseLocation();
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Open History"));
    auto* edit = new QLineEdit(m_last, &dialog);
    edit->setMinimumWidth(420);
    auto* browse = new QPushButton(tr("Browse…"), &dialog);
    connect(browse, &QPushButton::clicked, &dialog, [&dialog, edit] {
        const QString path = QFileDialog::getOpenFileName(&dialog, tr("Open History"), QString(),
                                                          tr("SQLite history (*.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            edit->setText(path);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(tr("An SQLite file, or postgresql://user@host:port/dbname\n"
                                    "(the password from PGPASSWORD or ~/.pgpass):"),
                                 &dialog));
    layout->addLayout(row);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    m_last = edit->text().trimmed();
    return m_last;
}

void HistoryController::dropPending()
{
    disconnect(m_pendingShown);
    disconnect(m_pendingFailed);
    m_pendingShown = {};
    m_pendingFailed = {};
}

void HistoryController::compare(const QString& path, const QString& base)
{
    // The base applies to the open profile: the run's own first. Only the
    // last request counts: an earlier one's base, left waiting for a
    // profile that another open replaced, would land on the wrong run.
    dropPending();
    m_pendingShown = connect(m_window, &MainWindow::profileShown, this, [this, path, base] {
        dropPending();
        if (m_window->currentPath() == path)
            m_window->compareController()->compareWith({base});
    });
    m_pendingFailed = connect(m_window, &MainWindow::loadFailed, this, [this] { dropPending(); });
    m_window->openFile(path);
}

void HistoryController::open(const QString& path)
{
    dropPending();
    m_window->document()->compare()->stop();
    m_window->openFile(path);
}

bool HistoryController::isComparing() const
{
    return bool(m_pendingShown) || m_window->document()->compare()->isActive();
}

bool HistoryController::askCreate(const QString& path)
{
    if (m_askCreate)
        return m_askCreate(path);
    QMessageBox box(QMessageBox::Question, tr("Open History"),
                    tr("There is no history at %1.\nMake a new one there?").arg(QDir::toNativeSeparators(path)),
                    QMessageBox::Cancel, m_window);
    QPushButton* create = box.addButton(tr("Create"), QMessageBox::AcceptRole);
    // A new default history is the usual first use; another name may be a typo.
    const bool isDefault = path == QString::fromStdString(HistoryDatabase::defaultLocation());
    box.setDefaultButton(isDefault ? create : qobject_cast<QPushButton*>(box.button(QMessageBox::Cancel)));
    box.exec();
    return box.clickedButton() == create;
}

HistoryWindow* HistoryController::openHistory(const QString& location)
{
    std::string where = location.isEmpty() ? HistoryDatabase::defaultLocation() : location.toStdString();
    if (HistoryDatabase::kindOf(where) == HistoryDatabase::Kind::SQLite) {
        // SQLite makes any file it is asked to open (and its -wal and -shm):
        // only after asking, with the whole path, as a relative one would
        // land in whatever folder the viewer was started in.
        const QFileInfo file(QString::fromStdString(where));
        if (!file.exists()) {
            if (!askCreate(file.absoluteFilePath()))
                return nullptr;
            if (!QDir().mkpath(file.absolutePath())) {
                QMessageBox::warning(m_window, tr("Open History"), tr("Cannot make the folder %1").arg(file.absolutePath()));
                return nullptr;
            }
        }
        where = file.absoluteFilePath().toStdString();
    }
    HistoryWindow::Hooks hooks;
    hooks.open = [this](const QString& path) { open(path); };
    hooks.compare = [this](const QString& path, const QString& base) { compare(path, base); };
    hooks.comparing = [this] { return isComparing(); };
    hooks.focusedLabel = [this] {
        const Profile* profile = m_window->document()->profile();
        const LabelId focus = m_window->document()->focusLabel();
        if (!profile || focus == kNone || focus >= profile->labelCount())
            return QString();
        const std::string_view name = profile->string(profile->label(focus).name);
        return QString::fromUtf8(name.data(), qsizetype(name.size()));
    };
    auto* window = new HistoryWindow(where, std::move(hooks), m_window);
    if (!window->isOpen()) {
        QMessageBox::warning(m_window, tr("Open History"), QString::fromStdString(window->error()));
        window->deleteLater();
        return nullptr;
    }
    // On the main window's screen, over it, and all of it on that screen.
    if (const QScreen* screen = m_window->screen() ? m_window->screen() : QGuiApplication::primaryScreen())
        window->placeWithin(screen->availableGeometry(), m_window->frameGeometry());
    window->show();
    return window;
}

} // namespace runlane
