#pragma once

#include "loadedprofile.h"
#include "loaderror.h"
#include "profileloader.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace runlane {

// Loads a profile on a worker thread: progress while it reads, a cancel that
// takes effect within a chunk (1 MiB), and the result delivered on the thread
// that owns this object. One load at a time; a new one cancels the old.
class BackgroundLoader : public QObject
{
    Q_OBJECT

public:
    explicit BackgroundLoader(QObject* parent = nullptr);
    ~BackgroundLoader() override;

    // `additions`: files read into the same profile (a CPU profile added
    // to a trace, LoadControl::additions); a failure in one fails the load.
    // `variant`: which of the file's variants to read (LoadControl::variant);
    // empty: the format's default.
    void load(const QString& path, std::vector<ProfileAddition> additions = {}, const QString& variant = {});
    void cancel();
    bool isLoading() const { return m_watcher.isRunning(); }
    const QString& currentPath() const { return m_path; }

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    void loaded(const runlane::LoadedProfile& profile);
    void failed(const runlane::LoadError& error);

private:
    struct Outcome {
        LoadedProfile profile;
        LoadError error;
    };
    void finished();

    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_request = 0; // progress of a load that was replaced is dropped
    QString m_path;
};

} // namespace runlane

Q_DECLARE_METATYPE(runlane::LoadedProfile)
Q_DECLARE_METATYPE(runlane::LoadError)
