#pragma once

#include "scrapedsnapshot.h"

#include <QFile>
#include <QString>

#include <memory>

namespace runlane {

class ChroprofSnapshotWriter;
class LiveRecording;

// A live recording on disk, as a Chroprof snapshots file that opens like
// any profile: each snapshot is appended (and flushed) as it arrives, so a
// program that is killed leaves a file that loads with every snapshot up to
// the last complete one. The viewer's autosave (its recovery file) and
// File ▸ Save recording… both write through it.
class RecordingFile
{
public:
    RecordingFile();
    ~RecordingFile();
    RecordingFile(const RecordingFile&) = delete;
    RecordingFile& operator=(const RecordingFile&) = delete;

    // Creates (truncates) `path` and writes the head; false with error().
    bool open(const QString& path);
    bool isOpen() const { return m_writer != nullptr; }
    bool append(const ScrapedSnapshot& snapshot);
    // Closes the JSON; the file is complete.
    bool finish();
    QString path() const { return m_file.fileName(); }
    const QString& error() const { return m_error; }

    // The whole of `recording` to `path`, written to a temporary file first
    // so a failed save leaves what was there.
    static bool save(const LiveRecording& recording, const QString& path, QString* error);

private:
    bool fail(const QString& what);

    QFile m_file;
    std::unique_ptr<ChroprofSnapshotWriter> m_writer;
    QString m_error;
};

} // namespace runlane
