#include "prometheusserversource.h"

#include "diagnostics.h"
#include "queryrangereader.h"

#include <QDateTime>

#include <algorithm>

namespace runlane {

namespace {

// Seconds with ms, as the API takes them: "1700000000.250".
QString apiTime(qint64 ms)
{
    return QStringLiteral("%1.%2").arg(ms / 1000).arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

} // namespace

PrometheusServerSource::PrometheusServerSource(const QUrl& api, const LiveOptions& options, QObject* parent)
    : PolledSource(options, parent), m_api(api)
{
}

QString PrometheusServerSource::description() const
{
    return m_api.toString();
}

QString PrometheusServerSource::query()
{
    return QStringLiteral(R"q({__name__=~"chronos_(exec_time_total|exec_time_with_children_total|run_time_total|)q"
                          R"q(wall_time_total|call_count_total|single_exec_time_max)"})q");
}

qint64 PrometheusServerSource::stepMs() const
{
    return std::max<qint64>(options().interval.count(), 1);
}

QUrl PrometheusServerSource::nextUrl()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 step = stepMs();
    // The backfill starts on a whole step, so that its steps and those of
    // every later query lie on one grid.
    const qint64 start = m_nextStartMs >= 0
        ? m_nextStartMs
        : (now - std::chrono::duration_cast<std::chrono::milliseconds>(options().backfill).count()) / step * step;
    if (start > now)
        return {};
    const qint64 steps = std::min((now - start) / step + 1, kMaxPointsPerRequest);
    const qint64 end = start + (steps - 1) * step;
    m_pendingNextMs = end + step;
    m_pendingMore = m_pendingNextMs <= now;
    QUrl url = m_api;
    url.setPath(m_api.path() + QStringLiteral("/query_range"));
    url.setQuery(QStringLiteral("query=%1&start=%2&end=%3&step=%4")
                     .arg(QString::fromLatin1(QUrl::toPercentEncoding(query())), apiTime(start), apiTime(end),
                          apiTime(step)));
    return url;
}

PolledSource::Work PrometheusServerSource::parseLater(QByteArray body, Time)
{
    return [this, body = std::move(body), filter = m_filter, lastTime = m_lastTime, next = m_pendingNextMs,
            more = m_pendingMore]() mutable {
        Diagnostics diagnostics;
        std::vector<ScrapedSnapshot> snapshots = QueryRangeReader::parse(body, diagnostics);
        Parsed parsed;
        parsed.warnings = diagnostics.warningCount();
        for (ScrapedSnapshot& snapshot : snapshots) {
            if (snapshot.time <= lastTime)
                continue; // a step an earlier query gave
            lastTime = snapshot.time;
            if (filter.accept(snapshot))
                parsed.snapshots.push_back(std::move(snapshot));
        }
        parsed.commit = [this, filter, lastTime, next, more]() {
            m_filter = filter;
            m_lastTime = lastTime;
            m_nextStartMs = next;
            m_more = more;
        };
        return parsed;
    };
}

} // namespace runlane
