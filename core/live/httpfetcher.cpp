#include "httpfetcher.h"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

namespace runlane {

HttpFetcher::HttpFetcher(std::chrono::milliseconds timeout, qint64 maxBytes, QObject* parent)
    : QObject(parent), m_timeout(timeout), m_maxBytes(std::max<qint64>(maxBytes, 1))
{
}

HttpFetcher::~HttpFetcher()
{
    abort();
}

bool HttpFetcher::get(const QUrl& url)
{
    if (m_reply)
        return false;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(int(m_timeout.count()));
    // A compressed body could expand past the cap behind our back.
    request.setRawHeader("Accept-Encoding", "identity");
    m_body.clear();
    m_reply = m_manager.get(request);
    // Qt would otherwise buffer whatever the socket gives; we read each
    // chunk as it arrives and stop at the cap.
    m_reply->setReadBufferSize(std::min<qint64>(m_maxBytes + 1, qint64(1) << 20));
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &HttpFetcher::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpFetcher::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpFetcher::onFinished);
    return true;
}

void HttpFetcher::abort()
{
    if (!m_reply)
        return;
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
    m_body.clear();
}

QString HttpFetcher::statusProblem() const
{
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return {};
    const int code = status.toInt();
    if (code >= 300 && code < 400) {
        const QByteArray location = m_reply->rawHeader("Location");
        return QStringLiteral("redirect to %1 refused (HTTP %2); give the final URL")
            .arg(location.isEmpty() ? QStringLiteral("(no location)") : QString::fromLatin1(location))
            .arg(code);
    }
    if (code < 200 || code >= 300) {
        const QString reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(code) : QStringLiteral("HTTP %1 %2").arg(code).arg(reason);
    }
    return {};
}

void HttpFetcher::onMetaData()
{
    if (const QString problem = statusProblem(); !problem.isEmpty())
        return fail(problem);
    const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
    if (!length.isValid())
        return;
    if (length.toLongLong() > m_maxBytes)
        return fail(QStringLiteral("response of %1 bytes is over the limit of %2 bytes").arg(length.toLongLong()).arg(m_maxBytes));
    // Room for exactly what is announced, rather than growing by doubling.
    m_body.reserve(qsizetype(length.toLongLong()));
}

void HttpFetcher::onReadyRead()
{
    if (!m_reply)
        return;
    if (const QString problem = statusProblem(); !problem.isEmpty())
        return fail(problem);
    // Never more than one byte past the cap: that byte is what says it is over.
    const qint64 room = m_maxBytes + 1 - m_body.size();
    m_body += m_reply->read(std::min(m_reply->bytesAvailable(), room));
    if (m_body.size() > m_maxBytes)
        fail(QStringLiteral("response over the limit of %1 bytes").arg(m_maxBytes));
}

void HttpFetcher::onFinished()
{
    if (!m_reply)
        return;
    if (m_reply->error() == QNetworkReply::NoError) {
        onReadyRead();
        if (!m_reply)
            return; // failed over the cap
        if (const QString problem = statusProblem(); !problem.isEmpty())
            return fail(problem);
        QNetworkReply* reply = m_reply;
        m_reply = nullptr;
        reply->deleteLater();
        const QByteArray body = std::move(m_body);
        m_body.clear();
        Q_EMIT succeeded(body);
        return;
    }
    const QString status = statusProblem();
    fail(status.isEmpty() ? networkError() : status);
}

QString HttpFetcher::networkError() const
{
    switch (m_reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host %1 not found").arg(m_reply->url().host());
    // The transfer timeout aborts the reply: we never cancel one and still
    // wait for its end, so a cancel here is the timeout.
    case QNetworkReply::OperationCanceledError:
    case QNetworkReply::TimeoutError:
        return QStringLiteral("no response within %1 (timed out)").arg(durationText(m_timeout));
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("the server closed the connection");
    default:
        return m_reply->errorString();
    }
}

QString HttpFetcher::durationText(std::chrono::milliseconds time)
{
    if (time.count() % 1000 == 0)
        return QStringLiteral("%1 s").arg(time.count() / 1000);
    return QStringLiteral("%1 ms").arg(time.count());
}

void HttpFetcher::fail(const QString& message)
{
    // Called from the reply's own signals: aborting it inside them makes
    // Qt report a second error, so it is aborted once they have returned.
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    m_body.clear();
    if (reply) {
        reply->disconnect(this);
        QTimer::singleShot(0, reply, [reply]() {
            reply->abort();
            reply->deleteLater();
        });
    }
    Q_EMIT failed(message);
}

} // namespace runlane
