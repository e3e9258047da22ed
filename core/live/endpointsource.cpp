#include "endpointsource.h"

#include "prometheustext.h"

namespace runlane {

EndpointSource::EndpointSource(const QUrl& url, const LiveOptions& options, QObject* parent)
    : PolledSource(options, parent), m_url(url)
{
}

QString EndpointSource::description() const
{
    return m_url.toString();
}

QUrl EndpointSource::nextUrl()
{
    return m_url;
}

PolledSource::Work EndpointSource::parseLater(QByteArray body, Time fetchTime)
{
    return [this, body = std::move(body), fetchTime, filter = m_filter]() mutable {
        const PrometheusText::Result result =
            PrometheusText::parse(std::string_view(body.constData(), std::size_t(body.size())), fetchTime);
        Parsed parsed;
        parsed.warnings = result.malformedLines + result.invalidUtf8Lines;
        // No Chroprof gauges (yet: procs with nothing are not exported,
        // or not a Chroprof exporter): nothing to deliver.
        if (!result.snapshot.rows.empty() && filter.accept(result.snapshot))
            parsed.snapshots.push_back(result.snapshot);
        // The filter as the worker left it is kept only if this is delivered.
        parsed.commit = [this, filter]() { m_filter = filter; };
        return parsed;
    };
}

} // namespace runlane
