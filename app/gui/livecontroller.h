#pragma once

#include "liverecording.h"
#include "livesource.h"
#include "loadedprofile.h"
#include "recordingfile.h"

#include <QFutureWatcher>
#include <QLockFile>
#include <QObject>
#include <QThreadPool>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QToolButton;

namespace runlane {

class MainWindow;

// Live mode (File ▸ Attach…, runlane --attach URL): a LiveSource's
// snapshots go into a LiveRecording, whose next version replaces the open
// profile in place (ProfileDocument::continueProfile: the usage chart grows
// to the right, the rank keeps its sort, selection and scroll). While
// following, the visible range slides with the data; any zoom or pan stops
// following until Follow is pressed again. The status bar says the
// connection state, the data's last refresh and errors. Everything received
// is autosaved to a recovery file (offered on the next start if it was
// never saved) and can be saved with File ▸ Save recording….
class LiveController : public QObject
{
    Q_OBJECT

public:
    using SourceFactory = std::function<std::unique_ptr<LiveSource>(const QUrl&, const LiveOptions&, QString* error)>;
    struct AttachChoice {
        QUrl url;
        LiveOptions options;
        int topK = 10;
    };

    LiveController(QMenu* file, MainWindow* window);
    ~LiveController() override;

    // Starts following `url`; false (the error shown in the status bar and
    // returned) when no source can be made for it.
    bool attach(const QUrl& url, const LiveOptions& options, QString* error = nullptr);
    void detach();
    bool isAttached() const { return m_source != nullptr; }
    bool isFollowing() const { return m_following; }
    void setFollowing(bool following);
    const LiveRecording* recording() const { return m_recording.get(); }
    LiveSource* source() const { return m_source.get(); }
    QString statusText() const;
    // File ▸ Reload of `path`: true (and said in the status bar) when it is
    // this recording's source, which is no file to read again.
    bool refusesReload(const QString& path) const;
    // File ▸ Save recording… without the dialog.
    bool saveRecording(const QString& path, QString* error = nullptr);
    // Where unsaved recordings are kept (one file per attach, with the URL
    // it came from beside it): the application's data folder, which Qt
    // names organization/application (~/.local/share/Runlane/Runlane/recovery
    // on Linux), as the settings are ~/.config/Runlane/Runlane.conf.
    static QString recoveryFolder();
    QString recoveryPath() const { return m_autosave.path(); }
    // The recordings a previous run left unsaved, newest first.
    QStringList recoverableFiles() const;
    // Offers them (at start-up): Save As…, Discard or Later.
    void offerRecovery();
    // Blocks until the profile version being prepared is shown and the
    // recovery file written (tests).
    void finishPendingWork();

    // Tests: another source than LiveSource::create, and the dialogs' answers.
    void setSourceFactory(SourceFactory factory) { m_factory = std::move(factory); }
    // Where Save Recording… writes: a file dialog, or the tests' answer;
    // `suggestion` is the file name offered. Empty: cancelled.
    using SavePathChooser = std::function<QString(const QString& suggestion)>;
    void setSavePathChooser(SavePathChooser chooser) { m_chooseSavePath = std::move(chooser); }
    void setAttachChooser(std::function<std::optional<AttachChoice>()> chooser) { m_chooseAttach = std::move(chooser); }

Q_SIGNALS:
    // A version of the recording is shown (its snapshot count).
    void versionShown(std::size_t snapshots);

private:
    std::optional<AttachChoice> askAttach();
    void received(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots);
    void prepareNext();
    void prepared();
    void updateStatus();
    void visibleRangeChanged();
    void chooseAndSave();
    void closeAutosave();

    MainWindow* m_window;
    SourceFactory m_factory;
    SavePathChooser m_chooseSavePath;
    std::function<std::optional<AttachChoice>()> m_chooseAttach;
    std::unique_ptr<LiveSource> m_source;
    std::unique_ptr<LiveRecording> m_recording;
    // The recovery file, written on m_writer's one thread while attached.
    RecordingFile m_autosave;
    std::optional<Time> m_autosaveLast;
    QThreadPool m_writer;
    // Held while the recovery file is written: another Runlane does not
    // offer it (a killed one's lock is stale and taken over).
    std::unique_ptr<QLockFile> m_autosaveLock;
    bool m_saved = false;
    bool m_following = true;
    bool m_adjusting = false; // the axis moves because of us, not the user
    bool m_inFlight = false; // a version is being prepared
    bool m_pending = false; // data arrived while a version was being prepared
    quint64 m_session = 0; // which attach a prepared version belongs to
    quint64 m_preparing = 0;
    QFutureWatcher<LoadedProfile> m_watcher;
    std::size_t m_shownSnapshots = 0;
    int m_topK = 10;
    QString m_lastAttach = QStringLiteral("http://127.0.0.1:8008/metrics");
    QAction* m_attachAction = nullptr;
    QAction* m_detachAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_followAction = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_followButton = nullptr;
};

} // namespace runlane
