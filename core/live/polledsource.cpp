#include "polledsource.h"

#include <QDateTime>

#include <algorithm>

namespace runlane {

namespace {

Time nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

PolledSource::PolledSource(const LiveOptions& options, QObject* parent)
    : LiveSource(parent), m_options(options), m_fetcher(options.timeout, options.maxResponseBytes),
      m_backoff(options.retryBase, options.retryMax)
{
    m_timer.setSingleShot(true);
    // A coarse timer may fire 5 % early: a retry would come before its backoff.
    m_timer.setTimerType(Qt::PreciseTimer);
    m_worker.setMaxThreadCount(1);
    connect(&m_timer, &QTimer::timeout, this, &PolledSource::fetch);
    connect(&m_fetcher, &HttpFetcher::succeeded, this, &PolledSource::onFetched);
    connect(&m_fetcher, &HttpFetcher::failed, this, &PolledSource::onFailed);
}

PolledSource::~PolledSource()
{
    // A parse still running posts to this object; let it end first.
    ++m_generation;
    m_worker.waitForDone();
}

void PolledSource::start()
{
    ++m_generation;
    m_fetcher.abort();
    m_parsing = false;
    m_backoff.reset();
    updateStatus(State::Connecting, {}, {});
    fetch();
}

void PolledSource::stop()
{
    ++m_generation;
    m_fetcher.abort();
    m_timer.stop();
    m_parsing = false;
    updateStatus(State::Stopped, {}, {});
}

void PolledSource::fetch()
{
    // Never two requests, nor a request while the last one is parsed.
    if (m_fetcher.busy() || m_parsing || status().state == State::Stopped)
        return;
    const QUrl url = nextUrl();
    if (!url.isValid()) {
        m_timer.start(m_options.interval);
        return;
    }
    m_fetchStarted.start();
    m_fetcher.get(url);
}

void PolledSource::onFetched(const QByteArray& body)
{
    m_parsing = true;
    const quint64 generation = m_generation;
    m_worker.start([this, generation, work = parseLater(body, nowNs())]() {
        Parsed parsed;
        try {
            parsed = work();
        } catch (const std::exception& e) {
            parsed = Parsed{};
            // The response, not the connection, was wrong: say so.
            parsed.error = QStringLiteral("unreadable response: %1").arg(QString::fromStdString(e.what()));
        }
        QMetaObject::invokeMethod(
            this, [this, generation, parsed = std::move(parsed)]() mutable { deliver(generation, std::move(parsed)); },
            Qt::QueuedConnection);
    });
    Q_EMIT fetched(body.size());
}

void PolledSource::deliver(quint64 generation, Parsed parsed)
{
    if (generation != m_generation)
        return; // stopped (or restarted) since: a late result
    m_parsing = false;
    if (!parsed.error.isEmpty())
        return onFailed(parsed.error);
    if (parsed.commit)
        parsed.commit();
    m_backoff.reset();
    m_warnings += parsed.warnings;
    Status next = status();
    next.state = State::Following;
    next.lastFetch = QDateTime::currentDateTime();
    next.message.clear();
    next.failures = 0;
    next.retryIn = {};
    next.warnings = m_warnings;
    setStatus(next);
    if (!parsed.snapshots.empty())
        Q_EMIT received(std::make_shared<const std::vector<ScrapedSnapshot>>(std::move(parsed.snapshots)));
    if (status().state != State::Following)
        return; // a receiver stopped us
    // The interval counts from the start of this fetch, so a slow server
    // does not stretch it.
    const auto elapsed = std::chrono::milliseconds(m_fetchStarted.elapsed());
    m_timer.start(moreNow() ? std::chrono::milliseconds(0) : std::max(m_options.interval - elapsed, std::chrono::milliseconds(0)));
}

void PolledSource::onFailed(const QString& message)
{
    m_parsing = false;
    const std::chrono::milliseconds wait = m_backoff.fail();
    updateStatus(State::Retrying, QStringLiteral("%1 — retrying in %2").arg(message, HttpFetcher::durationText(wait)), wait);
    m_timer.start(wait);
}

void PolledSource::updateStatus(State state, const QString& message, std::chrono::milliseconds retryIn)
{
    Status next = status();
    next.state = state;
    next.message = message;
    next.failures = m_backoff.failures();
    next.retryIn = retryIn;
    next.warnings = m_warnings;
    setStatus(next);
}

} // namespace runlane
