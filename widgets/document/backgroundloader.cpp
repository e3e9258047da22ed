#include "backgroundloader.h"

#include "loaderror.h"
#include "profileloader.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace runlane {

BackgroundLoader::BackgroundLoader(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &BackgroundLoader::finished);
}

BackgroundLoader::~BackgroundLoader()
{
    cancel();
    m_watcher.waitForFinished();
}

void BackgroundLoader::load(const QString& path, std::vector<ProfileAddition> additions, const QString& variant)
{
    if (m_watcher.isRunning()) {
        // The old load notices its flag at its next chunk; its result is dropped.
        cancel();
        disconnect(&m_watcher, nullptr, this, nullptr);
        m_watcher.waitForFinished();
        connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &BackgroundLoader::finished);
    }
    m_path = path;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const auto cancelFlag = m_cancel;
    const quint64 request = ++m_request;
    QPointer<BackgroundLoader> self(this);
    m_watcher.setFuture(QtConcurrent::run([path, additions = std::move(additions), variant = variant.toStdString(),
                                           cancelFlag, self, request]() {
        LoadControl control;
        control.additions = additions;
        control.variant = variant;
        control.cancel = cancelFlag.get();
        control.progress = [self, request](std::int64_t done, std::int64_t total) {
            // Queued to the loader's thread, where the request is compared:
            // a replaced load's last chunks arrive after its successor began.
            if (self)
                QMetaObject::invokeMethod(self, [self, request, done, total] {
                    if (self && self->m_request == request)
                        Q_EMIT self->progress(done, total);
                }, Qt::QueuedConnection);
        };
        Outcome outcome;
        LoadResult result = ProfileLoader::load(path, control);
        if (!result.ok()) {
            outcome.error = std::move(result.error);
            return outcome;
        }
        try {
            outcome.profile = LoadedProfile::prepare(std::move(result.profile), path, cancelFlag.get());
        } catch (const LoadCancelled&) {
        } catch (const std::exception& e) {
            // Nothing thrown here may reach the event loop (result() would
            // rethrow it there): it becomes a failed load like any other.
            outcome.profile = LoadedProfile();
            outcome.error.file = path.toStdString();
            outcome.error.message = dynamic_cast<const std::bad_alloc*>(&e)
                ? "not enough memory to show this profile"
                : std::string("unexpected error: ") + e.what();
            return outcome;
        }
        // Cancelled after the file was read: the profile is dropped all the
        // same, as the user asked.
        if (cancelFlag->load()) {
            outcome.profile = LoadedProfile();
            outcome.error.file = path.toStdString();
            outcome.error.cancelled = true;
            outcome.error.message = "loading was cancelled";
        }
        return outcome;
    }));
}

void BackgroundLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void BackgroundLoader::finished()
{
    Outcome outcome = m_watcher.result();
    if (outcome.profile.isNull())
        Q_EMIT failed(outcome.error);
    else
        Q_EMIT loaded(outcome.profile);
}

} // namespace runlane
