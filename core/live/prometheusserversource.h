#pragma once

#include "polledsource.h"
#include "refreshfilter.h"

namespace runlane {

// A Prometheus server that scrapes the program (prometheus://host:port, or
// its http(s)://…/api/v1 URL): first the last `backfill` of Chroprof's
// gauges through /api/v1/query_range (in parts, under the server's 11,000
// points per series), then every interval the span since the last query.
// Each step is one snapshot; a step already delivered is never asked for
// or delivered again, and steps whose values did not change are dropped
// (RefreshFilter), as for an endpoint.
class PrometheusServerSource : public PolledSource
{
    Q_OBJECT

public:
    // `api`: the server's http(s)://host:port/…/api/v1.
    PrometheusServerSource(const QUrl& api, const LiveOptions& options, QObject* parent = nullptr);

    QString description() const override;
    // The PromQL of the Chroprof gauges (both exporters' names).
    static QString query();
    // Prometheus refuses a range of more than 11,000 points per series.
    static constexpr qint64 kMaxPointsPerRequest = 10000;

protected:
    QUrl nextUrl() override;
    Work parseLater(QByteArray body, Time fetchTime) override;
    bool moreNow() const override { return m_more; }

private:
    qint64 stepMs() const;

    QUrl m_api;
    // The first step (ms since the epoch) not asked for yet; -1 before the backfill.
    qint64 m_nextStartMs = -1;
    // The request in flight: where the cursor goes once it is delivered,
    // and whether it stopped short of now.
    qint64 m_pendingNextMs = -1;
    bool m_pendingMore = false;
    bool m_more = false;
    RefreshFilter m_filter;
    Time m_lastTime = -1; // the newest step delivered (or filtered out as unchanged)
};

} // namespace runlane
