#pragma once

#include "scrapedsnapshot.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QUrl>

#include <chrono>
#include <memory>
#include <vector>

namespace runlane {

// How to follow a live source (File ▸ Attach…, runlane --attach,
// runlane-cli record).
struct LiveOptions {
    std::chrono::milliseconds interval{1000}; // between scrapes / queries
    std::chrono::milliseconds timeout{10000}; // per request
    std::chrono::minutes backfill{15}; // a Prometheus server's past, fetched first
    qint64 maxResponseBytes = qint64(256) << 20; // a bigger response is an error, not an OOM
    // After a failure the next attempt waits retryBase, doubling up to
    // retryMax (1 s, 2 s, 4 s … 30 s); the tests shorten them.
    std::chrono::milliseconds retryBase{1000};
    std::chrono::milliseconds retryMax{30000};
};

// A running program's Chroprof metrics, fetched periodically: an exporter's
// /metrics endpoint (EndpointSource) or a Prometheus server
// (PrometheusServerSource). Lives on the GUI (or CLI main) thread; network
// I/O is asynchronous and parsing runs on a worker, so neither blocks it.
// A failed fetch (refused, timed out, malformed, too big) is retried with
// backoff and reported through status(); nothing received is taken back.
class LiveSource : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Connecting, Following, Retrying, Stopped };
    struct Status {
        State state = State::Idle;
        QDateTime lastFetch; // the last successful fetch (local clock)
        // The last error and, while Retrying, when the next attempt is
        // ("connection refused — retrying in 4 s"): shown as it is; "" while
        // all is well.
        QString message;
        int failures = 0; // consecutive failed fetches
        std::chrono::milliseconds retryIn{0}; // while Retrying
        quint64 warnings = 0; // malformed / non-UTF-8 lines and the like, counted over the session
    };

    // An EndpointSource for http(s)://…, a PrometheusServerSource for
    // prometheus://host:port or an http(s)://…/api/v1 URL; null (and
    // `error` set) for anything else.
    static std::unique_ptr<LiveSource> create(const QUrl& url, const LiveOptions& options, QString* error,
                                              QObject* parent = nullptr);

    using QObject::QObject;
    ~LiveSource() override = default;

    virtual void start() = 0;
    virtual void stop() = 0;
    const Status& status() const { return m_status; }
    // What is followed, for titles and the status bar ("http://127.0.0.1:8008/metrics").
    virtual QString description() const = 0;

Q_SIGNALS:
    // New data, oldest first: only snapshots that carry new values (a
    // scrape of gauges that did not change since the last one is dropped,
    // so times are the data's own refresh times). A Prometheus backfill
    // delivers many at once.
    void received(std::shared_ptr<const std::vector<ScrapedSnapshot>> snapshots);
    void statusChanged();

protected:
    void setStatus(const Status& status)
    {
        m_status = status;
        Q_EMIT statusChanged();
    }

private:
    Status m_status;
};

} // namespace runlane
