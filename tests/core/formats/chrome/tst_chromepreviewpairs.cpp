#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace runlane;
using runlane::test::asyncTasks;
using runlane::test::loadText;
using runlane::test::previewing;
using runlane::test::taskTexts;

namespace {

// One event of the generated trace: task -1 for a call.
struct Event {
    Time us;
    int task;
    QByteArray json;
};

// `count` async tasks, one every 4 µs on two processes' async tracks (and
// every twelfth on a thread of its own, as Runlane's thread tasks), each
// beside a 2 µs call, in six shapes by task % 6:
//   0: two slices, b@0 e@3 b@6 e@8 (an 'e' without a name): completed at 8;
//   1: a slice with a nested one, then an instant stating "failed" at 9;
//   2: a slice, then one still open: unfinished;
//   3: a slice ended at 5 by the 'e' of its name, with a nested one open;
//   4: only an instant stating "cancelled": born finished;
//   5: only an instant without a state: no task (a mark).
// In time order, or tasks from the last to the first (not in time order).
std::vector<Event> generate(int count, bool reversed)
{
    std::vector<std::vector<Event>> byTask(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) {
        const Time s = 4 * Time(k);
        const bool onThread = k % 12 == 0;
        const QByteArray cat = onThread ? "runlane.task" : "svc";
        const QByteArray where = onThread ? "\"pid\":1,\"tid\":2" : QByteArray("\"pid\":") + QByteArray::number(1 + k % 2) + ",\"tid\":1";
        const QByteArray name = "task_" + QByteArray::number(k % 7);
        auto add = [&](char ph, Time at, const QByteArray& eventName, const QByteArray& extra = {}) {
            QByteArray json = "{\"ph\":\"" + QByteArray(1, ph) + "\",\"cat\":\"" + cat + "\"," + where + ",\"id\":"
                + QByteArray::number(k) + ",\"ts\":" + QByteArray::number(s + at);
            if (!eventName.isEmpty())
                json += ",\"name\":\"" + eventName + "\"";
            byTask[std::size_t(k)].push_back(Event{s + at, k, json + extra + "}"});
        };
        byTask[std::size_t(k)].push_back(Event{s, -1,
                                               "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"work\",\"ts\":" + QByteArray::number(s)
                                                   + ",\"dur\":2}"});
        switch (k % 6) {
        case 0:
            add('b', 0, name), add('e', 3, name), add('b', 6, name), add('e', 8, {});
            break;
        case 1:
            add('b', 0, name), add('b', 1, "inner"), add('e', 2, "inner"), add('e', 3, name);
            add('n', 9, name, ",\"args\":{\"state\":\"failed\"}");
            break;
        case 2:
            add('b', 0, name), add('e', 3, name), add('b', 6, name);
            break;
        case 3:
            add('b', 0, name), add('b', 1, "inner"), add('e', 5, name);
            break;
        case 4:
            add('n', 0, name, ",\"args\":{\"state\":\"cancelled\"}");
            break;
        default:
            add('n', 0, name);
        }
    }
    if (reversed)
        std::reverse(byTask.begin(), byTask.end());
    std::vector<Event> events;
    for (const auto& task : byTask)
        events.insert(events.end(), task.begin(), task.end());
    if (!reversed)
        std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.us < b.us; });
    return events;
}

QByteArray traceOf(const std::vector<Event>& events, std::size_t count)
{
    QByteArray json = "[";
    for (std::size_t i = 0; i < count; ++i)
        json += (i ? ",\n" : "") + events[i].json;
    return json + "]";
}

// The tasks a preview of the first `read` events keeps under `budget`: the
// generated ones those events make a task of, longest-lived so far (last
// event read less first) first, equal ones in the order they came.
std::set<int> keptTasks(const std::vector<Event>& events, std::size_t read, std::size_t budget)
{
    struct Seen {
        Time first = kTimeMax;
        Time last = kTimeMin;
        std::size_t order = 0;
        bool makesTask = false;
    };
    std::map<int, Seen> seen;
    for (std::size_t i = 0; i < read; ++i) {
        const Event& e = events[i];
        if (e.task < 0)
            continue;
        const bool fresh = !seen.count(e.task);
        Seen& s = seen[e.task];
        if (fresh)
            s.order = seen.size();
        s.first = std::min(s.first, e.us);
        s.last = std::max(s.last, e.us);
        s.makesTask = s.makesTask || e.task % 6 != 5;
    }
    std::vector<std::pair<int, Seen>> tasks;
    for (const auto& [k, s] : seen) {
        if (s.makesTask)
            tasks.emplace_back(k, s);
    }
    std::sort(tasks.begin(), tasks.end(), [](const auto& a, const auto& b) {
        const Time x = a.second.last - a.second.first;
        const Time y = b.second.last - b.second.first;
        return x != y ? x > y : a.second.order < b.second.order;
    });
    std::set<int> kept;
    for (std::size_t i = 0; i < std::min(budget, tasks.size()); ++i)
        kept.insert(tasks[i].first);
    return kept;
}

} // namespace

class TestChromePreviewPairs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each preview (one every 4096 events read) holds the tasks the events
    // before it make, exactly as the load of those events alone builds them
    // (created, finished, final state, own intervals, track): a task ends
    // at its last event read unless a slice of it is open, nested slices
    // are left to the final profile. Over the budget, the longest-lived so
    // far are kept and the others counted.
    void tasksInPreviews_data()
    {
        QTest::addColumn<bool>("reversed");
        QTest::addColumn<int>("budget");
        QTest::newRow("in time order") << false << 10'000;
        QTest::newRow("not in time order") << true << 10'000;
        QTest::newRow("budget of 100") << false << 100;
        QTest::newRow("budget of 100, not in time order") << true << 100;
    }
    void tasksInPreviews()
    {
        QFETCH(bool, reversed);
        QFETCH(int, budget);
        const int count = 3000;
        const std::vector<Event> events = generate(count, reversed);
        std::vector<std::shared_ptr<const Profile>> previews;
        LoadControl control = previewing(previews);
        control.previewTaskBudget = std::size_t(budget);
        const LoadResult whole = loadText(traceOf(events, events.size()), control);
        QVERIFY2(whole.ok(), whole.error.toString().c_str());
        QCOMPARE(events.size(), std::size_t(3000 + 500 * (4 + 5 + 3 + 3 + 1 + 1)));
        QCOMPARE(previews.size(), events.size() / 4096 + 1);
        // 500 of each shape but the last make tasks.
        QCOMPARE(asyncTasks(*whole.profile).size(), std::size_t(2500));
        for (std::size_t i = 0; i < previews.size(); ++i) {
            const std::size_t read = i + 1 < previews.size() ? 4096 * (i + 1) : events.size();
            const Profile& preview = *previews[i];
            QCOMPARE(preview.partial()->eventsRead, std::uint64_t(read));
            QVERIFY(preview.partial()->holdsTasks);
            const LoadResult cut = loadText(traceOf(events, read));
            QVERIFY2(cut.ok(), cut.error.toString().c_str());
            const auto expected = asyncTasks(*cut.profile);
            const auto shown = asyncTasks(preview);
            const std::set<int> kept = keptTasks(events, read, std::size_t(budget));
            QCOMPARE(shown.size(), kept.size());
            QCOMPARE(preview.partial()->tasksLeftOut, std::uint64_t(expected.size() - kept.size()));
            if (kept.size() == expected.size()) {
                QCOMPARE(taskTexts(shown), taskTexts(expected));
                // The tracks the source makes only at the end are added to
                // the preview once each.
                QCOMPARE(preview.trackCount(), cut.profile->trackCount());
                continue;
            }
            // Which ones: the generated task k was created at 4 k µs.
            for (const auto& [key, text] : shown) {
                QVERIFY2(kept.count(int(key.second / 4000)) == 1, qPrintable(text));
                QCOMPARE(text, expected.at(key));
            }
        }
    }

    // Node's async_hooks resources are tasks NodeAsyncHooks builds only at
    // the end: once one was read, the previews hold no tasks and say so
    // (the lanes then say they come with the whole profile).
    void asyncHooksTasksComeAtTheEnd()
    {
        std::vector<std::shared_ptr<const Profile>> previews;
        const LoadControl control = previewing(previews);
        const LoadResult r = ProfileLoader::load(runlane::test::dataPath(QStringLiteral("samples/node/http-async-hooks.trace.json")), control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(asyncTasks(*r.profile).size(), std::size_t(5604));
        QVERIFY(previews.size() > 2);
        for (const auto& preview : previews) {
            QVERIFY(!preview->partial()->holdsTasks);
            QCOMPARE(preview->partial()->tasksLeftOut, std::uint64_t(0));
            QCOMPARE(asyncTasks(*preview).size(), std::size_t(0));
        }
    }

    // A preview says it holds tasks even before any was read.
    void holdsTasksWithoutAny()
    {
        std::vector<std::shared_ptr<const Profile>> previews;
        const LoadControl control = previewing(previews);
        QByteArray json = "[";
        for (int i = 0; i < 5000; ++i)
            json += (i ? ",\n" : "") + QByteArray("{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"work\",\"ts\":") + QByteArray::number(i)
                + ",\"dur\":1}";
        const LoadResult r = loadText(json + "]", control);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(previews.size(), std::size_t(2));
        QVERIFY(previews.front()->partial()->holdsTasks);
        QCOMPARE(previews.front()->partial()->tasksLeftOut, std::uint64_t(0));
        QCOMPARE(asyncTasks(*previews.front()).size(), std::size_t(0));
        QCOMPARE(previews.front()->intervalCount(), std::size_t(4096));
    }
};

QTEST_GUILESS_MAIN(TestChromePreviewPairs)
#include "tst_chromepreviewpairs.moc"
