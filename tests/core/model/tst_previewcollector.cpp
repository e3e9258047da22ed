#include "previewcollector.h"
#include "previewtarget.h"
#include "profilebuilder.h"

#include <QtTest>

#include <algorithm>

using namespace runlane;

namespace {

PreviewSettings settings(std::size_t budget)
{
    PreviewSettings s;
    s.emit = [](std::shared_ptr<const Profile>) {};
    s.budget = budget;
    return s;
}

// Durations offered in this order, each a call [0, d) on track 0, label 0.
QList<qint64> keptDurations(const PreviewCollector& c)
{
    QList<qint64> out;
    for (const PreviewItem& item : c.items())
        out << qint64(item.end - item.start);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestPreviewCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The threshold and the items kept, worked out by hand: the threshold
    // goes to the smallest power of two at least twice the old one (1 from
    // 0) under which at most `budget` items remain.
    void thresholdAndBudget_data()
    {
        QTest::addColumn<int>("budget");
        QTest::addColumn<QList<qint64>>("durations"); // -1: an open interval
        QTest::addColumn<qint64>("threshold");
        QTest::addColumn<QList<qint64>>("kept");

        QTest::newRow("under budget: all kept, zero-length too")
            << 4 << QList<qint64>{5, 3, 0, 7} << qint64(0) << QList<qint64>{0, 3, 5, 7};
        // 0,1,2,3: four over three; at least 1 ns: 1,2,3.
        QTest::newRow("one raise to 1 ns") << 3 << QList<qint64>{0, 1, 2, 3} << qint64(1) << QList<qint64>{1, 2, 3};
        // 0,1,2 -> d 1 keeps 1,2; +3 -> d 2 keeps 2,3; +4 -> d 4 keeps 4 (2
        // would keep three); +100 fits; 3 is then under the threshold.
        QTest::newRow("raises in steps, later offers under it dropped")
            << 2 << QList<qint64>{0, 1, 2, 3, 4, 100, 3} << qint64(4) << QList<qint64>{4, 100};
        // A raise jumps as far as it must: 1000 and 1500 over budget 1 at
        // once go to 1024 (512 would keep both).
        QTest::newRow("a raise jumps several doublings")
            << 1 << QList<qint64>{1000, 1500} << qint64(1024) << QList<qint64>{1500};
        QTest::newRow("open intervals are never kept") << 2 << QList<qint64>{-1, -1, 8} << qint64(0) << QList<qint64>{8};
        // Equal lengths: doubling past them drops them all.
        QTest::newRow("all equal over budget") << 2 << QList<qint64>{6, 6, 6} << qint64(8) << QList<qint64>{};
    }
    void thresholdAndBudget()
    {
        QFETCH(int, budget);
        QFETCH(QList<qint64>, durations);
        QFETCH(qint64, threshold);
        QFETCH(QList<qint64>, kept);
        PreviewCollector c(settings(std::size_t(budget)));
        std::uint32_t order = 0;
        for (const qint64 d : durations)
            c.offer(PreviewItem{0, d < 0 ? kTimeMax : Time(d), 0, 0, order++});
        QCOMPARE(qint64(c.threshold()), threshold);
        QCOMPARE(keptDurations(c), kept);
    }

    // Nested calls: a kept call's callers are kept, whatever the budget.
    void nestingStaysWhole()
    {
        PreviewCollector c(settings(100));
        // 1000 leaves of 10 ns under 10 parents of 1000 ns under a root.
        std::uint32_t order = 0;
        for (int p = 0; p < 10; ++p) {
            for (int l = 0; l < 100; ++l)
                c.offer(PreviewItem{p * 1000 + l * 10, p * 1000 + l * 10 + 10, 0, 0, order++});
            c.offer(PreviewItem{p * 1000, p * 1000 + 1000, 0, 1, order++});
        }
        c.offer(PreviewItem{0, 10'000, 0, 2, order++});
        QCOMPARE(qint64(c.threshold()), qint64(16));
        QCOMPARE(c.items().size(), std::size_t(11));
    }

    // ProfileBuilder feeds the collector from addCall once started, reads
    // the clock every 4096th poll and emits a preview of what it kept:
    // the source's tracks and labels, the partial load's figures.
    void builderEmitsPreviews()
    {
        ProfileBuilder b("test", "/tmp/x.json");
        std::vector<std::shared_ptr<const Profile>> previews;
        PreviewSettings s;
        s.emit = [&](std::shared_ptr<const Profile> p) { previews.push_back(std::move(p)); };
        s.bytes = [] { return std::pair<std::int64_t, std::int64_t>(1234, 5678); };
        s.firstMs = 0;
        s.everyMs = 0;
        s.budget = 1000;
        b.setPreviewSettings(std::move(s));
        TrackInfo info;
        info.pid = 7;
        info.tid = 8;
        info.threadName = b.intern("worker");
        const TrackId t = b.addTrack(info);
        b.addTrack(TrackInfo{});
        const LabelId outer = b.label("outer");
        const LabelId inner = b.label("inner", "a.cpp", 12);
        // Before startPreviews nothing is collected.
        b.addCall(t, outer, 0, 5000, 0);
        for (std::uint64_t i = 0; i < ProfileBuilder::kPreviewPollStride; ++i)
            b.pollPreview(i + 1);
        QVERIFY(previews.empty());
        QVERIFY(b.startPreviews());
        b.previewSettings()->completeUpTo = [] { return Time(777); };
        // 900 calls of 10 ns inside 900 of 100 ns: over the budget, the
        // threshold goes to 16 ns and keeps the 900 outer ones.
        for (std::uint32_t i = 0; i < 900; ++i) {
            b.addCall(t, inner, Time(i) * 100 + 10, Time(i) * 100 + 20, 2 * i + 2);
            b.addCall(t, outer, Time(i) * 100, Time(i) * 100 + 100, 2 * i + 1);
        }
        for (std::uint64_t i = 0; i < ProfileBuilder::kPreviewPollStride; ++i)
            b.pollPreview(i + 1);
        QCOMPARE(previews.size(), std::size_t(1));
        const Profile& p = *previews[0];
        QVERIFY(p.partial().has_value());
        QCOMPARE(p.partial()->kind, PartialLoad::Kind::Preview);
        QCOMPARE(p.partial()->bytesRead, std::int64_t(1234));
        QCOMPARE(p.partial()->totalBytes, std::int64_t(5678));
        QCOMPARE(p.partial()->eventsRead, std::uint64_t(4096));
        QCOMPARE(p.partial()->completeUpTo, Time(777));
        QCOMPARE(p.partial()->shortestKept, Time(16));
        QCOMPARE(p.intervalCount(), std::size_t(900));
        QCOMPARE(p.trackCount(), std::size_t(2));
        QCOMPARE(p.sourcePath(), std::string("/tmp/x.json"));
        QCOMPARE(p.endTime(), Time(90'000));
        // After stopPreviews: nothing more, and the source builds whole.
        b.stopPreviews();
        for (std::uint64_t i = 0; i < ProfileBuilder::kPreviewPollStride; ++i)
            b.pollPreview(i + 1);
        QCOMPARE(previews.size(), std::size_t(1));
        const auto whole = b.build();
        QCOMPARE(whole->intervalCount(), std::size_t(1801));
        QVERIFY(!whole->partial().has_value());
    }

    // A format's tasks (PreviewSettings::addTasks): what the hook says goes
    // to the preview's PartialLoad (none: it holds calls only); the hook
    // sees the source's labels and tracks mapped, and a late track it adds
    // twice is one track, named by the format.
    void formatAddsTasks_data()
    {
        QTest::addColumn<int>("leftOut"); // -1: the hook cannot
        QTest::addColumn<bool>("holdsTasks");
        QTest::newRow("none left out") << 0 << true;
        QTest::newRow("7 left out") << 7 << true;
        QTest::newRow("cannot") << -1 << false;
    }
    void formatAddsTasks()
    {
        QFETCH(int, leftOut);
        QFETCH(bool, holdsTasks);
        ProfileBuilder b("test");
        std::vector<std::shared_ptr<const Profile>> previews;
        PreviewSettings s = settings(1000);
        s.emit = [&](std::shared_ptr<const Profile> p) { previews.push_back(std::move(p)); };
        s.firstMs = 0;
        s.everyMs = 0;
        s.nameTrack = [&b](TrackInfo& info) { info.processName = b.intern("service-" + std::to_string(info.pid)); };
        s.addTasks = [&](PreviewTarget& target) -> std::optional<std::uint64_t> {
            if (leftOut < 0)
                return std::nullopt;
            TrackInfo async;
            async.kind = TrackKind::Async;
            async.pid = 3;
            for (Time at : {100, 300}) {
                const TrackId track = target.addTrack(async);
                const MeasurementId m = target.profile().addMeasurement(track, target.label(1), at, kNone, AsyncMeasurement);
                target.profile().addInterval(m, at + 10, at + 50, 0);
                target.profile().finish(m, at + 60, FinalState::Failed);
            }
            return std::uint64_t(leftOut);
        };
        b.setPreviewSettings(std::move(s));
        TrackInfo thread;
        thread.pid = 3;
        thread.tid = 4;
        const TrackId t = b.addTrack(thread);
        b.label("call");
        b.label("task", "t.py", 9);
        QVERIFY(b.startPreviews());
        b.addCall(t, 0, 0, 1000, 0);
        for (std::uint64_t i = 0; i < ProfileBuilder::kPreviewPollStride; ++i)
            b.pollPreview(i + 1);
        QCOMPARE(previews.size(), std::size_t(1));
        const Profile& p = *previews[0];
        QCOMPARE(p.partial()->holdsTasks, holdsTasks);
        QCOMPARE(p.partial()->tasksLeftOut, std::uint64_t(std::max(leftOut, 0)));
        QCOMPARE(p.trackCount(), std::size_t(holdsTasks ? 2 : 1));
        QCOMPARE(p.measurementCount(), std::size_t(holdsTasks ? 3 : 1));
        if (!holdsTasks)
            return;
        std::vector<std::string> names;
        for (const Track& track : p.tracks())
            names.emplace_back(p.string(track.name));
        QCOMPARE(names, (std::vector<std::string>{"service-3 / tid 4", "service-3 / async"}));
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            const Measurement m = p.measurement(id);
            if (!m.isAsync())
                continue;
            QCOMPARE(p.labelText(m.label), std::string("task (t.py:9)"));
            QCOMPARE(m.finished - m.created, Time(60));
            QCOMPARE(m.finalState(), FinalState::Failed);
            QCOMPARE(p.intervalsOf(id).size(), std::size_t(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestPreviewCollector)
#include "tst_previewcollector.moc"
