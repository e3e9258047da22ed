#include "livesource.h"

namespace runlane {

std::unique_ptr<LiveSource> LiveSource::create(const QUrl& url, const LiveOptions&, QString* error, QObject*)
{
    if (error)
        *error = QStringLiteral("no live source for %1").arg(url.toString());
    return nullptr;
}

} // namespace runlane
