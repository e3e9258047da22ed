#include "addprofilecontroller.h"

#include "addedthread.h"
#include "counttext.h"
#include "profiledocument.h"
#include "profileloader.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>

namespace runlane {

AddProfileController::AddProfileController(QWidget* window, ProfileDocument* document, Open open)
    : QObject(window), m_window(window), m_document(document), m_open(std::move(open))
{
    connect(m_document, &ProfileDocument::profileChanged, this, [this] {
        if (m_action)
            m_action->setEnabled(m_document->hasProfile());
    });
}

void AddProfileController::addFileActions(QMenu* file)
{
    m_action = file->addAction(tr("&Add to this profile…"), this, &AddProfileController::chooseAndAdd);
    m_action->setObjectName(QStringLiteral("addProfile"));
    m_action->setToolTip(tr("Add a V8 CPU profile (.cpuprofile) recorded in the same run, its samples under "
                            "a thread of the open trace, or an Enso Language Server message log, a process beside "
                            "the IDE's"));
    m_action->setEnabled(m_document->hasProfile());
}

void AddProfileController::chooseAndAdd()
{
    if (!m_document->hasProfile())
        return;
    const QString path = m_chooseFile
        ? m_chooseFile()
        : QFileDialog::getOpenFileName(m_window, tr("Add a profile of the same run"),
                                       QFileInfo(m_document->loaded().path).absolutePath(),
                                       tr("V8 CPU profiles (*.cpuprofile *.cpuprofile.gz *.json);;"
                                          "Enso Language Server message logs (*.csv);;All files (*)"));
    if (!path.isEmpty())
        add(path);
}

bool AddProfileController::add(const QString& path)
{
    if (!m_document->hasProfile())
        return false;
    std::vector<ProfileAddition> additions = additionsOf(m_document->profile());
    ProfileAddition added{path.toStdString(), std::nullopt};
    // With one thread (or none: the load says why it cannot add) there is
    // nothing to ask, nor for a file that is a process of its own.
    const FormatRegistry::Detection detected = ProfileLoader::detect(path);
    const std::vector<AddedThread::Candidate> threads = detected.ok() && detected.format->addsProcess()
        ? std::vector<AddedThread::Candidate>()
        : AddedThread::candidates(*m_document->profile());
    if (threads.size() > 1) {
        QStringList items;
        int preselected = 0;
        for (const AddedThread::Candidate& c : threads) {
            if (c.isDefault)
                preselected = int(items.size());
            items << tr("%1 (pid %2, tid %3; %4)%5")
                         .arg(QString::fromStdString(c.name))
                         .arg(c.pid)
                         .arg(c.tid)
                         .arg(countText(qint64(c.intervals), "interval", "intervals"))
                         .arg(c.isDefault ? tr(" — main thread") : QString());
        }
        int chosen = preselected;
        if (m_chooseThread) {
            chosen = m_chooseThread(items, preselected);
        } else {
            bool ok = false;
            const QString item = QInputDialog::getItem(m_window, tr("Add %1").arg(QFileInfo(path).fileName()),
                                                       tr("The thread of the trace its samples belong to:"), items,
                                                       preselected, false, &ok);
            chosen = ok ? int(items.indexOf(item)) : -1;
        }
        if (chosen < 0 || chosen >= int(threads.size()))
            return false;
        added.thread = ProfileAddition::Thread{threads[std::size_t(chosen)].pid, threads[std::size_t(chosen)].tid};
    }
    additions.push_back(std::move(added));
    m_open(m_document->loaded().path, std::move(additions));
    return true;
}

bool AddProfileController::canAdd(const QString& path) const
{
    if (!m_document->hasProfile())
        return false;
    const FormatRegistry::Detection detected = ProfileLoader::detect(path);
    return detected.ok() && detected.format->canBeAdded()
        && (detected.format->addsProcess() || !AddedThread::candidates(*m_document->profile()).empty());
}

bool AddProfileController::takeDrop(const QString& path)
{
    if (!canAdd(path))
        return false;
    QMetaObject::invokeMethod(this, [this, path] {
        // The trace may have gone meanwhile: then the file is opened.
        switch (canAdd(path) ? askDrop(path) : DropChoice::Open) {
        case DropChoice::Add:
            add(path);
            break;
        case DropChoice::Open:
            m_open(path, {});
            break;
        case DropChoice::Cancel:
            break;
        }
    }, Qt::QueuedConnection);
    return true;
}

AddProfileController::DropChoice AddProfileController::askDrop(const QString& path)
{
    if (m_chooseDrop)
        return m_chooseDrop(path);
    const QString name = QFileInfo(path).fileName();
    const QString open = QFileInfo(m_document->loaded().path).fileName();
    const FormatRegistry::Detection detected = ProfileLoader::detect(path);
    const bool process = detected.ok() && detected.format->addsProcess();
    QMessageBox box(QMessageBox::Question, tr("Add %1?").arg(name),
                    (process ? tr("%1 is an Enso Language Server message log. Add it to the open profile, %2?")
                             : tr("%1 is a V8 CPU profile. Add it to the open trace, %2?"))
                        .arg(name, open),
                    QMessageBox::NoButton, m_window);
    box.setInformativeText(process ? tr("Added, its messages are a LanguageServer process beside the profile's, on "
                                        "the same time axis. Opened instead, it replaces the profile.")
                                   : tr("Added, its samples go under a thread of the trace, on the same time axis. "
                                        "Opened instead, it replaces the trace."));
    QPushButton* add = box.addButton(tr("&Add to the open trace"), QMessageBox::AcceptRole);
    QPushButton* openInstead = box.addButton(tr("&Open instead"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(add);
    box.exec();
    if (box.clickedButton() == add)
        return DropChoice::Add;
    if (box.clickedButton() == openInstead)
        return DropChoice::Open;
    return DropChoice::Cancel;
}

std::vector<ProfileAddition> AddProfileController::additionsOf(const Profile* profile)
{
    std::vector<ProfileAddition> additions;
    if (!profile)
        return additions;
    for (const AddedFile& file : profile->addedFiles())
        additions.push_back(ProfileAddition{file.path, ProfileAddition::Thread{file.pid, file.tid}});
    return additions;
}

QString AddProfileController::titleSuffix(const Profile* profile)
{
    QString suffix;
    if (!profile)
        return suffix;
    for (const AddedFile& file : profile->addedFiles())
        suffix += QStringLiteral(" + ") + QFileInfo(QString::fromStdString(file.path)).fileName();
    return suffix;
}

} // namespace runlane
