#pragma once

#include "liverecording.h"
#include "liverecovery.h"
#include "livesource.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace runlane {

class Profile;

// Following a running program, without its window: the LiveSource
// attached, the LiveRecording its snapshots go into, their recovery file
// (LiveRecovery), the versions of the recording built to be shown, and the
// status it is in. The viewer's LiveController puts it in the window (menus,
// status bar, the profile shown and its time axis).
//
// Versions are built one at a time, off the thread of whoever shows them:
// nextVersion() gives the recording as it is now, and data that arrives
// while that version is built makes one more once it is done
// (hasPendingData()). A version of an earlier attach, or of one given up
// (dropVersionsUnderWay(): another file opened), is not shown.
class LiveSession : public QObject
{
    Q_OBJECT

public:
    using SourceFactory = std::function<std::unique_ptr<LiveSource>(const QUrl&, const LiveOptions&, QString* error)>;

    // `recoveryFolder`: see LiveRecovery.
    explicit LiveSession(QString recoveryFolder = {}, QObject* parent = nullptr);
    // Stops the source and closes the recovery file (kept if unsaved).
    ~LiveSession() override;

    // Tests: another source than LiveSource::create.
    void setSourceFactory(SourceFactory factory) { m_factory = std::move(factory); }
    // A source for `url`; null (and `error` set) when none can be made.
    std::unique_ptr<LiveSource> makeSource(const QUrl& url, const LiveOptions& options, QString* error) const;

    // Follows `source` (detached from the one before): a new recording and
    // recovery file; nothing is fetched before start().
    void attach(std::unique_ptr<LiveSource> source);
    void start();
    // False when nothing was attached. The recording stays (to show, save).
    bool detach();
    bool isAttached() const { return m_source != nullptr; }
    LiveSource* source() const { return m_source.get(); }
    const LiveRecording* recording() const { return m_recording.get(); }
    const LiveRecovery& recovery() const { return m_recovery; }

    // Whether the view keeps the newest data in sight (the status says it).
    bool isFollowing() const { return m_following; }
    void setFollowing(bool following) { m_following = following; }

    // What the source delivered: appended to the recording and the
    // recovery file; recorded() when any of it was new.
    void receive(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots);

    // The recording as it is now, to build and show; none while another
    // version is being built (its data is built once that one is done).
    std::optional<LiveRecording::Version> nextVersion();
    // The version being built is done: true when it is of this attach and
    // not given up, to be shown.
    bool versionBuilt();
    // Data arrived while a version was being built: build the next.
    bool hasPendingData() const { return m_pending && m_recording; }
    bool isBuilding() const { return m_building || m_pending; }
    // Another profile replaces the recording: the version under way and
    // the data waiting for one are not shown.
    void dropVersionsUnderWay();
    // The snapshots of the version shown last (0 before the first).
    std::size_t shownSnapshots() const { return m_shownSnapshots; }
    void setShownSnapshots(std::size_t snapshots) { m_shownSnapshots = snapshots; }

    // The status bar's text while it speaks of the recording: attached, or
    // detached while the recording is `shown`; empty otherwise.
    QString statusText(const Profile* shown) const;

    // The whole recording to `path`; false (and `error`) when nothing was
    // received or it cannot be written. Saved, it has nothing to recover.
    bool saveRecording(const QString& path, QString* error = nullptr);
    bool isSaved() const { return m_saved; }
    // Blocks until what was received is in the recovery file.
    void waitForRecovery() { m_recovery.waitForWritten(); }

Q_SIGNALS:
    // New snapshots are in the recording.
    void recorded();
    // The source's status changed.
    void statusChanged();

private:
    void closeRecovery();

    SourceFactory m_factory;
    std::unique_ptr<LiveSource> m_source;
    std::unique_ptr<LiveRecording> m_recording;
    LiveRecovery m_recovery;
    bool m_saved = false;
    bool m_following = true;
    bool m_building = false; // a version is being built
    bool m_pending = false; // data arrived while a version was being built
    // Counts attaches and versions given up: a version built for an older
    // generation is not shown.
    std::uint64_t m_generation = 0;
    std::uint64_t m_buildingGeneration = 0; // the version being built's

    std::size_t m_shownSnapshots = 0;
};

} // namespace runlane
