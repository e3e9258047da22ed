#pragma once

#include "polledsource.h"
#include "refreshfilter.h"

namespace runlane {

// An exporter's Prometheus endpoint (http://host:port/metrics), scraped
// every interval. The exposition is parsed on the worker
// (PrometheusText), and a scrape whose gauges did not change since the
// last one is dropped (RefreshFilter): Chroprof refreshes its gauges at
// most every 5 s, whatever the scrape interval, so what is delivered is
// the data's own refresh times.
class EndpointSource : public PolledSource
{
    Q_OBJECT

public:
    EndpointSource(const QUrl& url, const LiveOptions& options, QObject* parent = nullptr);

    QString description() const override;

protected:
    QUrl nextUrl() override;
    Work parseLater(QByteArray body, Time fetchTime) override;

private:
    QUrl m_url;
    RefreshFilter m_filter; // what was delivered last; advanced by a delivered parse only
};

} // namespace runlane
