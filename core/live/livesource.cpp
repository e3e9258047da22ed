#include "livesource.h"

#include "endpointsource.h"
#include "prometheusserversource.h"

namespace runlane {

namespace {

bool isApiPath(const QString& path)
{
    return path.endsWith(QLatin1String("/api/v1")) || path.endsWith(QLatin1String("/api/v1/"));
}

} // namespace

std::unique_ptr<LiveSource> LiveSource::create(const QUrl& url, const LiveOptions& options, QString* error,
                                               QObject* parent)
{
    const auto refuse = [error](const QString& message) {
        if (error)
            *error = message;
        return nullptr;
    };
    if (!url.isValid())
        return refuse(QStringLiteral("'%1' is not a URL: %2").arg(url.toString(), url.errorString()));
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https") && scheme != QLatin1String("prometheus"))
        return refuse(QStringLiteral("unsupported URL '%1': give http://host:port/metrics (an exporter), "
                                     "prometheus://host:port or http://host:port/api/v1 (a Prometheus server)")
                          .arg(url.toString()));
    if (url.host().isEmpty())
        return refuse(QStringLiteral("URL '%1' names no host").arg(url.toString()));
    if (options.interval.count() <= 0 || options.timeout.count() <= 0 || options.maxResponseBytes <= 0)
        return refuse(QStringLiteral("the interval, the timeout and the size limit must be positive"));
    if (scheme == QLatin1String("prometheus")) {
        if (!url.path().isEmpty() && url.path() != QLatin1String("/"))
            return refuse(QStringLiteral("prometheus://host:port takes no path ('%1'); for a server under a path "
                                         "give its http://…/api/v1 URL")
                              .arg(url.toString()));
        QUrl api;
        api.setScheme(QStringLiteral("http"));
        api.setHost(url.host());
        api.setPort(url.port(9090));
        api.setPath(QStringLiteral("/api/v1"));
        return std::make_unique<PrometheusServerSource>(api, options, parent);
    }
    if (isApiPath(url.path())) {
        QUrl api = url.adjusted(QUrl::StripTrailingSlash | QUrl::RemoveQuery | QUrl::RemoveFragment);
        return std::make_unique<PrometheusServerSource>(api, options, parent);
    }
    return std::make_unique<EndpointSource>(url, options, parent);
}

} // namespace runlane
