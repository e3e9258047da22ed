#include "backgroundloader.h"
#include "profilebuilder.h"
#include "testsupport.h"
#include "workpool.h"

#include <QSemaphore>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <utility>

using namespace runlane;

namespace {

// A profile of `intervals` calls of 10 ns one after the other.
std::shared_ptr<const Profile> calls(int intervals, std::optional<PartialLoad> partial = std::nullopt)
{
    return test::sequentialCalls(intervals, 10, partial);
}

PartialLoad partialOf(PartialLoad::Kind kind, std::int64_t bytes)
{
    PartialLoad p;
    p.kind = kind;
    p.bytesRead = bytes;
    p.totalBytes = 1000;
    p.eventsRead = std::uint64_t(bytes / 10);
    return p;
}

// What the loader's signals said, in order: "preview N" (its intervals),
// "loaded N" (with "/cut" or "/preview" for a partial profile), "failed
// cancelled".
struct Recorder {
    QStringList events;
    explicit Recorder(BackgroundLoader& loader)
    {
        QObject::connect(&loader, &BackgroundLoader::previewed, &loader, [this](const LoadedProfile& p) {
            events << QStringLiteral("preview %1").arg(p.profile->intervalCount());
        });
        QObject::connect(&loader, &BackgroundLoader::loaded, &loader, [this](const LoadedProfile& p) {
            const auto& partial = p.profile->partial();
            events << QStringLiteral("loaded %1%2")
                          .arg(p.profile->intervalCount())
                          .arg(!partial                                   ? QString()
                                   : partial->kind == PartialLoad::Kind::Cut ? QStringLiteral("/cut")
                                                                             : QStringLiteral("/preview"));
        });
        QObject::connect(&loader, &BackgroundLoader::failed, &loader, [this](const LoadError& e) {
            events << (e.cancelled ? QStringLiteral("failed cancelled") : QStringLiteral("failed"));
        });
    }
};

// Until the test releases it, or the load is cancelled.
bool waitFor(QSemaphore& gate, const LoadControl& control)
{
    while (!gate.tryAcquire(1, 5))
        if (control.cancel && control.cancel->load())
            return false;
    return true;
}

} // namespace

class TestBackgroundLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each preview the reader gives arrives, in order, once the last one was
    // handled; then the profile.
    void previewsArriveInOrder_data()
    {
        QTest::addColumn<QList<int>>("previews");
        QTest::newRow("none") << QList<int>{};
        QTest::newRow("one") << QList<int>{3};
        QTest::newRow("three") << QList<int>{2, 5, 9};
    }
    void previewsArriveInOrder()
    {
        QFETCH(QList<int>, previews);
        BackgroundLoader loader;
        Recorder recorder(loader);
        QSemaphore handled;
        connect(&loader, &BackgroundLoader::previewed, this, [&handled] { handled.release(); });
        QSemaphore finish;
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            for (int n : previews) {
                control.preview(calls(n, partialOf(PartialLoad::Kind::Preview, n * 10)));
                if (!waitFor(handled, control))
                    return LoadResult{};
            }
            waitFor(finish, control);
            return LoadResult{calls(12), {}};
        });
        loader.load(QStringLiteral("fake.json"));
        QStringList expected;
        for (int n : previews)
            expected << QStringLiteral("preview %1").arg(n);
        QTRY_COMPARE(recorder.events, expected);
        finish.release();
        expected << QStringLiteral("loaded 12");
        QTRY_COMPARE(recorder.events, expected);
        QVERIFY(!loader.isLoading());
    }

    // A load that adds a file to the profile on show (File ▸ Add) reads the
    // trace again: no preview of it replaces the whole profile meanwhile.
    // Nor does a loader told to show none (runlane --no-previews, what a
    // benchmark compares the previews' cost with), until told again.
    void previewsOnlyWithoutAdditions_data()
    {
        QTest::addColumn<bool>("adding");
        QTest::addColumn<bool>("previews");
        QTest::newRow("a file") << false << true;
        QTest::newRow("a file with an addition") << true << true;
        QTest::newRow("a file, previews off") << false << false;
    }
    void previewsOnlyWithoutAdditions()
    {
        QFETCH(bool, adding);
        QFETCH(bool, previews);
        BackgroundLoader loader;
        Recorder recorder(loader);
        bool offered = false;
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            offered = bool(control.preview);
            return LoadResult{calls(5), {}};
        });
        std::vector<ProfileAddition> additions;
        if (adding)
            additions.push_back(ProfileAddition{"samples.cpuprofile", std::nullopt});
        loader.setPreviews(previews);
        loader.load(QStringLiteral("fake.json"), additions);
        QTRY_COMPARE(recorder.events, QStringList{QStringLiteral("loaded 5")});
        QCOMPARE(offered, !adding && previews);
        // The setting holds for the loads after it, until changed.
        loader.setPreviews(true);
        loader.load(QStringLiteral("fake.json"), additions);
        QTRY_COMPARE(recorder.events, (QStringList{QStringLiteral("loaded 5"), QStringLiteral("loaded 5")}));
        QCOMPARE(offered, !adding);
    }

    // While the receiver has not handled a preview, the reader's next one
    // is skipped, not queued: the one after it comes.
    void previewSkippedWhileTheLastIsPending()
    {
        BackgroundLoader loader;
        Recorder recorder(loader);
        QSemaphore given, go, finish;
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            control.preview(calls(1, partialOf(PartialLoad::Kind::Preview, 10)));
            control.preview(calls(2, partialOf(PartialLoad::Kind::Preview, 20))); // the first is not handled yet
            given.release();
            waitFor(go, control);
            control.preview(calls(3, partialOf(PartialLoad::Kind::Preview, 30)));
            waitFor(finish, control);
            return LoadResult{calls(4), {}};
        });
        loader.load(QStringLiteral("fake.json"));
        given.acquire(); // this thread handled nothing meanwhile
        QTRY_COMPARE(recorder.events, QStringList{QStringLiteral("preview 1")});
        go.release();
        QTRY_COMPARE(recorder.events, (QStringList{QStringLiteral("preview 1"), QStringLiteral("preview 3")}));
        finish.release();
        QTRY_COMPARE(recorder.events,
                     (QStringList{QStringLiteral("preview 1"), QStringLiteral("preview 3"), QStringLiteral("loaded 4")}));
    }

    // A load runs on Runlane's work pool and leaves Qt's global one free:
    // Qt 6.4's raster paint engine waits on that pool for a big fill, and
    // the window's paints would wait for the load (workpool.h).
    void runsOffQtsGlobalPool()
    {
        BackgroundLoader loader;
        Recorder recorder(loader);
        QSemaphore started, finish;
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            started.release();
            waitFor(finish, control);
            return LoadResult{calls(2), {}};
        });
        const int globalBefore = QThreadPool::globalInstance()->activeThreadCount();
        loader.load(QStringLiteral("fake.json"));
        QVERIFY(started.tryAcquire(1, 10000));
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), globalBefore);
        QCOMPARE(workPool()->activeThreadCount(), 1);
        finish.release();
        QTRY_COMPARE(recorder.events, QStringList{QStringLiteral("loaded 2")});
    }

    // A preview on its way when another file is asked for is dropped: only
    // the new file's profile arrives.
    void previewOfAReplacedLoadIsDropped()
    {
        BackgroundLoader loader;
        Recorder recorder(loader);
        QSemaphore given;
        loader.setLoadFunction([&](const QString& path, const LoadControl& control) {
            if (path == QLatin1String("second.json"))
                return LoadResult{calls(7), {}};
            control.preview(calls(1, partialOf(PartialLoad::Kind::Preview, 10)));
            given.release();
            QSemaphore never;
            waitFor(never, control); // until cancelled by the next load
            LoadResult result;
            result.error.cancelled = true;
            result.error.message = "loading was cancelled";
            return result;
        });
        loader.load(QStringLiteral("first.json"));
        given.acquire(); // its preview is queued, not yet handled
        loader.load(QStringLiteral("second.json"));
        QTRY_COMPARE(recorder.events, QStringList{QStringLiteral("loaded 7")});
        QTest::qWait(20);
        QCOMPARE(recorder.events, QStringList{QStringLiteral("loaded 7")});
    }

    // A preview still queued when the load has ended is never given after
    // (nor instead of) the profile.
    void noPreviewAfterTheProfile()
    {
        BackgroundLoader loader;
        Recorder recorder(loader);
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            control.preview(calls(1, partialOf(PartialLoad::Kind::Preview, 10)));
            return LoadResult{calls(5), {}};
        });
        loader.load(QStringLiteral("fake.json"));
        // The load ends before this thread handles anything.
        while (loader.isLoading())
            QThread::msleep(1);
        QTRY_COMPARE(recorder.events, QStringList{QStringLiteral("loaded 5")});
        QTest::qWait(20);
        QCOMPARE(recorder.events, QStringList{QStringLiteral("loaded 5")});
    }

    // stop() keeps what was read (the reader sees keepPartial once it sees
    // the cancel); cancel() goes back, also after a stop().
    void stopKeepsWhatWasRead_data()
    {
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("stop") << QStringList{QStringLiteral("stop")} << QStringList{QStringLiteral("loaded 6/cut")};
        QTest::newRow("cancel") << QStringList{QStringLiteral("cancel")} << QStringList{QStringLiteral("failed cancelled")};
        QTest::newRow("stop then cancel") << QStringList{QStringLiteral("stop"), QStringLiteral("cancel")}
                                          << QStringList{QStringLiteral("failed cancelled")};
        QTest::newRow("stop, a format that cannot cut")
            << QStringList{QStringLiteral("stop"), QStringLiteral("no cut")} << QStringList{QStringLiteral("failed cancelled")};
    }
    void stopKeepsWhatWasRead()
    {
        QFETCH(QStringList, actions);
        QFETCH(QStringList, expected);
        BackgroundLoader loader;
        Recorder recorder(loader);
        QSemaphore started, readerSawIt;
        const bool canCut = !actions.contains(QStringLiteral("no cut"));
        loader.setLoadFunction([&](const QString&, const LoadControl& control) {
            started.release();
            QSemaphore never;
            waitFor(never, control);
            readerSawIt.release();
            if (canCut && control.keepPartial && control.keepPartial->load())
                return LoadResult{calls(6, partialOf(PartialLoad::Kind::Cut, 60)), {}};
            LoadResult result;
            result.error.cancelled = true;
            result.error.message = "loading was cancelled";
            return result;
        });
        loader.load(QStringLiteral("fake.json"));
        started.acquire();
        for (const QString& action : actions) {
            if (action == QLatin1String("stop"))
                loader.stop();
            else if (action == QLatin1String("cancel"))
                loader.cancel();
        }
        QTRY_COMPARE(recorder.events, expected);
    }

    // With the real reader (a Chrome trace of 200,000 calls in order):
    // previews while it reads, then the whole profile; or, stopped at its
    // first chunk, the profile read so far, cut. The reader waits at its
    // first progress until the test has acted. Either way, once the file is
    // read, the build's steps in order, the views' preparation last (a cut
    // has no finishing pass of the format's: the cut ends what is open).
    void realReader_data()
    {
        QTest::addColumn<bool>("stop");
        QTest::newRow("previews, then the profile") << false;
        QTest::newRow("stopped and kept") << true;
    }
    void realReader()
    {
        QFETCH(bool, stop);
        constexpr int kCalls = 200'000;
        QTemporaryDir dir;
        QByteArray json = "{\"traceEvents\": [\n";
        for (int i = 0; i < kCalls; ++i)
            json += QByteArrayLiteral("{\"ph\": \"X\", \"name\": \"work\", \"pid\": 1, \"tid\": 1, \"ts\": ") + QByteArray::number(i * 10)
                + QByteArrayLiteral(", \"dur\": 5}") + (i + 1 < kCalls ? ",\n" : "\n");
        json += "]}\n";
        const QString path = test::writeTemp(dir, json);
        BackgroundLoader loader;
        QList<PartialLoad> previews;
        connect(&loader, &BackgroundLoader::previewed, this, [&previews](const LoadedProfile& p) {
            previews << *p.profile->partial();
            QTest::qWait(1); // the GUI showing it
        });
        QSignalSpy loaded(&loader, &BackgroundLoader::loaded);
        QSignalSpy failed(&loader, &BackgroundLoader::failed);
        QSignalSpy building(&loader, &BackgroundLoader::building);
        QSemaphore firstChunk, go;
        loader.setLoadFunction([&](const QString& file, const LoadControl& given) {
            LoadControl control = given;
            control.previewFirstMs = 0; // a preview as soon as the reader can give one
            control.previewEveryMs = 0;
            auto first = std::make_shared<bool>(true);
            control.progress = [&, first, forward = given.progress](std::int64_t done, std::int64_t total) {
                if (std::exchange(*first, false)) {
                    firstChunk.release();
                    go.acquire();
                }
                forward(done, total);
            };
            return ProfileLoader::load(file, control);
        });
        loader.load(path);
        firstChunk.acquire();
        if (stop)
            loader.stop();
        go.release();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count() + failed.count(), 1, 20000);
        QCOMPARE(failed.count(), 0);
        const auto profile = loaded.first().first().value<LoadedProfile>().profile;
        // Each step once as it begins; a long one again as it goes, its
        // name then followed by ": " and how far it is.
        QList<int> steps;
        QString began;
        for (const QList<QVariant>& step : building) {
            QCOMPARE(step.at(1).toInt(), ProfileBuilder::kBuildSteps + 1);
            const QString what = step.at(2).toString();
            if (!steps.isEmpty() && step.at(0).toInt() == steps.last()) {
                QVERIFY2(what.startsWith(began + QStringLiteral(": ")), qPrintable(what));
                continue;
            }
            steps << step.at(0).toInt();
            began = what;
        }
        QList<int> expected;
        for (int step = stop ? 2 : 1; step <= ProfileBuilder::kBuildSteps + 1; ++step)
            expected << step;
        QCOMPARE(steps, expected);
        QCOMPARE(building.last().at(2).toString(), QStringLiteral("preparing the views"));
        if (stop) {
            QVERIFY(profile->partial());
            QCOMPARE(int(profile->partial()->kind), int(PartialLoad::Kind::Cut));
            QVERIFY(profile->partial()->bytesRead < qint64(json.size()));
            QCOMPARE(profile->partial()->totalBytes, qint64(json.size()));
            QVERIFY(profile->intervalCount() < std::size_t(kCalls));
            QCOMPARE(profile->partial()->eventsRead, std::uint64_t(profile->intervalCount()));
        } else {
            QVERIFY(!profile->partial());
            QCOMPARE(profile->intervalCount(), std::size_t(kCalls));
            QVERIFY(!previews.isEmpty());
            for (qsizetype i = 0; i < previews.size(); ++i) {
                QCOMPARE(int(previews[i].kind), int(PartialLoad::Kind::Preview));
                QCOMPARE(previews[i].totalBytes, qint64(json.size()));
                if (i > 0)
                    QVERIFY(previews[i].bytesRead >= previews[i - 1].bytesRead);
            }
        }
    }
};

QTEST_MAIN(TestBackgroundLoader)
#include "tst_backgroundloader.moc"
