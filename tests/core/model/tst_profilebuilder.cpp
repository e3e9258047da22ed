#include "measurementmetrics.h"
#include "outermosttasks.h"
#include "profilebuilder.h"
#include "profilefinisher.h"

#include "testsupport.h"

#include <QtTest>

#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace runlane;
using runlane::test::addThread;
using runlane::test::byName;
using runlane::test::ids;
using runlane::test::namesAt;
using runlane::test::qstr;

namespace {

// Measurements named by `order`, each created 10 ns per letter after "a"
// and finished 5 ns later: calls, or tasks without intervals.
std::map<QString, MeasurementId> addNamed(ProfileBuilder& b, TrackId t, const QStringList& order, bool calls)
{
    std::map<QString, MeasurementId> ids;
    for (const QString& name : order) {
        const Time created = Time(name.at(0).unicode() - 'a') * 10;
        const LabelId label = b.label(name.toStdString());
        if (calls) {
            ids[name] = b.addCall(t, label, created, created + 5, std::uint32_t(created));
        } else {
            ids[name] = b.addMeasurement(t, label, created, kNone);
            b.finish(ids[name], created + 5, FinalState::Completed);
        }
    }
    return ids;
}

} // namespace

class TestProfileBuilder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void layoutIsCompact()
    {
        QCOMPARE(sizeof(Interval), std::size_t(24));
        QCOMPARE(sizeof(Measurement), std::size_t(32));
    }

    // semantics.md §3: f 0-160 calls g 10-100, which calls h 30-60.
    void nestedCalls_data()
    {
        QTest::addColumn<QList<int>>("insertOrder");
        QTest::newRow("outer first") << QList<int>{0, 1, 2};
        QTest::newRow("inner first") << QList<int>{2, 1, 0};
        QTest::newRow("mixed") << QList<int>{1, 2, 0};
    }

    void nestedCalls()
    {
        QFETCH(QList<int>, insertOrder);
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        const struct {
            const char* name;
            Time start, end;
        } calls[] = {{"f", 0, 160}, {"g", 10, 100}, {"h", 30, 60}};
        for (int i : insertOrder)
            b.addCall(t, b.label(calls[i].name), calls[i].start, calls[i].end, std::uint32_t(i));
        const auto p = b.build();

        QCOMPARE(p->trackCount(), std::size_t(1));
        QCOMPARE(p->track(0).depthCount(), 3);
        QCOMPARE(namesAt(*p, 0, 0), QStringList{"f"});
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"g"});
        QCOMPARE(namesAt(*p, 0, 2), QStringList{"h"});
        // Measurements are numbered in creation order, creators first.
        QCOMPARE(p->labelName(p->measurement(0).label), std::string_view("f"));
        QCOMPARE(p->measurement(0).creator, kNone);
        QCOMPARE(p->measurement(1).creator, MeasurementId(0));
        QCOMPARE(p->measurement(2).creator, MeasurementId(1));
        QCOMPARE(p->interval(2).parent, IntervalId(1));
        QCOMPARE(p->startTime(), Time(0));
        QCOMPARE(p->endTime(), Time(160));

        const MeasurementMetrics metrics(*p);
        QCOMPARE(metrics.exec(0), Time(70));
        QCOMPARE(metrics.exec(1), Time(60));
        QCOMPARE(metrics.exec(2), Time(30));
        QCOMPARE(metrics.total(0), Time(160));
        QCOMPARE(metrics.total(1), Time(90));
        QCOMPARE(metrics.total(2), Time(30));
        QCOMPARE(metrics.busy(0), Time(160));
    }

    void equalIntervalsNestByOrder()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        b.addCall(t, b.label("inner"), 5, 10, 2);
        b.addCall(t, b.label("outer"), 5, 10, 1);
        const auto p = b.build();
        QCOMPARE(namesAt(*p, 0, 0), QStringList{"outer"});
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"inner"});
    }

    // The intervals of tasks may outlive the one they started in: they are
    // kept whole, with a warning, and exec still adds up to the busy time.
    void partialOverlapOfTasksIsKeptWithWarning()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        const MeasurementId alpha = b.addMeasurement(t, b.label("alpha"), 0, kNone, AsyncMeasurement);
        const MeasurementId beta = b.addMeasurement(t, b.label("beta"), 0, kNone, AsyncMeasurement);
        b.addInterval(alpha, 0, 10, 0);
        b.addInterval(beta, 5, 15, 1);
        b.addCall(t, b.label("gamma"), 12, 14, 2);
        const auto p = b.build();
        QCOMPARE(p->diagnostics().warningKinds().at("overlapping intervals"), std::uint64_t(1));
        QCOMPARE(p->diagnostics().warningCount(), std::uint64_t(1));
        QCOMPARE(namesAt(*p, 0, 0), QStringList{"alpha"});
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"beta"});
        QCOMPARE(namesAt(*p, 0, 2), QStringList{"gamma"});
        const MeasurementMetrics m(*p);
        QCOMPARE(m.exec(byName(*p, "alpha")), Time(5));
        QCOMPARE(m.exec(byName(*p, "beta")), Time(8));
        QCOMPARE(m.exec(byName(*p, "gamma")), Time(2));
        // Exec times add up to the busy time even so.
        QCOMPARE(m.busy(0), Time(15));
    }

    void explicitMeasurements()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        const MeasurementId task = b.addMeasurement(t, b.label("task"), 0, kNone, AsyncMeasurement);
        b.addInterval(task, 30, 40, 3);
        b.addInterval(task, 10, 20, 1);
        b.finish(task, 45, FinalState::Completed);
        const MeasurementId child = b.addMeasurement(t, b.label("child"), 12, task);
        b.addInterval(child, 12, 15, 2);
        b.finish(child, 15, FinalState::Completed);
        const MeasurementId never = b.addMeasurement(t, b.label("never"), 50, kNone);
        b.finish(never, 60, FinalState::Cancelled);
        const auto p = b.build();

        QCOMPARE(p->measurementCount(), std::size_t(3));
        const MeasurementId taskId = byName(*p, "task");
        const auto ivs = p->intervalsOf(taskId);
        QCOMPARE(ivs.size(), std::size_t(2));
        QCOMPARE(p->interval(ivs[0]).start, Time(10));
        QCOMPARE(p->interval(ivs[1]).start, Time(30));
        QVERIFY(p->measurement(taskId).isAsync());
        QCOMPARE(p->intervalsOf(byName(*p, "child")).size(), std::size_t(1));
        QCOMPARE(p->intervalsOf(byName(*p, "never")).size(), std::size_t(0));
        QCOMPARE(p->measurement(byName(*p, "never")).finalState(), FinalState::Cancelled);
        const MeasurementMetrics m(*p);
        QCOMPARE(m.exec(taskId), Time(17));
        QCOMPARE(m.total(taskId), Time(20));
        QCOMPARE(m.wall(taskId), Time(45));
    }

    // reserve is a hint: room beyond what the system will give (here more
    // than ids can number, capped, then refused or only promised) leaves
    // the builder working as without it.
    void reserveBeyondMemoryIsAHint()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer stops the process at an allocation it cannot serve rather than throwing");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
        QSKIP("AddressSanitizer stops the process at an allocation it cannot serve rather than throwing");
#endif
#endif
        ProfileBuilder b("test");
        b.reserve(std::numeric_limits<std::size_t>::max());
        const TrackId t = addThread(b);
        b.addCall(t, b.label("f"), 0, 160, 0);
        b.addCall(t, b.label("g"), 10, 100, 1);
        const auto p = b.build();
        QCOMPARE(p->measurementCount(), std::size_t(2));
        QCOMPARE(p->intervalCount(), std::size_t(2));
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"g"});
    }

    // A reservation big enough brings the finisher a scratch made resident
    // during the read and the final interval array on the recorded one's
    // pages (assignReusing): the profile is the one built without them.
    // 1.5 million intervals of two threads, interleaved (so grouped by
    // track in the scratch): 36 MB, above glibc's highest mmap threshold,
    // so that both arrays are mapped alone and the pages move.
    void reservedBuildIsTheSame()
    {
        const auto build = [](bool reserved) {
            ProfileBuilder b("test");
            if (reserved)
                b.reserve(2'000'000);
            const TrackId threads[2] = {addThread(b, 1, 1), addThread(b, 1, 2)};
            const LabelId outer = b.label("outer");
            const LabelId inner = b.label("inner");
            std::uint32_t order = 0;
            for (Time i = 0; i < 375'000; ++i) {
                for (const TrackId t : threads) {
                    b.addCall(t, outer, 10 * i, 10 * i + 8, order++);
                    b.addCall(t, inner, 10 * i + 1 + t, 10 * i + 5, order++);
                }
            }
            return b.build();
        };
        const auto plain = build(false);
        const auto reserved = build(true);
        QCOMPARE(reserved->intervalCount(), std::size_t(1'500'000));
        QCOMPARE(reserved->measurementCount(), plain->measurementCount());
        QVERIFY(std::equal(plain->intervals().begin(), plain->intervals().end(), reserved->intervals().begin(),
                           reserved->intervals().end(), [](const Interval& a, const Interval& b) {
                               return a.start == b.start && a.end == b.end && a.measurement == b.measurement
                                   && a.parent == b.parent;
                           }));
        for (MeasurementId id = 0; id < plain->measurementCount(); ++id) {
            if (!(plain->measurement(id) == reserved->measurement(id)))
                QFAIL(qPrintable(QStringLiteral("measurement %1 differs").arg(id)));
        }
        // Laid out by depth and start, each inner call under its outer one.
        std::size_t wrong = 0;
        for (TrackId t = 0; t < 2; ++t) {
            const auto outerCalls = reserved->depthSlice(t, 0);
            const auto innerCalls = reserved->depthSlice(t, 1);
            QCOMPARE(outerCalls.size(), std::size_t(375'000));
            QCOMPARE(innerCalls.size(), std::size_t(375'000));
            const IntervalId firstOuter = IntervalId(&outerCalls[0] - reserved->intervals().data());
            for (std::size_t k = 0; k < outerCalls.size(); ++k) {
                const Time at = 10 * Time(k);
                wrong += outerCalls[k].start != at || outerCalls[k].end != at + 8 || outerCalls[k].parent != kNone;
                wrong += innerCalls[k].start != at + 1 + t || innerCalls[k].end != at + 5
                    || innerCalls[k].parent != firstOuter + k;
            }
        }
        QCOMPARE(wrong, std::size_t(0));
    }

    void creatorOfPendingMeasurement()
    {
        // Created while `parent` runs, first run later: the creator is whoever
        // ran at creation, not whoever ran around its first start.
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        b.addCall(t, b.label("parent"), 0, 10, 0);
        b.addCall(t, b.label("other"), 20, 40, 1);
        const MeasurementId task = b.addMeasurement(t, b.label("task"), 5, ProfileBuilder::kAutoCreator, AsyncMeasurement);
        b.addInterval(task, 25, 30, 2);
        b.finish(task, 30, FinalState::Completed);
        const auto p = b.build();
        QCOMPARE(p->measurement(byName(*p, "task")).creator, byName(*p, "parent"));
        // Its interval nests under `other` by time all the same.
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"task"});
    }

    void inconsistentInputIsRepaired()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        const MeasurementId a = b.addMeasurement(t, b.label("a"), 50, kNone);
        const MeasurementId c = b.addMeasurement(t, b.label("c"), 10, a); // created before its creator
        b.addInterval(c, 5, 8, 0); // runs before it is created
        b.finish(c, 6, FinalState::Completed); // and finishes while running
        b.finish(a, 40, FinalState::Completed); // finished before created
        const auto p = b.build();
        const auto& kinds = p->diagnostics().warningKinds();
        QCOMPARE(kinds.at("created before its creator"), std::uint64_t(1));
        QCOMPARE(kinds.at("started before created"), std::uint64_t(1));
        QCOMPARE(kinds.at("ran after finished"), std::uint64_t(1));
        QCOMPARE(kinds.at("finished before created"), std::uint64_t(1));
        const Measurement& mc = p->measurement(byName(*p, "c"));
        QCOMPARE(mc.creator, kNone);
        QCOMPARE(mc.created, Time(5));
        QCOMPARE(mc.finished, Time(8));
        // Creators always precede what they create.
        for (MeasurementId id = 0; id < p->measurementCount(); ++id) {
            if (p->measurement(id).creator != kNone)
                QVERIFY(p->measurement(id).creator < id);
        }
    }

    // The build's steps over every measurement run in slices on every
    // core; what they repair, warn about and list must come out as one
    // pass in id order gives it, within a slice and across slices.
    void repairsAcrossSlices_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("every");
        QTest::newRow("one slice") << 1'000 << 97;
        QTest::newRow("four slices") << 200'000 << 19'997;
    }

    void repairsAcrossSlices()
    {
        QFETCH(int, count);
        QFETCH(int, every);
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        TrackInfo asyncInfo;
        asyncInfo.pid = 1;
        asyncInfo.kind = TrackKind::Async;
        const TrackId async = b.addTrack(asyncInfo);
        QStringList early, orphans, multi;
        for (int i = 0; i < count; ++i) {
            const Time at = Time(i) * 10;
            if (i % every != every - 1) {
                b.addCall(t, b.label("f"), at, at + 5, std::uint32_t(i));
                continue;
            }
            // Runs 3 ns before it is created.
            const std::string n = std::to_string(i);
            const MeasurementId e = b.addMeasurement(async, b.label("early" + n), at + 3, kNone, AsyncMeasurement);
            b.addInterval(e, at, at + 5, std::uint32_t(i));
            b.finish(e, at + 5, FinalState::Completed);
            early << qstr("early" + n);
            // Created 1 ns before its creator.
            const MeasurementId late = b.addMeasurement(async, b.label("late" + n), at + 2, kNone, AsyncMeasurement);
            b.addMeasurement(async, b.label("orphan" + n), at + 1, late, AsyncMeasurement);
            orphans << qstr("orphan" + n);
            // Three runs on the thread, given latest first; two inside a
            // call, so that they are laid out after the third.
            b.addCall(t, b.label("host"), at, at + 5, std::uint32_t(i));
            const MeasurementId m = b.addMeasurement(t, b.label("multi" + n), at, kNone, AsyncMeasurement);
            for (Time k : {Time(6), Time(2), Time(0)})
                b.addInterval(m, at + k, at + k + 1, std::uint32_t(i));
            multi << qstr("multi" + n);
        }
        const auto p = b.build();
        const auto& kinds = p->diagnostics().warningKinds();
        QCOMPARE(kinds.at("started before created"), std::uint64_t(early.size()));
        QCOMPARE(kinds.at("created before its creator"), std::uint64_t(orphans.size()));
        QCOMPARE(p->diagnostics().warningCount(), std::uint64_t(2 * early.size()));
        // The examples (the first 20 warnings): clamping warns before
        // creators are resolved, each in id order.
        QStringList expected;
        for (const QString& name : early)
            expected << "'" + name + "' starts running 3 ns before it is created; creation moved to its start";
        for (const QString& name : orphans)
            expected << "'" + name + "' is created before its creator 'late" + name.mid(6) + "'; made a root";
        QStringList examples;
        for (const std::string& e : p->diagnostics().examples())
            examples << qstr(e);
        QCOMPARE(examples, expected.mid(0, int(Diagnostics::kMaxExamples)));
        for (const QString& name : early) {
            const MeasurementId id = byName(*p, name.toStdString());
            QCOMPARE(p->measurement(id).created, p->interval(p->intervalsOf(id)[0]).start);
        }
        for (const QString& name : orphans)
            QCOMPARE(p->measurement(byName(*p, name.toStdString())).creator, kNone);
        for (const QString& name : multi) {
            const MeasurementId id = byName(*p, name.toStdString());
            QList<Time> starts;
            for (IntervalId iv : p->intervalsOf(id))
                starts << p->interval(iv).start - p->measurement(id).created;
            QCOMPARE(starts, (QList<Time>{0, 2, 6}));
        }
        std::size_t calls = 0;
        for (MeasurementId id = 0; id < p->measurementCount(); ++id)
            calls += p->labelName(p->measurement(id).label) == "f" && p->intervalsOf(id).size() == 1 ? 1 : 0;
        QCOMPARE(calls, std::size_t(count - early.size()));
    }

    // Triggers (Profile::triggers) name the final ids, sorted by the
    // measurement triggered, whether or not the loader added the
    // measurements in creation order.
    void triggersSurviveOrdering_data()
    {
        QTest::addColumn<QStringList>("addOrder");
        QTest::newRow("added in creation order") << QStringList{"a", "b", "c"};
        QTest::newRow("added out of order") << QStringList{"c", "a", "b"};
    }

    void triggersSurviveOrdering()
    {
        QFETCH(QStringList, addOrder);
        ProfileBuilder b("test");
        std::map<QString, MeasurementId> ids = addNamed(b, addThread(b), addOrder, false);
        b.addTrigger(ids["c"], ids["a"]);
        b.addTrigger(ids["b"], ids["a"]);
        const auto p = b.build();
        QStringList triggers;
        for (const Profile::Trigger& trigger : p->triggers())
            triggers << qstr(p->labelName(p->measurement(trigger.measurement).label)) + " by "
                    + qstr(p->labelName(p->measurement(trigger.triggeredBy).label));
        QCOMPARE(triggers, (QStringList{"b by a", "c by a"}));
        QCOMPARE(p->triggers()[0].measurement, byName(*p, "b"));
    }

    // The finisher renumbers measurements by creation, moving them in
    // place along the permutation's cycles: whatever order they were added
    // in (none, one long cycle, many of two, a shuffle), each ends at its
    // creation rank with its own times, label, creator and interval.
    void anyAddOrderIsRenumbered_data()
    {
        QTest::addColumn<QString>("order");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("wide");
        // 70,001: the permutation's second pass is shared in pieces of
        // 65,536. Wide: the times spread over 2^62 ns, which with the
        // creation depths (up to count - 1) does not fit the radix sort's
        // 64-bit key from 3 measurements on: the comparison sort orders
        // them, its halves merged from both ends meeting mid-run.
        for (const int count : {1, 2, 3, 1000, 70'001}) {
            for (const bool wide : {false, true}) {
                for (const char* order : {"creation", "reversed", "rotated", "shuffled"})
                    QTest::addRow("%s %d%s", order, count, wide ? " wide" : "") << QString(order) << count << wide;
            }
        }
    }

    void anyAddOrderIsRenumbered()
    {
        QFETCH(QString, order);
        QFETCH(int, count);
        QFETCH(bool, wide);
        const Time origin = wide ? -(Time(1) << 61) : 0;
        const Time step = wide ? (Time(1) << 62) / std::max(1, count - 1) : 10;
        const auto createdAt = [&](int r) { return origin + Time(r) * step; };
        std::vector<int> ranks(std::size_t(count), 0); // the creation rank of the k-th added
        std::iota(ranks.begin(), ranks.end(), 0);
        if (order == "reversed")
            std::reverse(ranks.begin(), ranks.end());
        else if (order == "rotated")
            std::rotate(ranks.begin(), ranks.begin() + 1, ranks.end());
        else if (order == "shuffled")
            std::shuffle(ranks.begin(), ranks.end(), std::mt19937(45));
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        // Measurement of rank r: created at createdAt(r), finished 5 later,
        // named "m<r>", created by rank r - 1 (rank 0 by none).
        std::vector<MeasurementId> idOfRank(std::size_t(count), kNone);
        for (const int r : ranks) {
            const MeasurementId id = b.addMeasurement(t, b.label("m" + std::to_string(r)), createdAt(r), kNone);
            b.finish(id, createdAt(r) + 5, FinalState::Completed);
            b.addInterval(id, createdAt(r), createdAt(r) + 5, std::uint32_t(r));
            idOfRank[std::size_t(r)] = id;
        }
        for (int r = 1; r < count; ++r)
            b.setCreator(idOfRank[std::size_t(r)], idOfRank[std::size_t(r - 1)]);
        const auto p = b.build();
        QCOMPARE(p->measurementCount(), std::size_t(count));
        for (int r = 0; r < count; ++r) {
            const MeasurementId id = MeasurementId(r);
            const Measurement m = p->measurement(id);
            QCOMPARE(qstr(p->labelName(m.label)), QStringLiteral("m%1").arg(r));
            QCOMPARE(m.created, createdAt(r));
            QCOMPARE(m.finished, createdAt(r) + 5);
            QCOMPARE(m.creator, r == 0 ? kNone : MeasurementId(r - 1));
            const auto intervals = p->intervalsOf(id);
            QCOMPARE(intervals.size(), std::size_t(1));
            QCOMPARE(p->interval(intervals.front()).measurement, id);
            QCOMPARE(p->interval(intervals.front()).start, createdAt(r));
        }
    }

    // Measurements created at one time and depth are ordered by their first
    // interval, then by the order they were added: what the radix sort's
    // key leaves equal is ordered after it.
    void equalCreationsOrderByFirstInterval_data()
    {
        QTest::addColumn<QList<int>>("starts"); // of each one's interval, in the order added; -1: none
        QTest::addColumn<QStringList>("expected"); // names in the final order
        QTest::newRow("by start") << QList<int>{50, 10, 40, 20, 30} << QStringList{"m1", "m3", "m4", "m2", "m0"};
        QTest::newRow("in order already") << QList<int>{10, 20, 30} << QStringList{"m0", "m1", "m2"};
        // No interval: kNone, after every interval; among them, as added.
        QTest::newRow("some without") << QList<int>{-1, 30, -1, 10} << QStringList{"m3", "m1", "m0", "m2"};
    }

    void equalCreationsOrderByFirstInterval()
    {
        QFETCH(QList<int>, starts);
        QFETCH(QStringList, expected);
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        // A later one on its own, so that the key's bytes differ.
        const MeasurementId late = b.addMeasurement(t, b.label("late"), 1000, kNone);
        b.finish(late, 1005, FinalState::Completed);
        b.addInterval(late, 1000, 1005, 0);
        for (int k = 0; k < starts.size(); ++k) {
            const MeasurementId id = b.addMeasurement(t, b.label("m" + std::to_string(k)), 5, kNone);
            b.finish(id, 100, FinalState::Completed);
            if (starts[k] >= 0)
                b.addInterval(id, starts[k], starts[k] + 5, std::uint32_t(k));
        }
        const auto p = b.build();
        QCOMPARE(p->measurementCount(), std::size_t(starts.size() + 1));
        QStringList names;
        for (MeasurementId id = 0; id < MeasurementId(starts.size()); ++id)
            names << qstr(p->labelName(p->measurement(id).label));
        QCOMPARE(names, expected);
        QCOMPARE(qstr(p->labelName(p->measurement(MeasurementId(starts.size())).label)), QStringLiteral("late"));
    }

    // Args (Profile::argsOf) follow their measurement through the ordering,
    // the last given replacing those before, an empty one removing them;
    // only measurements with args take room in the side table.
    void argsSurviveOrdering_data()
    {
        QTest::addColumn<QStringList>("addOrder");
        QTest::newRow("added in creation order") << QStringList{"a", "b", "c", "d"};
        QTest::newRow("added out of order") << QStringList{"d", "c", "a", "b"};
    }

    void argsSurviveOrdering()
    {
        QFETCH(QStringList, addOrder);
        ProfileBuilder b("test");
        std::map<QString, MeasurementId> ids = addNamed(b, addThread(b), addOrder, true);
        b.setArgs(ids["c"], b.intern(R"({"n": 1})"));
        b.setArgs(ids["a"], b.intern(R"({"first": true})"));
        b.setArgs(ids["c"], b.intern(R"({"n": 2})"));
        b.setArgs(ids["d"], b.intern(R"({"gone": 0})"));
        b.setArgs(ids["d"], kEmptyString);
        const auto p = b.build();
        QStringList args;
        for (const char* name : {"a", "b", "c", "d"}) {
            const StringId json = p->argsOf(byName(*p, name));
            args << QString(name) + "=" + (json == kEmptyString ? QString("-") : qstr(p->string(json)));
        }
        QCOMPARE(args, (QStringList{R"(a={"first": true})", "b=-", R"(c={"n": 2})", "d=-"}));
        QCOMPARE(p->args().size(), std::size_t(2));
        QCOMPARE(p->args()[0].measurement, byName(*p, "a"));
        QCOMPARE(p->args()[1].measurement, byName(*p, "c"));
        QCOMPARE(p->argsOf(kNone), kEmptyString);
    }

    // A task made of its steps' calls (OutermostTasks) keeps its first
    // step's args; the other steps' would replace them and are dropped.
    void argsOfMergedSteps()
    {
        ProfileBuilder b("test");
        const TrackId t = addThread(b);
        std::map<QString, MeasurementId> ids = addNamed(b, t, {"a", "b", "c"}, true);
        b.setArgs(ids["a"], b.intern(R"({"step": 1})"));
        b.setArgs(ids["c"], b.intern(R"({"step": 3})"));
        const OutermostTasks::Request request{t, b.label("task")};
        const MeasurementId task = OutermostTasks::apply(b, std::span(&request, 1)).front();
        QCOMPARE(b.measurementCount(), std::size_t(1));
        const auto p = b.build();
        QCOMPARE(p->args().size(), std::size_t(1));
        QCOMPARE(qstr(p->string(p->argsOf(task))), QString(R"({"step": 1})"));
    }

    // A profile without args pays nothing for the side table; each
    // measurement with args 8 bytes.
    void argsCostOnlyWhereGiven()
    {
        std::size_t usage[2] = {};
        for (const bool withArgs : {false, true}) {
            ProfileBuilder b("test");
            const TrackId t = addThread(b);
            const StringId json = b.intern(R"({"k": "v"})");
            for (std::uint32_t i = 0; i < 1000; ++i) {
                const MeasurementId m = b.addCall(t, b.label("f"), Time(i) * 10, Time(i) * 10 + 5, i);
                if (withArgs && i % 10 == 0)
                    b.setArgs(m, json);
            }
            const auto p = b.build();
            QCOMPARE(p->args().size(), std::size_t(withArgs ? 100 : 0));
            usage[withArgs] = p->modelMemoryUsage();
        }
        QCOMPARE(usage[1] - usage[0], std::size_t(100 * 8));
    }

    void tracksAreOrdered()
    {
        ProfileBuilder b("test");
        TrackInfo late;
        late.pid = 1;
        late.tid = 9;
        late.threadSortIndex = -1;
        late.threadName = b.intern("main");
        TrackInfo first;
        first.pid = 2;
        first.processSortIndex = -5;
        TrackInfo async;
        async.pid = 1;
        async.kind = TrackKind::Async;
        TrackInfo plain;
        plain.pid = 1;
        plain.tid = 3;
        const TrackId ids[] = {b.addTrack(plain), b.addTrack(async), b.addTrack(late), b.addTrack(first)};
        for (std::uint32_t i = 0; i < 4; ++i)
            b.addCall(ids[i], b.label("x" + std::to_string(i)), i * 10, i * 10 + 5, i);
        const auto p = b.build();
        QStringList names;
        for (const Track& t : p->tracks())
            names << QString::fromStdString(std::string(p->string(t.name)));
        QCOMPARE(names, (QStringList{"pid 2 / tid 0", "pid 1 / main", "pid 1 / tid 3", "pid 1 / async"}));
        // Measurements moved with their tracks.
        QCOMPARE(p->measurement(byName(*p, "x3")).track, std::uint32_t(0));
        QCOMPARE(p->measurement(byName(*p, "x1")).track, std::uint32_t(3));
    }

    void asyncTasksArePacked()
    {
        ProfileBuilder b("test");
        TrackInfo info;
        info.kind = TrackKind::Async;
        const TrackId t = b.addTrack(info);
        auto task = [&](const char* name, Time s, Time e) {
            const MeasurementId m = b.addMeasurement(t, b.label(name), s, kNone, AsyncMeasurement);
            b.addInterval(m, s, e, std::uint32_t(s));
            b.finish(m, e, FinalState::Completed);
            return m;
        };
        const MeasurementId a = task("A", 0, 100);
        const MeasurementId sub = b.addMeasurement(t, b.label("A.sub"), 10, a);
        b.addInterval(sub, 10, 20, 11);
        b.finish(sub, 20, FinalState::Completed);
        task("B", 5, 50);
        task("C", 60, 80);
        task("D", 100, 120);
        const auto p = b.build();
        // A (and its nested slice) take rows 0-1; B overlaps A: rows 2;
        // C fits below A again after B ended: row 2; D reuses row 0.
        QCOMPARE(namesAt(*p, 0, 0), (QStringList{"A", "D"}));
        QCOMPARE(namesAt(*p, 0, 1), QStringList{"A.sub"});
        QCOMPARE(namesAt(*p, 0, 2), (QStringList{"B", "C"}));
        const MeasurementMetrics m(*p);
        QCOMPARE(m.exec(byName(*p, "A")), Time(90));
        QCOMPARE(m.exec(byName(*p, "B")), Time(45));
        QCOMPARE(p->interval(p->intervalsOf(byName(*p, "A.sub"))[0]).parent, p->intervalsOf(byName(*p, "A"))[0]);
    }

    // Random input, checked against brute force: every depth is a
    // start-sorted run of disjoint intervals, and overlapping() returns
    // exactly the intervals of that depth that overlap the query.
    void overlappingMatchesBruteForce_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<bool>("async");
        for (int seed = 1; seed <= 4; ++seed) {
            QTest::addRow("thread seed %d", seed) << seed << false;
            QTest::addRow("async seed %d", seed) << seed << true;
        }
    }

    void overlappingMatchesBruteForce()
    {
        QFETCH(int, seed);
        QFETCH(bool, async);
        std::mt19937 rng{std::uint32_t(seed)};
        ProfileBuilder b("test");
        TrackInfo info;
        info.kind = async ? TrackKind::Async : TrackKind::Thread;
        const TrackId t = b.addTrack(info);
        std::uniform_int_distribution<Time> start(0, 10000);
        std::uniform_int_distribution<Time> length(0, 400);
        for (std::uint32_t i = 0; i < 3000; ++i) {
            const Time s = start(rng);
            const MeasurementId m = b.addMeasurement(t, b.label("n" + std::to_string(i % 50)), s, kNone);
            b.addInterval(m, s, s + length(rng), i);
            b.finish(m, s + 400, FinalState::Completed);
        }
        const auto p = b.build();
        QCOMPARE(p->intervalCount(), std::size_t(3000));
        const Track& track = p->track(t);
        for (int d = 0; d < track.depthCount(); ++d) {
            const auto slice = p->depthSlice(t, d);
            for (std::size_t i = 1; i < slice.size(); ++i)
                QVERIFY2(slice[i - 1].end <= slice[i].start, "same-depth intervals overlap");
        }
        std::uniform_int_distribution<Time> query(-100, 10500);
        for (int q = 0; q < 300; ++q) {
            Time from = query(rng);
            Time to = from + length(rng) * (q % 3);
            const int d = int(rng() % std::uint32_t(track.depthCount()));
            const auto [first, last] = p->overlapping(t, d, from, to);
            std::set<IntervalId> expected;
            for (IntervalId id = track.depthOffsets[d]; id < track.depthOffsets[d + 1]; ++id) {
                const Interval& iv = p->interval(id);
                const bool hit = from == to ? ((iv.start <= from && from < iv.end) || (iv.start == iv.end && iv.start == from))
                                            : (iv.start < to && (iv.end > from || (iv.start == iv.end && iv.start >= from)));
                if (hit)
                    expected.insert(id);
            }
            std::set<IntervalId> got;
            for (IntervalId id = first; id < last; ++id)
                got.insert(id);
            QCOMPARE(got, expected);
            if (!got.empty()) {
                QCOMPARE(p->depthOf(*got.begin()), d);
                QCOMPARE(p->trackOf(*got.begin()), t);
            }
        }
    }

    // ProfileFinisher's steps, alone.

    // Tracks as (processSortIndex, pid, kind, threadSortIndex, tid); `order`
    // lists the old ids in their new order.
    void trackOrder_data()
    {
        QTest::addColumn<QList<QList<int>>>("tracks");
        QTest::addColumn<QList<int>>("merged");
        QTest::addColumn<QList<int>>("order");
        const int thread = int(TrackKind::Thread);
        const int async = int(TrackKind::Async);
        const int samples = int(TrackKind::Samples);
        QTest::newRow("by pid, then tid") << QList<QList<int>>{{0, 2, thread, 0, 1}, {0, 1, thread, 0, 2}, {0, 1, thread, 0, 1}}
                                          << QList<int>{} << QList<int>{2, 1, 0};
        QTest::newRow("process sort index before pid")
            << QList<QList<int>>{{0, 1, thread, 0, 1}, {-1, 2, thread, 0, 1}} << QList<int>{} << QList<int>{1, 0};
        QTest::newRow("thread sort index before tid")
            << QList<QList<int>>{{0, 1, thread, 0, 1}, {0, 1, thread, -3, 9}} << QList<int>{} << QList<int>{1, 0};
        QTest::newRow("samples after the thread's slices, async after every thread")
            << QList<QList<int>>{{0, 1, async, 0, 0}, {0, 1, samples, 0, 5}, {0, 1, thread, 0, 9}, {0, 1, thread, 0, 5}}
            << QList<int>{} << QList<int>{3, 1, 2, 0};
        QTest::newRow("async sort index does not pass a thread")
            << QList<QList<int>>{{0, 1, thread, 5, 1}, {0, 1, async, -5, 0}} << QList<int>{} << QList<int>{0, 1};
        QTest::newRow("equal tracks keep the file's order")
            << QList<QList<int>>{{0, 1, thread, 0, 1}, {0, 1, thread, 0, 1}, {0, 0, thread, 0, 1}} << QList<int>{}
            << QList<int>{2, 0, 1};
        QTest::newRow("merged tracks left out")
            << QList<QList<int>>{{0, 3, thread, 0, 1}, {0, 2, thread, 0, 1}, {0, 1, thread, 0, 1}} << QList<int>{1, 0}
            << QList<int>{2};
        QTest::newRow("none") << QList<QList<int>>{} << QList<int>{} << QList<int>{};
    }

    void trackOrder()
    {
        QFETCH(QList<QList<int>>, tracks);
        QFETCH(QList<int>, merged);
        QFETCH(QList<int>, order);
        std::vector<TrackInfo> infos;
        for (const QList<int>& t : tracks) {
            TrackInfo info;
            info.processSortIndex = t[0];
            info.pid = t[1];
            info.kind = TrackKind(t[2]);
            info.threadSortIndex = t[3];
            info.tid = t[4];
            infos.push_back(info);
        }
        const std::vector<TrackId> mergedIds(merged.begin(), merged.end());
        QCOMPARE(ids(ProfileFinisher::trackOrder(infos, mergedIds)), order);
    }

    // One laid-out track: A 0-100 (measurement 0) and B 200-300 (1) at
    // depth 0; C 10-50 (2) and D 220-230 (3) at depth 1; E 20-30 (4) at
    // depth 2.
    void innermostRunningAt_data()
    {
        QTest::addColumn<Time>("t");
        QTest::addColumn<int>("measurement");
        QTest::newRow("before all") << Time(-5) << -1;
        QTest::newRow("start of A") << Time(0) << 0;
        QTest::newRow("in A only") << Time(5) << 0;
        QTest::newRow("start of C") << Time(10) << 2;
        QTest::newRow("in E") << Time(25) << 4;
        QTest::newRow("end of E: C") << Time(30) << 2;
        QTest::newRow("end of C: A") << Time(50) << 0;
        QTest::newRow("end of A") << Time(100) << -1;
        QTest::newRow("between") << Time(150) << -1;
        QTest::newRow("in D") << Time(225) << 3;
        QTest::newRow("end of D: B") << Time(230) << 1;
        QTest::newRow("last of B") << Time(299) << 1;
        QTest::newRow("after all") << Time(300) << -1;
    }

    void innermostRunningAt()
    {
        QFETCH(Time, t);
        QFETCH(int, measurement);
        const std::vector<Interval> intervals{
            {0, 100, 0, kNone}, {200, 300, 1, kNone}, {10, 50, 2, 0}, {220, 230, 3, 1}, {20, 30, 4, 2},
        };
        const std::vector<IntervalId> depthOffsets{0, 2, 4, 5};
        QCOMPARE(ids({ProfileFinisher::innermostRunningAt(intervals, depthOffsets, t)}), QList<int>{measurement});
        // A track without intervals (one offset), or none at all.
        QCOMPARE(ProfileFinisher::innermostRunningAt(intervals, std::vector<IntervalId>{5}, t), kNone);
        QCOMPARE(ProfileFinisher::innermostRunningAt(intervals, {}, t), kNone);
    }
};

QTEST_GUILESS_MAIN(TestProfileBuilder)
#include "tst_profilebuilder.moc"
