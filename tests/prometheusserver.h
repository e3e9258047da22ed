#pragma once

// A throwaway Prometheus server for the live tests: Debian's prometheus
// (/usr/bin/prometheus) on a temporary config and storage directory,
// listening on 127.0.0.1 only, scraping one target every second; stopped
// at the end (terminate, wait, kill). No mocks: the tests talk to the real
// server. Everything waits on the event loop, so a test exporter in the
// same process keeps serving. Where it is missing or does not start the
// test fails, in CI (CI=true) as anywhere: it has no rows to skip.
// RUNLANE_PROMETHEUS picks another binary.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>

namespace runlane::test {

class PrometheusServer
{
public:
    static QString binary() { return qEnvironmentVariable("RUNLANE_PROMETHEUS", QStringLiteral("/usr/bin/prometheus")); }
    static bool installed() { return QFile::exists(binary()); }

    ~PrometheusServer() { stop(); }

    // Starts it scraping `target` ("127.0.0.1:port") every second and
    // waits until it is ready. False with `error` set.
    bool start(const QString& target, QString& error)
    {
        if (!installed()) {
            error = QStringLiteral("%1 is missing: install Debian's prometheus package "
                                   "(packaging/quickstart.sh test installs it)")
                        .arg(binary());
            return false;
        }
        m_port = freePort();
        QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
        if (!m_dir.isValid() || !config.open(QIODevice::WriteOnly)) {
            error = QStringLiteral("no temporary directory");
            return false;
        }
        config.write(QStringLiteral("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                                    "scrape_configs:\n  - job_name: chroprof\n    static_configs:\n"
                                    "      - targets: ['%1']\n")
                         .arg(target)
                         .toUtf8());
        config.close();
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_dir.filePath(QStringLiteral("log")));
        m_process.start(binary(), {QStringLiteral("--config.file=") + config.fileName(),
                                   QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                                   QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port)});
        if (!m_process.waitForStarted(10000)) {
            error = m_process.errorString();
            return false;
        }
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 30000) {
            if (get(QStringLiteral("/-/ready")).first == 200)
                return true;
            if (m_process.state() != QProcess::Running)
                break;
            wait(200);
        }
        error = QStringLiteral("prometheus did not become ready: ") + log();
        return false;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    quint16 port() const { return m_port; }
    QString log() const
    {
        QFile file(m_dir.filePath(QStringLiteral("log")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(4000)) : QString();
    }

    // GET path (with its query) on the server: the status (0: no answer) and body.
    std::pair<int, QByteArray> get(const QString& pathAndQuery)
    {
        QNetworkAccessManager manager;
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port) + pathAndQuery));
        request.setTransferTimeout(5000);
        QNetworkReply* reply = manager.get(request);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        reply->deleteLater();
        return {status, body};
    }
    // How many samples an instant query finds now.
    int series(const QString& query)
    {
        const auto [status, body] =
            get(QStringLiteral("/api/v1/query?query=") + QString::fromLatin1(QUrl::toPercentEncoding(query)));
        if (status != 200)
            return 0;
        return int(QJsonDocument::fromJson(body).object().value(QStringLiteral("data")).toObject()
                       .value(QStringLiteral("result")).toArray().size());
    }

    // Runs the event loop for `ms`.
    static void wait(int ms)
    {
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
    }

private:
    static quint16 freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace runlane::test
