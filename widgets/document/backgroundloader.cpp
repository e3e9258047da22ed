#include "backgroundloader.h"

#include "loaderror.h"
#include "profilebuilder.h"
#include "profileloader.h"
#include "workpool.h"

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

template<typename Deliver>
void BackgroundLoader::post(const QPointer<BackgroundLoader>& self, quint64 request, Deliver deliver)
{
    if (self)
        QMetaObject::invokeMethod(self, [self, request, deliver = std::move(deliver)] {
            if (self && self->m_request == request)
                deliver(self.data());
        }, Qt::QueuedConnection);
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
    m_flags = std::make_shared<Flags>();
    const auto flags = m_flags;
    const quint64 request = ++m_request;
    QPointer<BackgroundLoader> self(this);
    const LoadFunction read = m_load ? m_load : LoadFunction([](const QString& file, const LoadControl& control) {
        return ProfileLoader::load(file, control);
    });
    m_watcher.setFuture(QtConcurrent::run(workPool(), [path, additions = std::move(additions), variant = variant.toStdString(), flags,
                                           self, request, read, previews = m_previews]() {
        LoadControl control;
        control.additions = additions;
        control.variant = variant;
        control.cancel = &flags->cancel;
        control.keepPartial = &flags->keep;
        control.abandon = &flags->abandon;
        control.progress = [self, request](std::int64_t done, std::int64_t total) {
            post(self, request, [done, total](BackgroundLoader* loader) { Q_EMIT loader->progress(done, total); });
        };
        // The core's steps, then ours: the views' preparation.
        constexpr int steps = ProfileBuilder::kBuildSteps + 1;
        auto report = [self, request](int step, const char* what) {
            post(self, request, [step, what = QString::fromUtf8(what)](BackgroundLoader* loader) {
                Q_EMIT loader->building(step, steps, what);
            });
        };
        control.building = [report](int step, int, const char* what) { report(step, what); };
        // A file added to the profile on show (File ▸ Add) reads the trace
        // again: a preview of it would replace the whole profile on show
        // with a part of it, until the one with the addition comes.
        if (additions.empty() && previews)
            control.preview = [self, request, flags, path](std::shared_ptr<const Profile> profile) {
                // The receiver still shows the last one (or it is on its way):
                // this one is skipped rather than queued behind it, so that what
                // the user sees is never more than one preview late.
                if (!profile || flags->cancel.load() || flags->previewBusy.exchange(true))
                    return;
                LoadedProfile preview;
                try {
                    preview = LoadedProfile::prepare(std::move(profile), path, &flags->cancel);
                } catch (...) {
                    // Cancelled, or out of memory for a look: the load goes on
                    // (nothing may reach the reader, which called us).
                    flags->previewBusy.store(false);
                    return;
                }
                if (!self) {
                    flags->previewBusy.store(false);
                    return;
                }
                QMetaObject::invokeMethod(self, [self, request, flags, preview] {
                    // Free for the next one as this one is handled (within the
                    // call below): a reader that waits for this one's delivery
                    // (tst_backgroundloader) may give its next at once, and
                    // must not find it skipped. At most one waits queued.
                    flags->previewBusy.store(false);
                    if (self)
                        self->deliverPreview(request, preview);
                }, Qt::QueuedConnection);
            };
        Outcome outcome;
        LoadResult result = read(path, control);
        if (!result.ok()) {
            outcome.error = std::move(result.error);
            return outcome;
        }
        try {
            report(steps, "preparing the views");
            // Prepared unless the load is abandoned: after stop() the cut
            // profile (or the whole one, read before the stop) is wanted.
            outcome.profile = LoadedProfile::prepare(std::move(result.profile), path, &flags->abandon);
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
        if (flags->abandon.load()) {
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
    if (m_flags) {
        m_flags->abandon.store(true);
        m_flags->cancel.store(true);
    }
}

void BackgroundLoader::stop()
{
    // keep before cancel: the reader reads keepPartial once it sees cancel.
    if (m_flags && m_watcher.isRunning()) {
        m_flags->keep.store(true);
        m_flags->cancel.store(true);
    }
}

void BackgroundLoader::deliverPreview(quint64 request, const LoadedProfile& preview)
{
    // A replaced load's previews, and any still queued once its result was
    // given (the queue's order makes that impossible; the check makes it
    // certain), are dropped.
    if (request != m_request || request == m_ended || !m_watcher.isRunning())
        return;
    Q_EMIT previewed(preview);
}

void BackgroundLoader::finished()
{
    m_ended = m_request;
    Outcome outcome = m_watcher.result();
    // cancel() after stop(), while the kept profile was on its way: back, as
    // the user asked last.
    if (!outcome.profile.isNull() && m_flags && m_flags->abandon.load()) {
        outcome.profile = LoadedProfile();
        outcome.error.file = m_path.toStdString();
        outcome.error.cancelled = true;
        outcome.error.message = "loading was cancelled";
    }
    if (outcome.profile.isNull())
        Q_EMIT failed(outcome.error);
    else
        Q_EMIT loaded(outcome.profile);
}

} // namespace runlane
