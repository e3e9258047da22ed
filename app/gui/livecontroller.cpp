#include "livecontroller.h"

#include "comparesession.h"
#include "counttext.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "usagechart.h"

#include <QAction>
#include <QCoreApplication>
#include <QPushButton>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace runlane {

namespace {

// What following shows of a recording longer than it (zoom out to see more).
constexpr Time kFollowWindow = Time(5) * 60 * 1'000'000'000;

QString clockText(Time ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000).toString(QStringLiteral("HH:mm:ss"));
}

// Beside a recovery file: the URL it was recorded from (a Chroprof
// snapshots file does not say), which the recovery question names.
QString sourceFileOf(const QString& recovery)
{
    return recovery + QStringLiteral(".url");
}

void removeRecovery(const QString& recovery)
{
    QFile::remove(recovery);
    QFile::remove(sourceFileOf(recovery));
}

// The URL a recovery file was recorded from; its name when that is not known
// (a file of a version that did not keep it).
QString recordedFrom(const QString& recovery)
{
    QFile file(sourceFileOf(recovery));
    const QString url = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.read(4096)).trimmed() : QString();
    return url.isEmpty() ? QFileInfo(recovery).fileName() : url;
}

} // namespace

LiveController::LiveController(QMenu* file, MainWindow* window) : QObject(window), m_window(window)
{
    m_writer.setMaxThreadCount(1); // in order
    m_writer.setExpiryTimeout(-1);
    m_chooseSavePath = [this](const QString& suggestion) {
        return QFileDialog::getSaveFileName(m_window, tr("Save Recording"), suggestion, tr("Chroprof snapshots (*.json)"));
    };
    m_attachAction = file->addAction(tr("A&ttach to Live Metrics…"), this, [this] {
        if (const auto choice = askAttach()) {
            m_topK = choice->topK;
            attach(choice->url, choice->options);
        }
    });
    m_attachAction->setObjectName(QStringLiteral("attach"));
    m_detachAction = file->addAction(tr("&Detach"), this, &LiveController::detach);
    m_detachAction->setObjectName(QStringLiteral("detach"));
    m_detachAction->setEnabled(false);
    m_saveAction = file->addAction(tr("Save &Recording…"), this, &LiveController::chooseAndSave);
    m_saveAction->setObjectName(QStringLiteral("saveRecording"));
    m_saveAction->setEnabled(false);
    m_followAction = new QAction(tr("Follow"), this);
    m_followAction->setObjectName(QStringLiteral("follow"));
    m_followAction->setCheckable(true);
    m_followAction->setChecked(true);
    m_followAction->setShortcut(QKeySequence(Qt::Key_End));
    m_followAction->setToolTip(tr("Keep the newest data in view (End); a zoom or pan stops following"));
    connect(m_followAction, &QAction::triggered, this, &LiveController::setFollowing);
    window->addAction(m_followAction);

    m_status = new QLabel(window);
    m_status->setObjectName(QStringLiteral("liveStatus"));
    m_status->setToolTip(
        tr("Chroprof's gauges are cumulative: usage is the growth between two refreshes of the data, spread over the "
           "time between them. Only the exporter's top-k procs are seen (usage is a lower bound); a proc's first value "
           "has no growth before it; a value that goes down is a counter reset (a restart or reset()), after which "
           "its growth starts again. Time is credited when a future completes, so a bin can pass 100 %."));
    m_followButton = new QToolButton(window);
    m_followButton->setDefaultAction(m_followAction);
    window->statusBar()->addPermanentWidget(m_status);
    window->statusBar()->addPermanentWidget(m_followButton);
    m_status->hide();
    m_followButton->hide();

    connect(window->axis(), &TimeAxis::visibleRangeChanged, this, &LiveController::visibleRangeChanged);
    connect(window->document(), &ProfileDocument::profileAboutToChange, this, [this] {
        // Another file opened: that is the end of following this source.
        if (isAttached() && !m_adjusting && !m_window->document()->isContinuation()) {
            ++m_session; // a version under way is not shown over that file
            m_pending = false;
            detach();
        }
    });
    // A file that replaced the recording takes the status bar: what was
    // said of the recording ("Detached from …") is not said over it.
    connect(window->document(), &ProfileDocument::profileChanged, this, [this] {
        if (!m_window->document()->isContinuation())
            updateStatus();
    });
    connect(&m_watcher, &QFutureWatcher<LoadedProfile>::finished, this, &LiveController::prepared);
}

LiveController::~LiveController()
{
    // The window's widgets and actions may be gone already: only the
    // source and the files are put in order here.
    m_watcher.waitForFinished();
    if (m_source) {
        m_source->disconnect(this);
        m_source->stop();
        m_source.reset();
    }
    closeAutosave();
}

void LiveController::closeAutosave()
{
    m_writer.waitForDone(); // every snapshot received is in the file
    const QString recovery = m_autosave.path();
    if (m_autosave.isOpen())
        m_autosave.finish();
    // Saved (or nothing received): there is nothing to recover.
    if (!recovery.isEmpty() && (m_saved || !m_recording || m_recording->snapshotCount() == 0))
        removeRecovery(recovery);
    m_autosaveLock.reset(); // unlocked: a later start may offer what is left
}

std::optional<LiveController::AttachChoice> LiveController::askAttach()
{
    if (m_chooseAttach)
        return m_chooseAttach();
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Attach to Live Metrics"));
    auto* url = new QLineEdit(m_lastAttach, &dialog);
    url->setMinimumWidth(420);
    auto* interval = new QSpinBox(&dialog);
    interval->setRange(100, 3'600'000);
    interval->setSingleStep(500);
    interval->setValue(1000);
    interval->setSuffix(tr(" ms"));
    auto* topK = new QSpinBox(&dialog);
    topK->setRange(1, 20);
    topK->setValue(m_topK);
    auto* form = new QFormLayout(&dialog);
    form->addRow(new QLabel(tr("An exporter's endpoint (http://host:port/metrics) or a Prometheus server\n"
                               "(prometheus://host:9090, or an http://…/api/v1 URL):"),
                            &dialog));
    form->addRow(tr("URL:"), url);
    form->addRow(tr("Interval:"), interval);
    form->addRow(tr("Procs in the usage chart:"), topK);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Attach"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    m_lastAttach = url->text().trimmed();
    AttachChoice choice;
    choice.url = QUrl::fromUserInput(m_lastAttach);
    choice.options.interval = std::chrono::milliseconds(interval->value());
    choice.topK = topK->value();
    return choice;
}

bool LiveController::attach(const QUrl& url, const LiveOptions& options, QString* error)
{
    detach();
    QString why;
    std::unique_ptr<LiveSource> source = m_factory ? m_factory(url, options, &why) : LiveSource::create(url, options, &why);
    if (!source) {
        if (error)
            *error = why;
        m_status->setText(tr("Cannot attach: %1").arg(why));
        m_status->show();
        return false;
    }
    // The recording replaces the open profile: a base chosen for that file
    // is no reference for the program followed (its procs, not the file's,
    // would be "added" and the file's "removed").
    CompareSession* compare = m_window->document()->compare();
    if (compare->isActive() || compare->isLoading()) {
        const QString base = compare->isActive() ? compare->baseName() : QString();
        compare->stop();
        m_window->setStatusText(base.isEmpty() ? tr("Stopped comparing: attached to %1").arg(url.toString())
                                               : tr("Stopped comparing with %1: attached to %2").arg(base, url.toString()));
    }
    m_source = std::move(source);
    m_recording = std::make_unique<LiveRecording>(m_source->description().toStdString());
    m_shownSnapshots = 0;
    m_saved = false;
    ++m_session;
    QDir().mkpath(recoveryFolder());
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString recovery = QDir(recoveryFolder()).filePath(QStringLiteral("live-%1.json").arg(stamp));
    m_autosaveLock = std::make_unique<QLockFile>(recovery + QStringLiteral(".lock"));
    m_autosaveLock->tryLock(0);
    m_autosaveLast.reset();
    if (!m_autosave.open(recovery))
        qWarning("live recording not autosaved: %s", qPrintable(m_autosave.error()));
    if (QFile source(sourceFileOf(recovery)); source.open(QIODevice::WriteOnly))
        source.write(m_source->description().toUtf8() + '\n');
    connect(m_source.get(), &LiveSource::received, this, &LiveController::received);
    connect(m_source.get(), &LiveSource::statusChanged, this, &LiveController::updateStatus);
    m_window->usage()->setTopK(m_topK);
    setFollowing(true);
    m_detachAction->setEnabled(true);
    m_status->show();
    m_followButton->show();
    m_source->start();
    updateStatus();
    return true;
}

void LiveController::detach()
{
    if (!m_source)
        return;
    m_source->disconnect(this);
    m_source->stop();
    // It may be inside one of its own signals: deleted once that returns.
    m_source.release()->deleteLater();
    closeAutosave();
    m_detachAction->setEnabled(false);
    m_followButton->hide();
    updateStatus();
}

void LiveController::received(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots)
{
    if (!m_recording || !snapshots)
        return;
    const LiveRecording::Added added = m_recording->add(*snapshots);
    if (added.snapshots == 0)
        return;
    m_saved = false;
    // Written on the writer's one thread, in order (serialising 5,000 rows
    // is ~3 ms the GUI thread need not spend); it keeps what the recording
    // kept: each snapshot later than the last one written.
    if (m_autosave.isOpen()) {
        m_writer.start([this, snapshots] {
            for (const ScrapedSnapshot& s : *snapshots) {
                if (m_autosaveLast && s.time <= *m_autosaveLast)
                    continue;
                m_autosave.append(s);
                m_autosaveLast = s.time;
            }
        });
    }
    m_saveAction->setEnabled(true);
    prepareNext();
}

void LiveController::prepareNext()
{
    // One version at a time: data that arrives meanwhile goes into the next.
    if (m_inFlight) {
        m_pending = true;
        return;
    }
    m_inFlight = true;
    m_pending = false;
    m_preparing = m_session;
    const QString path = QString::fromStdString(m_recording->source());
    m_watcher.setFuture(QtConcurrent::run([version = m_recording->version(), path] {
        try {
            return LoadedProfile::prepare(LiveRecording::build(version), path);
        } catch (const std::exception& e) { // out of memory: this version is not shown, the last one stays
            qWarning("live recording: version not built: %s", e.what());
            return LoadedProfile();
        }
    }));
}

void LiveController::prepared()
{
    m_inFlight = false;
    LoadedProfile loaded = m_watcher.result();
    if (m_preparing != m_session || loaded.isNull()) {
        if (m_pending && m_recording && m_preparing == m_session)
            prepareNext();
        return;
    }
    ProfileDocument* document = m_window->document();
    const Time end = loaded.profile->endTime();
    m_adjusting = true;
    // The previous version of this recording is open: it grows in place.
    if (m_shownSnapshots > 0 && document->hasProfile() && document->profile()->formatName() == loaded.profile->formatName()
        && document->profile()->sourcePath() == loaded.profile->sourcePath())
        document->continueProfile(loaded);
    else
        m_window->showProfile(loaded);
    m_shownSnapshots = loaded.profile->snapshots().size();
    if (m_following) {
        TimeAxis* axis = m_window->axis();
        // The span shown slides to the newest data: all of it up to the
        // follow window (what is redrawn each second stays bounded over an
        // hour-long recording), then that window; or the span the user chose.
        const Time span = axis->visibleSpan();
        const bool all = axis->visibleStart() <= axis->boundsStart();
        const Time from = all ? std::max(axis->boundsStart(), end - kFollowWindow) : std::max(axis->boundsStart(), end - span);
        axis->setVisibleRange(from, end, TimeAxis::History::Skip);
    }
    m_adjusting = false;
    updateStatus();
    Q_EMIT versionShown(m_shownSnapshots);
    if (m_pending && m_recording)
        prepareNext();
}

void LiveController::finishPendingWork()
{
    // Until prepared() ran for the last version (the watcher's finished
    // signal is queued: a finished future is not yet a shown version).
    while (m_inFlight || m_pending) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    m_writer.waitForDone();
}

void LiveController::visibleRangeChanged()
{
    if (m_adjusting || !m_following || m_shownSnapshots == 0)
        return;
    setFollowing(false);
}

void LiveController::setFollowing(bool following)
{
    m_following = following;
    m_followAction->setChecked(following);
    if (following && m_recording && m_shownSnapshots > 0 && m_window->document()->hasProfile()) {
        m_adjusting = true;
        TimeAxis* axis = m_window->axis();
        const Time span = axis->visibleSpan();
        axis->setVisibleRange(std::max(axis->boundsStart(), axis->boundsEnd() - span), axis->boundsEnd(),
                              TimeAxis::History::Skip);
        m_adjusting = false;
    }
    updateStatus();
}

bool LiveController::refusesReload(const QString& path) const
{
    if (!m_recording || path != QString::fromStdString(m_recording->source()))
        return false;
    m_window->statusBar()->showMessage(
        isAttached() ? tr("A live recording grows as the data arrives: there is nothing to reload")
                     : tr("A live recording is not read from a file: File ▸ Attach to Live Metrics… follows the source again"),
        8000);
    return true;
}

QString LiveController::statusText() const
{
    return m_status->text();
}

void LiveController::updateStatus()
{
    const Profile* shown = m_window->document()->profile();
    // Detached, it speaks of the recording while the recording is open.
    if (!m_recording || (!m_source && (!shown || shown->sourcePath() != m_recording->source()))) {
        m_status->hide();
        return;
    }
    QString text = QString::fromStdString(m_recording->source());
    const std::size_t n = m_recording->snapshotCount();
    const QString data = n == 0 ? tr("no data yet")
                                : tr("%1, %2, data of %3")
                                      .arg(countText(qint64(n), "snapshot", "snapshots"),
                                           countText(qint64(m_recording->procCount()), "proc", "procs"),
                                           clockText(m_recording->lastTime()));
    if (!m_source) {
        text = tr("Detached from %1 — %2").arg(text, data);
    } else {
        const LiveSource::Status& s = m_source->status();
        QString state;
        switch (s.state) {
        case LiveSource::State::Idle:
        case LiveSource::State::Connecting:
            state = tr("connecting");
            break;
        case LiveSource::State::Following:
            state = m_following ? tr("following") : tr("attached (not following: press Follow)");
            break;
        case LiveSource::State::Retrying:
            state = s.message; // says when it retries ("connection refused — retrying in 4 s")
            break;
        case LiveSource::State::Stopped:
            state = tr("stopped");
            break;
        }
        text = tr("● %1: %2 — %3").arg(text, state, data);
        if (s.lastFetch.isValid())
            text += tr(", fetched %1").arg(s.lastFetch.toString(QStringLiteral("HH:mm:ss")));
        if (s.warnings > 0)
            text += tr(", %1 skipped").arg(countText(qint64(s.warnings), "malformed line", "malformed lines"));
    }
    if (m_recording->resets() > 0)
        text += QStringLiteral(", ") + countText(qint64(m_recording->resets()), "counter reset", "counter resets");
    m_status->setText(text);
    m_status->show();
}

bool LiveController::saveRecording(const QString& path, QString* error)
{
    if (!m_recording || m_recording->snapshotCount() == 0) {
        if (error)
            *error = tr("nothing was received yet");
        return false;
    }
    QString why;
    if (!RecordingFile::save(*m_recording, path, &why)) {
        if (error)
            *error = why;
        return false;
    }
    m_saved = true;
    if (!m_source)
        removeRecovery(m_autosave.path()); // detached and saved: nothing to recover
    return true;
}

void LiveController::chooseAndSave()
{
    const QString path = m_chooseSavePath(QStringLiteral("live-recording.json"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveRecording(path, &error))
        QMessageBox::warning(m_window, tr("Save Recording"), error);
}

QString LiveController::recoveryFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath(QStringLiteral("recovery"));
}

QStringList LiveController::recoverableFiles() const
{
    QStringList files;
    const QFileInfoList found = QDir(recoveryFolder()).entryInfoList({QStringLiteral("live-*.json")}, QDir::Files,
                                                                     QDir::Time);
    for (const QFileInfo& info : found) {
        // Not ours, nor another running Runlane's recording in progress
        // (a killed one's lock is stale: its file is offered).
        QLockFile lock(info.absoluteFilePath() + QStringLiteral(".lock"));
        if (info.absoluteFilePath() != QFileInfo(m_autosave.path()).absoluteFilePath() && lock.tryLock(0))
            files << info.absoluteFilePath();
    }
    return files;
}

void LiveController::offerRecovery()
{
    for (const QString& path : recoverableFiles()) {
        const QFileInfo info(path);
        QLockFile lock(path + QStringLiteral(".lock")); // held while the question is open
        if (!lock.tryLock(0))
            continue;
        QMessageBox box(QMessageBox::Question, tr("Unsaved live recording"),
                        tr("A live recording of %1 (%2 KiB, last written %3) was not saved.")
                            .arg(recordedFrom(path))
                            .arg(info.size() / 1024)
                            .arg(info.lastModified().toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
                        QMessageBox::NoButton, m_window);
        box.setInformativeText(tr("It is kept in %1.").arg(QDir::toNativeSeparators(info.absoluteFilePath())));
        QPushButton* save = box.addButton(tr("Save As…"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() == discard) {
            removeRecovery(info.absoluteFilePath());
        } else if (box.clickedButton() == save) {
            const QString path = m_chooseSavePath(info.fileName());
            if (!path.isEmpty() && (QFile::exists(path) ? QFile::remove(path) : true)
                && QFile::rename(info.absoluteFilePath(), path)) {
                QFile::remove(sourceFileOf(info.absoluteFilePath()));
                m_window->openFile(path);
            }
        }
    }
}

} // namespace runlane
