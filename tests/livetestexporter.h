#pragma once

// A test exporter for the live tests: a tiny HTTP/1.1 server on 127.0.0.1
// (QTcpServer, port 0 unless told) serving Chroprof's gauges as Prometheus
// text, with values that change every N requests: top-k churn (beta leaves
// the top-k at generation 3, gamma enters), a counter reset at generation 5
// (the program restarted: values drop), optional timestamps. It records
// every distinct snapshot it served (rows exactly as PrometheusText gives
// them, and when), so tests compare exactly. Hostile modes: a body that
// streams forever, a 10 GB line (streamed in chunks, never allocated), a
// 302, a server that accepts and never answers, malformed and invalid
// UTF-8 lines, a 404, no Chroprof gauges at all; close() and listen() again for refused → recovery.
// Everything runs on the test's event loop: wait with QTRY_*, never block.

#include "livesource.h"
#include "scrapedsnapshot.h"
#include "snapshotsupport.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QPointer>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

namespace runlane::test {

class LiveTestExporter
{
public:
    enum class Mode { Normal, Forever, HugeLine, Redirect, Silent, Malformed, NotFound, NoChroprof };
    // The malformed and invalid UTF-8 lines Malformed adds to each response.
    static constexpr int kMalformedLines = 2;
    static constexpr int kInvalidUtf8Lines = 1;

    LiveTestExporter() { listen(); }
    ~LiveTestExporter() { close(); }

    // Listens on `port` (0: any free one; again the old one after close()).
    bool listen(quint16 port = 0)
    {
        m_server = std::make_unique<QTcpServer>();
        QObject::connect(m_server.get(), &QTcpServer::newConnection, m_server.get(), [this]() { accept(); });
        if (!m_server->listen(QHostAddress::LocalHost, port ? port : m_port))
            return false;
        m_port = m_server->serverPort();
        return true;
    }
    // Stops listening and drops every connection: a connection is refused.
    void close()
    {
        for (const QPointer<QTcpSocket>& socket : m_sockets) {
            if (socket)
                socket->abort();
        }
        m_sockets.clear();
        m_server.reset();
    }
    quint16 port() const { return m_port; }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_port)); }

    void setMode(Mode mode) { m_mode = mode; }
    // The values change every `n` requests served (1: every request).
    void setChangeEvery(int n) { m_changeEvery = std::max(n, 1); }
    // After `n` generations the values stay as they are (0: never).
    void setGenerations(int n) { m_maxGenerations = n; }
    // Samples carry a timestamp: the generation's refresh time.
    void setTimestamps(bool on) { m_timestamps = on; }

    // Requests answered with data (Normal, Malformed) and in all.
    int dataRequests() const { return m_dataRequests; }
    int requests() const { return m_requests; }
    // Every distinct snapshot served, in order; time: its timestamp (ns)
    // with timestamps, else when it was first served.
    const std::vector<ScrapedSnapshot>& served() const { return m_served; }
    // Body bytes written by the streaming modes, over all connections.
    qint64 streamed() const { return m_streamed; }

    // The values of generation `g`: churn at 3, a reset at 5.
    static ScrapedSnapshot snapshotOf(int g, Time time)
    {
        ScrapedSnapshot snapshot;
        snapshot.time = time;
        const auto add = [&](const char* proc, int line, std::int64_t scale) {
            // Before the reset the totals grow from 1000; after it they
            // start again from 100: a drop.
            const std::int64_t n = g < 5 ? 10 * (g + 1) : g - 4;
            NamedAggregateRow row;
            row.procedure = proc;
            row.file = "app.nim";
            row.line = line;
            row.values.exec = n * 100 * scale;
            row.values.childrenExec = n * 30 * scale;
            row.values.wall = n * 500 * scale;
            row.values.calls = std::uint64_t(n * scale);
            row.values.execMax = 90 * scale + g;
            snapshot.rows.push_back(row);
        };
        add("alpha", 10, 3);
        if (g < 3)
            add("beta", 20, 2);
        else
            add("gamma", 30, 1);
        return snapshot; // sorted by procedure already: alpha, beta | gamma
    }
    static QByteArray exposition(const ScrapedSnapshot& snapshot, bool timestamps)
    {
        QByteArray text = "# HELP chronos_exec_time_total Chronos exec time\n# TYPE chronos_exec_time_total gauge\n";
        const QByteArray suffix = timestamps ? " " + QByteArray::number(snapshot.time / 1000000) : QByteArray();
        for (const NamedAggregateRow& row : snapshot.rows) {
            const QByteArray labels = "{proc=\"" + QByteArray::fromStdString(row.procedure) + "\",file=\""
                + QByteArray::fromStdString(row.file) + "\",line=\"" + QByteArray::number(row.line) + "\"} ";
            const auto& v = row.values;
            text += "chronos_exec_time_total" + labels + QByteArray::number(qint64(v.exec)) + suffix + "\n";
            text += "chronos_exec_time_with_children_total" + labels + QByteArray::number(qint64(v.exec + v.childrenExec))
                + suffix + "\n";
            text += "chronos_wall_time_total" + labels + QByteArray::number(qint64(v.wall)) + suffix + "\n";
            text += "chronos_call_count_total" + labels + QByteArray::number(qulonglong(v.calls)) + suffix + "\n";
            text += "chronos_single_exec_time_max" + labels + QByteArray::number(qint64(v.execMax)) + suffix + "\n";
        }
        text += "process_cpu_seconds_total 1.25\n";
        return text;
    }

    // A snapshot's rows as one line per proc (snapshotsupport.h), for
    // exact comparisons with readable failures.
    static QString describe(const ScrapedSnapshot& snapshot) { return rowLines(snapshot).join(QLatin1Char('\n')); }
    static QStringList describe(const std::vector<ScrapedSnapshot>& snapshots)
    {
        QStringList list;
        for (const ScrapedSnapshot& snapshot : snapshots)
            list << describe(snapshot);
        return list;
    }

private:
    static Time nowNs()
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    void accept()
    {
        while (QTcpSocket* socket = m_server->nextPendingConnection()) {
            m_sockets.push_back(socket);
            auto request = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, request]() {
                *request += socket->readAll();
                if (!request->contains("\r\n\r\n") || request->isEmpty())
                    return;
                request->clear();
                answer(socket);
            });
        }
    }

    void answer(QTcpSocket* socket)
    {
        ++m_requests;
        switch (m_mode) {
        case Mode::Silent:
            return; // accepted, read, never answered
        case Mode::Redirect:
            return reply(socket, "302 Found", "Location: http://127.0.0.1:1/elsewhere\r\n", {});
        case Mode::NotFound:
            return reply(socket, "404 Not Found", {}, "no metrics here\n");
        case Mode::NoChroprof:
            return reply(socket, "200 OK", "Content-Type: text/plain; version=0.0.4\r\n", "process_cpu_seconds_total 1.25\n");
        case Mode::Forever:
        case Mode::HugeLine:
            return stream(socket);
        case Mode::Normal:
        case Mode::Malformed:
            break;
        }
        const int g = m_maxGenerations > 0 ? std::min(m_dataRequests / m_changeEvery, m_maxGenerations - 1)
                                           : m_dataRequests / m_changeEvery;
        ++m_dataRequests;
        if (int(m_served.size()) <= g)
            m_served.push_back(snapshotOf(g, m_timestamps ? nowNs() / 1000000 * 1000000 : nowNs()));
        QByteArray body = exposition(m_served[std::size_t(g)], m_timestamps);
        if (m_mode == Mode::Malformed)
            body += "this is not a sample\nchronos_exec_time_total{proc=\"x\" 12\n"
                    "chronos_exec_time_total{proc=\"\xff\xfe\",file=\"a.nim\",line=\"1\"} 5\n";
        reply(socket, "200 OK", "Content-Type: text/plain; version=0.0.4\r\n", body);
    }

    static void reply(QTcpSocket* socket, const char* status, const QByteArray& headers, const QByteArray& body)
    {
        socket->write("HTTP/1.1 " + QByteArray(status) + "\r\n" + headers
                      + "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        socket->disconnectFromHost();
    }

    // Forever: no length, lines without end. HugeLine: says 10 GB and
    // sends one line of them. Chunks are written as the socket drains.
    void stream(QTcpSocket* socket)
    {
        const bool huge = m_mode == Mode::HugeLine;
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                      + (huge ? QByteArray("Content-Length: 10000000000\r\n") : QByteArray())
                      + "Connection: close\r\n\r\n" + (huge ? "chronos_exec_time_total{proc=\"" : ""));
        const auto chunk = std::make_shared<QByteArray>(
            huge ? QByteArray(64 * 1024, 'a') : QByteArray("# padding line of a body that never ends\n").repeated(1600));
        const auto more = [this, socket, chunk]() {
            while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() < 256 * 1024) {
                socket->write(*chunk);
                m_streamed += chunk->size();
            }
        };
        QObject::connect(socket, &QTcpSocket::bytesWritten, socket, more);
        more();
    }

    std::unique_ptr<QTcpServer> m_server;
    std::vector<QPointer<QTcpSocket>> m_sockets;
    quint16 m_port = 0;
    Mode m_mode = Mode::Normal;
    int m_changeEvery = 1;
    int m_maxGenerations = 0;
    bool m_timestamps = false;
    int m_requests = 0;
    int m_dataRequests = 0;
    qint64 m_streamed = 0;
    std::vector<ScrapedSnapshot> m_served;
};

// Everything a live source delivered, in order, and in how many batches.
struct LiveReceived {
    explicit LiveReceived(LiveSource& source)
    {
        QObject::connect(&source, &LiveSource::received, &source,
                         [this](const std::shared_ptr<const std::vector<ScrapedSnapshot>>& batch) {
                             ++batches;
                             snapshots.insert(snapshots.end(), batch->begin(), batch->end());
                         });
    }
    std::vector<ScrapedSnapshot> snapshots;
    int batches = 0;
};

} // namespace runlane::test
