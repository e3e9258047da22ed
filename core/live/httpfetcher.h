#pragma once

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QObject>
#include <QString>
#include <QUrl>

#include <chrono>

class QNetworkReply;

namespace runlane {

// One HTTP GET at a time, for the live sources, with the rules both share:
// a timeout per request (no bytes for `timeout` is a failure), redirects
// refused (a live URL that moves is a configuration to fix, not to follow
// silently), any status but 2xx a failure, and the body capped at
// `maxBytes`: a Content-Length over it, or more bytes than it arriving, is
// a failure at once, so a hostile or broken endpoint (streaming forever, a
// 10 GB line) never makes us hold more than the cap.
class HttpFetcher : public QObject
{
    Q_OBJECT

public:
    HttpFetcher(std::chrono::milliseconds timeout, qint64 maxBytes, QObject* parent = nullptr);
    ~HttpFetcher() override;

    // Starts a GET; false (nothing started) while one is in flight.
    bool get(const QUrl& url);
    bool busy() const { return m_reply != nullptr; }
    // Drops the request in flight, if any, without a signal.
    void abort();
    qint64 maxBytes() const { return m_maxBytes; }
    // "10 s", "250 ms": for messages.
    static QString durationText(std::chrono::milliseconds time);

Q_SIGNALS:
    void succeeded(const QByteArray& body);
    // "connection refused", "HTTP 404 Not Found", "redirect to … refused",
    // "response over the limit of 1048576 bytes", "no response within 10 s".
    void failed(const QString& message);

private:
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void fail(const QString& message);
    // The status line's verdict: "" if the body may be read.
    QString statusProblem() const;
    QString networkError() const;

    QNetworkAccessManager m_manager;
    std::chrono::milliseconds m_timeout;
    qint64 m_maxBytes;
    QNetworkReply* m_reply = nullptr; // ours until finished or aborted
    QByteArray m_body;
};

} // namespace runlane
