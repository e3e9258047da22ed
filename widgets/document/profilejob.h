#pragma once

#include "profile.h"
#include "workpool.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

namespace runlane {

// A result computed off the GUI thread together with what it was computed
// from: the profile (kept alive by the result itself, so a pointer
// comparison with the document's profile can never be fooled by a new
// profile at a recycled address) and the owner's request number.
template<typename T>
struct ProfileResult {
    std::shared_ptr<const Profile> profile;
    quint64 request = 0;
    std::shared_ptr<const T> value; // null: the computation failed or was cancelled
};

// One background computation of a view, newest request wins. A result is
// handed to `deliver` only if no newer start() or drop() came after the
// request that produced it; the receiver still checks that its profile is
// the document's. This is what makes a view unable to show a rank, series
// or call tree of one profile together with another profile: the old
// watcher-and-lambda code delivered whatever finished last.
template<typename T>
class ProfileJob
{
public:
    using Deliver = std::function<void(ProfileResult<T>)>;

    ProfileJob(QObject* context, Deliver deliver) : m_deliver(std::move(deliver))
    {
        QObject::connect(&m_watcher, &QFutureWatcher<ProfileResult<T>>::finished, context, [this] { take(); });
    }
    ~ProfileJob() { m_watcher.waitForFinished(); }
    ProfileJob(const ProfileJob&) = delete;
    ProfileJob& operator=(const ProfileJob&) = delete;

    // Runs `compute(profile)` (returning a shared_ptr<const T>, or throwing)
    // on the work pool (workPool). Whatever runs already is not waited for: it
    // finishes on its own and its result is dropped.
    template<typename Compute>
    quint64 start(std::shared_ptr<const Profile> profile, Compute compute)
    {
        const quint64 request = ++m_request;
        m_watcher.setFuture(QtConcurrent::run(workPool(), [profile = std::move(profile), request, compute]() {
            ProfileResult<T> result{profile, request, nullptr};
            try {
                result.value = compute(*profile);
            } catch (...) {
                // Cancelled, or out of memory: nothing may reach the event
                // loop (QFuture::result() would rethrow it there).
            }
            return result;
        }));
        return request;
    }
    // Forgets the request under way: its result will not be delivered.
    void drop()
    {
        ++m_request;
        m_watcher.setFuture(QFuture<ProfileResult<T>>());
    }
    bool isRunning() const { return m_watcher.isRunning(); }
    quint64 currentRequest() const { return m_request; }
    // Waits for the request under way, if any, and delivers it now.
    void finish()
    {
        m_watcher.waitForFinished();
        take();
    }

private:
    void take()
    {
        const QFuture<ProfileResult<T>> future = m_watcher.future();
        if (!future.isValid() || !future.isFinished() || future.resultCount() == 0)
            return;
        ProfileResult<T> result = future.result();
        // Taken once: a second finished() (finish() then the signal) finds nothing.
        m_watcher.setFuture(QFuture<ProfileResult<T>>());
        if (result.request == m_request)
            m_deliver(std::move(result));
    }

    QFutureWatcher<ProfileResult<T>> m_watcher;
    Deliver m_deliver;
    quint64 m_request = 0;
};

} // namespace runlane
