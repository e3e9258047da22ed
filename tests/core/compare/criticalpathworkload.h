#pragma once

// A Chronos log of N requests whose critical paths are known exactly, for
// the critical-path comparison's tests (core, text, CLI, viewer).
//
// Request i starts at T = 1000 + 100000 i: `handler` runs [T, T + 1000),
// creates `query` at T + 1000 and pauses; `query` runs d_i = 10000 + 100 i
// (times `percent` / 100) and completes; the loop then runs `blocker` for
// 500 and `handler` resumes for 1000 and completes. So each handler task's
// critical path is running handler 2000, running query d_i (the waker) and
// queued behind the blocker 500: nothing idle, nothing waiting.

#include <QByteArray>
#include <QString>

#include <string>

namespace runlane::test {

struct CriticalPathWorkload {
    int requests = 20;
    int percent = 100; // the waker's running time, in percent of d_i
    std::string blocker = "flush";
    // A blocker and a query alone before the first request: the labels get
    // other ids than in a log without them (flush 0, query 1, handler 2).
    bool othersFirst = false;

    static long long waker(int i) { return 10000 + 100LL * i; }
    // Σ of the waker's time over the requests, at `percent`.
    long long wakerTotal() const
    {
        long long sum = 0;
        for (int i = 0; i < requests; ++i)
            sum += waker(i) * percent / 100;
        return sum;
    }

    QByteArray log() const
    {
        QByteArray out = R"({"chronosFutureEvents": 1, "loop": "main", "events": [)";
        bool first = true;
        const auto event = [&](long long t, int id, const char* state, const std::string& proc = {}, int line = 0) {
            out += first ? "\n" : ",\n";
            first = false;
            out += QStringLiteral(R"({"t": %1, "id": %2, "state": "%3")").arg(t).arg(id).arg(QLatin1String(state)).toUtf8();
            if (!proc.empty())
                out += QStringLiteral(R"(, "proc": "%1", "file": "app.nim", "line": %2)")
                           .arg(QString::fromStdString(proc))
                           .arg(line)
                           .toUtf8();
            out += "}";
        };
        int id = 1;
        if (othersFirst) {
            event(0, id, "Pending", blocker, 50);
            event(0, id, "Running");
            event(200, id, "Completed");
            ++id;
            event(300, id, "Pending", "query", 20);
            event(300, id, "Running");
            event(500, id, "Completed");
            ++id;
        }
        for (int i = 0; i < requests; ++i) {
            const long long t = 1000 + 100000LL * i;
            const long long d = waker(i) * percent / 100;
            const int handler = id++;
            const int query = id++;
            const int block = id++;
            event(t, handler, "Pending", "handler", 10);
            event(t, handler, "Running");
            event(t + 1000, query, "Pending", "query", 20);
            event(t + 1000, handler, "Paused");
            event(t + 1000, query, "Running");
            event(t + 1000 + d, query, "Completed");
            event(t + 1000 + d, block, "Pending", blocker, 50);
            event(t + 1000 + d, block, "Running");
            event(t + 1500 + d, block, "Completed");
            event(t + 1500 + d, handler, "Running");
            event(t + 2500 + d, handler, "Completed");
        }
        out += "]}\n";
        return out;
    }
};

} // namespace runlane::test
