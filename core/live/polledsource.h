#pragma once

#include "backoff.h"
#include "httpfetcher.h"
#include "livesource.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QTimer>

#include <functional>

namespace runlane {

// What both live sources share: the loop that fetches (HttpFetcher: one
// request at a time), parses on a worker, delivers in order and waits for
// the next interval, or for the backoff after a failure; and the status
// that says which. A subclass says what to fetch next and how to parse it.
class PolledSource : public LiveSource
{
    Q_OBJECT

public:
    PolledSource(const LiveOptions& options, QObject* parent);
    ~PolledSource() override;

    void start() override;
    // Drops the request in flight and any parse not yet delivered: nothing
    // arrives after stop().
    void stop() override;

Q_SIGNALS:
    // A response of `bytes` arrived and is being parsed (for a status
    // bar's "receiving", and for tests that stop() at that moment).
    void fetched(qint64 bytes);

protected:
    // What the worker made of one response.
    struct Parsed {
        std::vector<ScrapedSnapshot> snapshots; // new data only, oldest first
        quint64 warnings = 0;
        QString error; // the response was unusable: a failure, retried
        // Run on the source's thread when the result is delivered (not
        // when it is dropped): the subclass keeps the state the worker
        // advanced (its RefreshFilter), so a dropped result leaves no trace.
        std::function<void()> commit;
    };
    using Work = std::function<Parsed()>;

    // The next request's URL; invalid: nothing to ask now, wait an interval.
    virtual QUrl nextUrl() = 0;
    // The parse of `body` (fetched at `fetchTime`, ns since the epoch), to
    // run on the worker: it must not touch the source, only what it captured.
    virtual Work parseLater(QByteArray body, Time fetchTime) = 0;
    // After a delivered success: true to fetch again at once (a backfill
    // in several parts) rather than after the interval.
    virtual bool moreNow() const { return false; }

    const LiveOptions& options() const { return m_options; }

private:
    void fetch();
    void onFetched(const QByteArray& body);
    void onFailed(const QString& message);
    void deliver(quint64 generation, Parsed parsed);
    void updateStatus(State state, const QString& message, std::chrono::milliseconds retryIn);

    LiveOptions m_options;
    HttpFetcher m_fetcher;
    Backoff m_backoff;
    QTimer m_timer;
    QElapsedTimer m_fetchStarted;
    // Bumped by start() and stop(): a parse of an older generation is dropped.
    quint64 m_generation = 0;
    bool m_parsing = false;
    quint64 m_warnings = 0;
    // One thread: parses run one after another, in the order of the fetches.
    QThreadPool m_worker;
};

} // namespace runlane
