#include "liverecovery.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace runlane {

namespace {

QString sourceFileOf(const QString& recovery)
{
    return recovery + QStringLiteral(".url");
}

QString lockFileOf(const QString& recovery)
{
    return recovery + QStringLiteral(".lock");
}

} // namespace

LiveRecovery::LiveRecovery(QString folder) : m_folder(std::move(folder))
{
    m_writer.setMaxThreadCount(1); // in order
    m_writer.setExpiryTimeout(-1);
}

LiveRecovery::~LiveRecovery()
{
    // The writes capture this: none may outlive it. The file is left as it
    // is (complete snapshots, unterminated) unless close() ended it.
    m_writer.waitForDone();
}

QString LiveRecovery::defaultFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath(QStringLiteral("recovery"));
}

QString LiveRecovery::folder() const
{
    return m_folder.isEmpty() ? defaultFolder() : m_folder;
}

bool LiveRecovery::begin(const QString& source)
{
    const QString where = folder();
    QDir().mkpath(where);
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString recovery = QDir(where).filePath(QStringLiteral("live-%1.json").arg(stamp));
    m_lock = std::make_unique<QLockFile>(lockFileOf(recovery));
    m_lock->tryLock(0);
    m_last.reset();
    const bool opened = m_file.open(recovery);
    if (!opened)
        qWarning("live recording not autosaved: %s", qPrintable(m_file.error()));
    if (QFile url(sourceFileOf(recovery)); url.open(QIODevice::WriteOnly))
        url.write(source.toUtf8() + '\n');
    return opened;
}

void LiveRecovery::append(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots)
{
    if (!m_file.isOpen() || !snapshots)
        return;
    m_writer.start([this, snapshots] {
        for (const ScrapedSnapshot& s : *snapshots) {
            if (m_last && s.time <= *m_last)
                continue;
            m_file.append(s);
            m_last = s.time;
        }
    });
}

void LiveRecovery::waitForWritten()
{
    m_writer.waitForDone();
}

void LiveRecovery::close(bool keep)
{
    m_writer.waitForDone(); // every snapshot received is in the file
    const QString recovery = m_file.path();
    if (m_file.isOpen())
        m_file.finish();
    if (!recovery.isEmpty() && !keep)
        remove(recovery);
    m_lock.reset(); // unlocked: a later start may offer what is left
}

QStringList LiveRecovery::recoverableFiles() const
{
    QStringList files;
    const QFileInfoList found = QDir(folder()).entryInfoList({QStringLiteral("live-*.json")}, QDir::Files, QDir::Time);
    for (const QFileInfo& info : found) {
        // Not ours, nor another running Runlane's recording in progress
        // (a killed one's lock is stale: its file is offered).
        if (info.absoluteFilePath() != QFileInfo(m_file.path()).absoluteFilePath() && claim(info.absoluteFilePath()))
            files << info.absoluteFilePath();
    }
    return files;
}

std::unique_ptr<QLockFile> LiveRecovery::claim(const QString& recovery)
{
    auto lock = std::make_unique<QLockFile>(lockFileOf(recovery));
    if (!lock->tryLock(0))
        return nullptr;
    return lock;
}

void LiveRecovery::remove(const QString& recovery)
{
    QFile::remove(recovery);
    QFile::remove(sourceFileOf(recovery));
}

QString LiveRecovery::recordedFrom(const QString& recovery)
{
    QFile file(sourceFileOf(recovery));
    const QString url = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.read(4096)).trimmed() : QString();
    return url.isEmpty() ? QFileInfo(recovery).fileName() : url;
}

bool LiveRecovery::moveTo(const QString& recovery, const QString& path)
{
    if (!(QFile::exists(path) ? QFile::remove(path) : true) || !QFile::rename(recovery, path))
        return false;
    QFile::remove(sourceFileOf(recovery));
    return true;
}

} // namespace runlane
