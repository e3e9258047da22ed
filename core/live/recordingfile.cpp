#include "recordingfile.h"

#include "chroprofsnapshotwriter.h"
#include "liverecording.h"
#include "snapshotreader.h"

#include <QSaveFile>

namespace runlane {

RecordingFile::RecordingFile() = default;

RecordingFile::~RecordingFile()
{
    // Left as it is (complete snapshots, unterminated): still loads.
    m_writer.reset();
}

bool RecordingFile::fail(const QString& what)
{
    m_error = QStringLiteral("%1: %2").arg(m_file.fileName(), what);
    m_writer.reset();
    m_file.close();
    return false;
}

bool RecordingFile::open(const QString& path)
{
    m_writer.reset();
    m_file.close();
    m_error.clear();
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return fail(m_file.errorString());
    m_writer = std::make_unique<ChroprofSnapshotWriter>(&m_file);
    if (!m_writer->begin())
        return fail(m_writer->errorString());
    return true;
}

bool RecordingFile::append(const ScrapedSnapshot& snapshot)
{
    if (!m_writer)
        return false;
    if (!m_writer->write(snapshot))
        return fail(m_writer->errorString());
    return true;
}

bool RecordingFile::finish()
{
    if (!m_writer)
        return false;
    if (!m_writer->finish())
        return fail(m_writer->errorString());
    m_writer.reset();
    m_file.close();
    return true;
}

bool RecordingFile::save(const LiveRecording& recording, const QString& path, QString* error)
{
    QSaveFile file(path);
    auto failed = [&](const QString& what) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, what);
        return false;
    };
    if (!file.open(QIODevice::WriteOnly))
        return failed(file.errorString());
    ChroprofSnapshotWriter writer(&file);
    if (!writer.begin())
        return failed(writer.errorString());
    SnapshotReader reader(recording.snapshots());
    for (std::size_t i = 0; i < reader.size(); ++i) {
        if (!writer.write(recording.named(reader.snapshot(i).time(), reader.rows(i))))
            return failed(writer.errorString());
    }
    if (!writer.finish())
        return failed(writer.errorString());
    if (!file.commit())
        return failed(file.errorString());
    return true;
}

} // namespace runlane
