#pragma once

#include "recordingfile.h"
#include "scrapedsnapshot.h"

#include <QLockFile>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <memory>
#include <optional>
#include <vector>

namespace runlane {

// The recovery file of a live recording: what a session receives is
// appended, as it arrives, to a Chroprof snapshots file of its own
// ("live-<date>-<time>.json" in the recovery folder), with the URL it is
// recorded from beside it in "<file>.url" (a snapshots file does not say).
// A recording the program ends without saving is left there and offered on
// the next start (recoverableFiles()); a saved one is removed. Its file is
// locked while written, so that another running Runlane does not offer a
// recording in progress (a killed one's lock is stale and taken over).
class LiveRecovery
{
public:
    // `folder`: where the files are kept; empty: defaultFolder(), as it is
    // when it is used.
    explicit LiveRecovery(QString folder = {});
    ~LiveRecovery();
    LiveRecovery(const LiveRecovery&) = delete;
    LiveRecovery& operator=(const LiveRecovery&) = delete;

    // The application's data folder, which Qt names organization/application
    // (~/.local/share/Runlane/Runlane/recovery on Linux), as the settings
    // are ~/.config/Runlane/Runlane.conf.
    static QString defaultFolder();
    QString folder() const;

    // A new recovery file for a recording of `source` (closing none: call
    // close() first); false, said as a warning, when it cannot be written:
    // the recording goes on without it.
    bool begin(const QString& source);
    bool isOpen() const { return m_file.isOpen(); }
    // The file begun last, also once closed; empty before.
    QString path() const { return m_file.path(); }
    // Appends the snapshots later than the last one written, on a thread of
    // its own and in order (serialising 5,000 rows is ~3 ms the GUI thread
    // need not spend): it keeps what the recording kept.
    void append(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots);
    // Blocks until every snapshot appended is in the file.
    void waitForWritten();
    // Ends the file (complete JSON) and unlocks it; `keep` false (saved, or
    // nothing received) removes it: there is nothing to recover.
    void close(bool keep);

    // The recordings a previous run left in folder(), newest first: not
    // this one's, nor one another running Runlane is writing.
    QStringList recoverableFiles() const;

    // The lock of a recovery file, held (while a question about it is
    // open); null when another Runlane holds it.
    static std::unique_ptr<QLockFile> claim(const QString& recovery);
    // A recovery file and its URL file removed.
    static void remove(const QString& recovery);
    // The URL a recovery file was recorded from; its file name when that is
    // not known (a file of a version that did not keep it).
    static QString recordedFrom(const QString& recovery);
    // A recovery file saved as `path` (replacing what is there), its URL
    // file removed; false when it could not be moved (both are left).
    static bool moveTo(const QString& recovery, const QString& path);

private:
    QString m_folder;
    RecordingFile m_file;
    std::optional<Time> m_last; // the last snapshot written, on m_writer's thread
    std::unique_ptr<QLockFile> m_lock;
    // One thread, so the snapshots are written in order; last, so that it
    // is done before the file goes.
    QThreadPool m_writer;
};

} // namespace runlane
