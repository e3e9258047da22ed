#include "livecontroller.h"

#include "comparesession.h"
#include "liverecovery.h"
#include "mainwindow.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "usagechart.h"
#include "workpool.h"

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
#include <QLockFile>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace runlane {

namespace {

// What following shows of a recording longer than it (zoom out to see more).
constexpr Time kFollowWindow = Time(5) * 60 * 1'000'000'000;

} // namespace

LiveController::LiveController(QMenu* file, MainWindow* window) : QObject(window), m_window(window)
{
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
            m_session.dropVersionsUnderWay(); // not shown over that file
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
    connect(&m_session, &LiveSession::recorded, this, &LiveController::recorded);
    connect(&m_session, &LiveSession::statusChanged, this, &LiveController::updateStatus);
}

LiveController::~LiveController()
{
    // The window's widgets and actions may be gone already: only the
    // session (source and files) is put in order, as it is destroyed,
    // once no version is being prepared.
    m_session.disconnect(this);
    m_watcher.waitForFinished();
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
    std::unique_ptr<LiveSource> source = m_session.makeSource(url, options, &why);
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
    m_session.attach(std::move(source));
    m_window->usage()->setTopK(m_topK);
    setFollowing(true);
    m_detachAction->setEnabled(true);
    m_status->show();
    m_followButton->show();
    m_session.start();
    updateStatus();
    return true;
}

void LiveController::detach()
{
    if (!m_session.detach())
        return;
    m_detachAction->setEnabled(false);
    m_followButton->hide();
    updateStatus();
}

void LiveController::recorded()
{
    m_saveAction->setEnabled(true);
    prepareNext();
}

void LiveController::prepareNext()
{
    std::optional<LiveRecording::Version> next = m_session.nextVersion();
    if (!next)
        return; // made once the one under way is shown
    const QString path = QString::fromStdString(next->source);
    m_watcher.setFuture(QtConcurrent::run(workPool(), [version = std::move(*next), path] {
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
    const bool current = m_session.versionBuilt();
    LoadedProfile loaded = m_watcher.result();
    if (!current || loaded.isNull()) {
        if (current && m_session.hasPendingData())
            prepareNext();
        return;
    }
    ProfileDocument* document = m_window->document();
    const Time end = loaded.profile->endTime();
    m_adjusting = true;
    // The previous version of this recording is open: it grows in place.
    if (m_session.shownSnapshots() > 0 && document->hasProfile() && document->profile()->formatName() == loaded.profile->formatName()
        && document->profile()->sourcePath() == loaded.profile->sourcePath())
        document->continueProfile(loaded);
    else
        m_window->showProfile(loaded);
    m_session.setShownSnapshots(loaded.profile->snapshots().size());
    if (m_session.isFollowing()) {
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
    Q_EMIT versionShown(m_session.shownSnapshots());
    if (m_session.hasPendingData())
        prepareNext();
}

void LiveController::finishPendingWork()
{
    // Until prepared() ran for the last version (the watcher's finished
    // signal is queued: a finished future is not yet a shown version).
    while (m_session.isBuilding()) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    m_session.waitForRecovery();
}

void LiveController::visibleRangeChanged()
{
    if (m_adjusting || !m_session.isFollowing() || m_session.shownSnapshots() == 0)
        return;
    setFollowing(false);
}

void LiveController::setFollowing(bool following)
{
    m_session.setFollowing(following);
    m_followAction->setChecked(following);
    if (following && m_session.recording() && m_session.shownSnapshots() > 0 && m_window->document()->hasProfile()) {
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
    const LiveRecording* recording = m_session.recording();
    if (!recording || path != QString::fromStdString(recording->source()))
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
    const QString text = m_session.statusText(m_window->document()->profile());
    if (text.isEmpty()) {
        m_status->hide();
        return;
    }
    m_status->setText(text);
    m_status->show();
}

bool LiveController::saveRecording(const QString& path, QString* error)
{
    return m_session.saveRecording(path, error);
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

void LiveController::offerRecovery()
{
    for (const QString& path : recoverableFiles()) {
        const QFileInfo info(path);
        const std::unique_ptr<QLockFile> lock = LiveRecovery::claim(path); // held while the question is open
        if (!lock)
            continue;
        QMessageBox box(QMessageBox::Question, tr("Unsaved live recording"),
                        tr("A live recording of %1 (%2 KiB, last written %3) was not saved.")
                            .arg(LiveRecovery::recordedFrom(path))
                            .arg(info.size() / 1024)
                            .arg(info.lastModified().toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
                        QMessageBox::NoButton, m_window);
        box.setInformativeText(tr("It is kept in %1.").arg(QDir::toNativeSeparators(info.absoluteFilePath())));
        QPushButton* save = box.addButton(tr("Save As…"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() == discard) {
            LiveRecovery::remove(info.absoluteFilePath());
        } else if (box.clickedButton() == save) {
            const QString path = m_chooseSavePath(info.fileName());
            if (!path.isEmpty() && LiveRecovery::moveTo(info.absoluteFilePath(), path))
                m_window->openFile(path);
        }
    }
}

} // namespace runlane
