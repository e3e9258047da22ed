#include "historycontroller.h"

#include "historydatabase.h"
#include "comparecontroller.h"
#include "historywindow.h"
#include "mainwindow.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace runlane {

HistoryController::HistoryController(QMenu* file, MainWindow* window)
    : QObject(window)
    , m_window(window)
    , m_last(QString::fromLatin1(HistoryDatabase::kDefaultFile))
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

void HistoryController::compare(const QString& path, const QString& base)
{
    // The base applies to the open profile: the run's own first.
    connect(
        m_window, &MainWindow::profileShown, this,
        [this, base] { m_window->compareController()->compareWith({base}); }, Qt::SingleShotConnection);
    m_window->openFile(path);
}

HistoryWindow* HistoryController::openHistory(const QString& location)
{
    auto* window = new HistoryWindow(
        location.toStdString(), [this](const QString& path) { m_window->openFile(path); },
        [this](const QString& path, const QString& base) { compare(path, base); }, m_window);
    if (!window->isOpen()) {
        QMessageBox::warning(m_window, tr("Open History"), QString::fromStdString(window->error()));
        window->deleteLater();
        return nullptr;
    }
    window->show();
    return window;
}

} // namespace runlane
