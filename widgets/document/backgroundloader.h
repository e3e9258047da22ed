#pragma once

#include "loadedprofile.h"
#include "loaderror.h"
#include "profileloader.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace runlane {

// Loads a profile on a worker thread: progress while it reads, previews of
// what was read so far (formats that can give them), a cancel that takes
// effect within a chunk (1 MiB), and the result delivered on the thread
// that owns this object. One load at a time; a new one cancels the old.
class BackgroundLoader : public QObject
{
    Q_OBJECT

public:
    // What reads the file: ProfileLoader::load unless a test gives another.
    using LoadFunction = std::function<LoadResult(const QString& path, const LoadControl& control)>;

    explicit BackgroundLoader(QObject* parent = nullptr);
    ~BackgroundLoader() override;

    // `additions`: files read into the same profile (a CPU profile added
    // to a trace, LoadControl::additions); a failure in one fails the load.
    // `variant`: which of the file's variants to read (LoadControl::variant);
    // empty: the format's default.
    void load(const QString& path, std::vector<ProfileAddition> additions = {}, const QString& variant = {});
    // Back to where we were: the load ends as `failed` (LoadError::cancelled).
    void cancel();
    // Keep what was read: the load ends at its next chunk and, for the
    // formats that can cut (LoadControl::keepPartial), arrives through
    // `loaded` with Profile::partial() saying Cut; the others fail as
    // cancelled. A stop() once the file was read keeps the whole profile.
    void stop();
    bool isLoading() const { return m_watcher.isRunning(); }
    // The last load's loaded() or failed() was given. isLoading() turns
    // false a moment before it is: when the worker ends, before its result
    // reaches this thread's event queue (a test that waited on isLoading()
    // alone once looked at the window before the profile arrived).
    bool outcomeGiven() const { return m_ended == m_request; }
    const QString& currentPath() const { return m_path; }
    // Whether the loads from now on hand their previews to the views (the
    // default): off, the window shows a big file only once it is built, as
    // before issue 45; for `runlane --no-previews`, which a benchmark
    // compares with the previews' load to see what they cost the user.
    void setPreviews(bool on) { m_previews = on; }
    // Tests: read with `load` instead of ProfileLoader::load (null: that again).
    void setLoadFunction(LoadFunction load) { m_load = std::move(load); }

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    // Once the file is read, the build's step `step` (from 1) of `steps`
    // began (LoadControl::building), the last preparing the views.
    void building(int step, int steps, const QString& what);
    // A look at the file while it loads (Profile::partial(): Preview),
    // prepared like a profile. Only for the current load and never after
    // its loaded() or failed(); while a receiver still handles one, the
    // loading thread makes no next one (previews do not queue up).
    void previewed(const runlane::LoadedProfile& preview);
    void loaded(const runlane::LoadedProfile& profile);
    void failed(const runlane::LoadError& error);

private:
    struct Outcome {
        LoadedProfile profile;
        LoadError error;
    };
    // One load's flags, shared with its worker.
    struct Flags {
        std::atomic<bool> cancel{false};  // stop reading (LoadControl::cancel)
        std::atomic<bool> keep{false};    // stop(): keep what was read
        std::atomic<bool> abandon{false}; // cancel() or replaced: drop whatever comes
        std::atomic<bool> previewBusy{false}; // a preview is on its way to the receiver
    };
    void finished();
    void deliverPreview(quint64 request, const LoadedProfile& preview);
    // Calls deliver(loader) on the loader's thread, if `request` is its load
    // still: a replaced load's last reports arrive after its successor began.
    template<typename Deliver>
    static void post(const QPointer<BackgroundLoader>& self, quint64 request, Deliver deliver);

    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<Flags> m_flags;
    quint64 m_request = 0; // progress and previews of a load that was replaced are dropped
    quint64 m_ended = 0;   // the last request whose loaded() or failed() was given
    QString m_path;
    LoadFunction m_load;
    bool m_previews = true;
};

} // namespace runlane

Q_DECLARE_METATYPE(runlane::LoadedProfile)
Q_DECLARE_METATYPE(runlane::LoadError)
