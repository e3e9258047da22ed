#include "livesession.h"

#include "counttext.h"
#include "profile.h"

#include <QDateTime>

namespace runlane {

namespace {

QString clockText(Time ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

LiveSession::LiveSession(QString recoveryFolder, QObject* parent) : QObject(parent), m_recovery(std::move(recoveryFolder))
{
}

LiveSession::~LiveSession()
{
    if (m_source) {
        m_source->disconnect(this);
        m_source->stop();
        m_source.reset();
    }
    closeRecovery();
}

void LiveSession::closeRecovery()
{
    // Saved (or nothing received): there is nothing to recover.
    m_recovery.close(!m_saved && m_recording && m_recording->snapshotCount() > 0);
}

std::unique_ptr<LiveSource> LiveSession::makeSource(const QUrl& url, const LiveOptions& options, QString* error) const
{
    return m_factory ? m_factory(url, options, error) : LiveSource::create(url, options, error);
}

void LiveSession::attach(std::unique_ptr<LiveSource> source)
{
    detach();
    m_source = std::move(source);
    m_recording = std::make_unique<LiveRecording>(m_source->description().toStdString());
    m_shownSnapshots = 0;
    m_saved = false;
    ++m_generation;
    m_recovery.begin(m_source->description());
    connect(m_source.get(), &LiveSource::received, this, &LiveSession::receive);
    connect(m_source.get(), &LiveSource::statusChanged, this, &LiveSession::statusChanged);
}

void LiveSession::start()
{
    if (m_source)
        m_source->start();
}

bool LiveSession::detach()
{
    if (!m_source)
        return false;
    m_source->disconnect(this);
    m_source->stop();
    // It may be inside one of its own signals: deleted once that returns.
    m_source.release()->deleteLater();
    closeRecovery();
    return true;
}

void LiveSession::receive(const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots)
{
    if (!m_recording || !snapshots)
        return;
    const LiveRecording::Added added = m_recording->add(*snapshots);
    if (added.snapshots == 0)
        return;
    m_saved = false;
    m_recovery.append(snapshots);
    Q_EMIT recorded();
}

std::optional<LiveRecording::Version> LiveSession::nextVersion()
{
    // One version at a time: data that arrives meanwhile goes into the next.
    if (m_building) {
        m_pending = true;
        return std::nullopt;
    }
    m_building = true;
    m_pending = false;
    m_buildingGeneration = m_generation;
    return m_recording->version();
}

bool LiveSession::versionBuilt()
{
    m_building = false;
    return m_buildingGeneration == m_generation;
}

void LiveSession::dropVersionsUnderWay()
{
    ++m_generation;
    m_pending = false;
}

QString LiveSession::statusText(const Profile* shown) const
{
    // Detached, it speaks of the recording while the recording is open.
    if (!m_recording || (!m_source && (!shown || shown->sourcePath() != m_recording->source())))
        return {};
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
    return text;
}

bool LiveSession::saveRecording(const QString& path, QString* error)
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
        LiveRecovery::remove(m_recovery.path()); // detached and saved: nothing to recover
    return true;
}

} // namespace runlane
