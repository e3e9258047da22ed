#pragma once

// The profiles the tests of the time-axis views share (tst_icicleview,
// tst_tasklaneview, tst_timelineview), as inline JSON.

#include "testsupport.h"

#include <QByteArray>

namespace runlane::test {

// Two threads; ts and dur in µs:
//   main thread: main [0, 1000) > parse [100, 400) > tokenize [150, 250)
//                                > render [500, 900) > layout [600, 700)
//   worker:      worker [200, 800)
inline QByteArray twoThreads()
{
    return JSON([{"ph" : "M", "pid" : 1, "tid" : 1, "name" : "thread_name", "args" : {"name" : "main thread"}},
                 {"ph" : "M", "pid" : 1, "tid" : 2, "name" : "thread_name", "args" : {"name" : "worker"}},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "main", "ts" : 0, "dur" : 1000},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "parse", "ts" : 100, "dur" : 300},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "tokenize", "ts" : 150, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "render", "ts" : 500, "dur" : 400},
                 {"ph" : "X", "pid" : 1, "tid" : 1, "name" : "layout", "ts" : 600, "dur" : 100},
                 {"ph" : "X", "pid" : 1, "tid" : 2, "name" : "work", "ts" : 200, "dur" : 600}]);
}

// Four threads, each a stack four deep: a, b, c, d nested from 0 to 100 µs
// (a1 [0, 100) > b1 [10, 90) > c1 [20, 80) > d1 [30, 70) on thread 1, …).
inline QByteArray fourDeepThreads()
{
    QByteArray json = "[";
    for (int thread = 1; thread <= 4; ++thread) {
        for (int depth = 0; depth < 4; ++depth) {
            json += QByteArray(thread == 1 && depth == 0 ? "" : ",") + R"({"ph": "X", "pid": 1, "tid": )"
                + QByteArray::number(thread) + R"(, "name": ")" + char('a' + depth) + QByteArray::number(thread)
                + R"(", "ts": )" + QByteArray::number(10 * depth) + R"(, "dur": )" + QByteArray::number(100 - 20 * depth)
                + "}";
        }
    }
    return json + "]";
}

// Chronos futures on one loop (t in ns):
//   outer  pending 0, runs 100-200 and 500-600, completed
//   child  created by outer at 150, runs 300-400, failed
//   late   pending 700, cancelled at 800 without running
//   zzz    pending 900, running from 950 to the end: unfinished
inline QByteArray futures()
{
    return JSON({"chronosFutureEvents" : 1, "loop" : "main", "events" : [
        {"t" : 0, "id" : 1, "state" : "Pending", "proc" : "outer", "file" : "lanes.nim", "line" : 10},
        {"t" : 100, "id" : 1, "state" : "Running"},
        {"t" : 150, "id" : 2, "state" : "Pending", "proc" : "child", "file" : "lanes.nim", "line" : 20},
        {"t" : 200, "id" : 1, "state" : "Paused"},
        {"t" : 300, "id" : 2, "state" : "Running"},
        {"t" : 400, "id" : 2, "state" : "Failed"},
        {"t" : 500, "id" : 1, "state" : "Running"},
        {"t" : 600, "id" : 1, "state" : "Completed"},
        {"t" : 700, "id" : 3, "state" : "Pending", "proc" : "late", "file" : "lanes.nim", "line" : 30},
        {"t" : 800, "id" : 3, "state" : "Cancelled"},
        {"t" : 900, "id" : 4, "state" : "Pending", "proc" : "zzz", "file" : "lanes.nim", "line" : 40},
        {"t" : 950, "id" : 4, "state" : "Running"},
        {"t" : 1000, "id" : 5, "state" : "Pending", "proc" : "end", "file" : "lanes.nim", "line" : 50},
        {"t" : 1000, "id" : 5, "state" : "Completed"}
    ]});
}

} // namespace runlane::test
