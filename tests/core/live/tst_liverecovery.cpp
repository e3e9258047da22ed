#include "liverecovery.h"
#include "profileloader.h"
#include "snapshotreader.h"

#include <QtTest>

#include <memory>
#include <vector>

using namespace runlane;

namespace {

constexpr Time kSecond = 1'000'000'000;

// One proc, "A", whose exec is the second it was taken at × 1000 ns.
ScrapedSnapshot at(int second)
{
    NamedAggregateRow r;
    r.procedure = "A";
    r.file = "a.nim";
    r.line = 7;
    r.values.exec = Time(second) * 1000;
    r.values.calls = std::uint64_t(second);
    return ScrapedSnapshot{Time(second) * kSecond, {r}};
}

std::shared_ptr<const std::vector<ScrapedSnapshot>> batch(const std::vector<int>& seconds)
{
    std::vector<ScrapedSnapshot> snapshots;
    for (int s : seconds)
        snapshots.push_back(at(s));
    return std::make_shared<const std::vector<ScrapedSnapshot>>(std::move(snapshots));
}

// The seconds of the snapshots `path` loads with, and their exec of A.
std::vector<int> secondsIn(const QString& path, std::vector<Time>* exec = nullptr)
{
    const auto loaded = ProfileLoader::load(path);
    if (!loaded.profile)
        return {-1};
    std::vector<int> seconds;
    SnapshotReader reader(loaded.profile->snapshots());
    for (std::size_t i = 0; i < reader.size(); ++i) {
        seconds.push_back(int(reader.snapshot(i).time() / kSecond));
        if (exec)
            exec->push_back(reader.rows(i)[0].exec);
    }
    return seconds;
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(none)");
}

void write(const QString& path, const QByteArray& data)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

} // namespace

class TestLiveRecovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultFolderWhenNoneIsGiven()
    {
        QCOMPARE(LiveRecovery().folder(), LiveRecovery::defaultFolder());
        QVERIFY(LiveRecovery::defaultFolder().endsWith(QStringLiteral("/recovery")));
        QCOMPARE(LiveRecovery(QStringLiteral("/some/where")).folder(), QStringLiteral("/some/where"));
    }

    void beginNamesLocksAndSaysTheSource()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("deeper/recovery")); // made on begin
        LiveRecovery recovery(folder);
        QCOMPARE(recovery.path(), QString());
        QVERIFY(!recovery.isOpen());
        QVERIFY(recovery.begin(QStringLiteral("http://host:8008/metrics")));
        QVERIFY(recovery.isOpen());
        const QFileInfo file(recovery.path());
        QCOMPARE(file.absolutePath(), folder);
        QVERIFY2(QRegularExpression(QStringLiteral("^live-\\d{8}-\\d{6}-\\d{3}\\.json$")).match(file.fileName()).hasMatch(),
                 qPrintable(file.fileName()));
        QCOMPARE(contents(recovery.path() + QStringLiteral(".url")), QByteArray("http://host:8008/metrics\n"));
        QCOMPARE(LiveRecovery::recordedFrom(recovery.path()), QStringLiteral("http://host:8008/metrics"));
        QVERIFY(QFile::exists(recovery.path() + QStringLiteral(".lock")));
        // Written, it is nobody's to recover: not ours, and locked for another.
        QCOMPARE(recovery.recoverableFiles(), QStringList());
        QCOMPARE(LiveRecovery(folder).recoverableFiles(), QStringList());
        QVERIFY(!LiveRecovery::claim(recovery.path()));
        // The head alone loads: a recording of nothing yet.
        recovery.waitForWritten();
        QCOMPARE(secondsIn(recovery.path()), std::vector<int>{});
    }

    void beginFailsWithAWarning()
    {
        QTemporaryDir dir;
        const QString notAFolder = dir.filePath(QStringLiteral("file"));
        write(notAFolder, "x");
        LiveRecovery recovery(notAFolder);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^live recording not autosaved: .*/file/live-.*\\.json: ")));
        QVERIFY(!recovery.begin(QStringLiteral("http://host:1/metrics")));
        QVERIFY(!recovery.isOpen());
        // What arrives is not written anywhere, and nothing breaks.
        recovery.append(batch({1, 2}));
        recovery.waitForWritten();
        recovery.close(true);
        QCOMPARE(contents(notAFolder), QByteArray("x"));
    }

    // It keeps what a LiveRecording keeps: each snapshot later than the
    // last one written, in the order the batches came.
    void appendKeepsWhatIsLater_data()
    {
        QTest::addColumn<std::vector<std::vector<int>>>("batches");
        QTest::addColumn<std::vector<int>>("written");
        QTest::newRow("in order") << std::vector<std::vector<int>>{{1, 2}, {3}} << std::vector<int>{1, 2, 3};
        QTest::newRow("a repeat") << std::vector<std::vector<int>>{{1, 2}, {2, 3}} << std::vector<int>{1, 2, 3};
        QTest::newRow("older dropped") << std::vector<std::vector<int>>{{1, 5}, {3, 6}, {4}} << std::vector<int>{1, 5, 6};
        QTest::newRow("empty batch") << std::vector<std::vector<int>>{{}, {4}, {}} << std::vector<int>{4};
        QTest::newRow("out of order in one") << std::vector<std::vector<int>>{{2, 1, 3}} << std::vector<int>{2, 3};
    }
    void appendKeepsWhatIsLater()
    {
        QFETCH(std::vector<std::vector<int>>, batches);
        QFETCH(std::vector<int>, written);
        QTemporaryDir dir;
        LiveRecovery recovery(dir.path());
        QVERIFY(recovery.begin(QStringLiteral("http://host:1/metrics")));
        recovery.append(nullptr); // nothing: no crash
        for (const std::vector<int>& b : batches)
            recovery.append(batch(b));
        recovery.waitForWritten();
        // Loads before it is closed (a killed program's file)…
        std::vector<Time> exec;
        QCOMPARE(secondsIn(recovery.path(), &exec), written);
        std::vector<Time> expected;
        for (int s : written)
            expected.push_back(Time(s) * 1000);
        QCOMPARE(exec, expected);
        // … and after, the same.
        recovery.close(true);
        QCOMPARE(secondsIn(recovery.path()), written);
        QVERIFY(contents(recovery.path()).trimmed().endsWith('}'));
    }

    // A second recording starts its own file and forgets the first's last time.
    void beginAgainStartsOver()
    {
        QTemporaryDir dir;
        LiveRecovery recovery(dir.path());
        QVERIFY(recovery.begin(QStringLiteral("http://one:1/metrics")));
        recovery.append(batch({5, 6}));
        recovery.close(true);
        const QString first = recovery.path();
        QTest::qWait(2); // another millisecond: another name
        QVERIFY(recovery.begin(QStringLiteral("http://two:2/metrics")));
        QVERIFY(recovery.path() != first);
        recovery.append(batch({1, 2}));
        recovery.close(true);
        QCOMPARE(secondsIn(first), (std::vector<int>{5, 6}));
        QCOMPARE(secondsIn(recovery.path()), (std::vector<int>{1, 2}));
        QCOMPARE(LiveRecovery::recordedFrom(first), QStringLiteral("http://one:1/metrics"));
        QCOMPARE(LiveRecovery::recordedFrom(recovery.path()), QStringLiteral("http://two:2/metrics"));
    }

    void closeKeepsOrRemoves_data()
    {
        QTest::addColumn<bool>("keep");
        QTest::newRow("unsaved: kept") << true;
        QTest::newRow("saved or empty: removed") << false;
    }
    void closeKeepsOrRemoves()
    {
        QFETCH(bool, keep);
        QTemporaryDir dir;
        LiveRecovery recovery(dir.path());
        QVERIFY(recovery.begin(QStringLiteral("http://host:1/metrics")));
        recovery.append(batch({1, 2, 3}));
        const QString path = recovery.path();
        recovery.close(keep);
        QVERIFY(!recovery.isOpen());
        QCOMPARE(recovery.path(), path); // still said: the file it was
        QCOMPARE(QFile::exists(path), keep);
        QCOMPARE(QFile::exists(path + QStringLiteral(".url")), keep);
        if (keep)
            QCOMPARE(secondsIn(path), (std::vector<int>{1, 2, 3}));
        // Unlocked: the next start offers what is left.
        QCOMPARE(LiveRecovery(dir.path()).recoverableFiles(), keep ? QStringList{path} : QStringList());
        // Closing again changes nothing.
        recovery.close(keep);
        QCOMPARE(QFile::exists(path), keep);
    }

    void recoverableNewestFirst()
    {
        QTemporaryDir dir;
        const QDateTime now = QDateTime::currentDateTime();
        const QStringList names{QStringLiteral("live-b.json"), QStringLiteral("live-a.json"), QStringLiteral("live-c.json"),
                                QStringLiteral("live-held.json"), QStringLiteral("other.json"), QStringLiteral("live-d.txt")};
        const std::vector<int> ageSeconds{30, 10, 20, 5, 1, 2};
        for (int i = 0; i < names.size(); ++i) {
            const QString path = dir.filePath(names[i]);
            write(path, "{}");
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(now.addSecs(-ageSeconds[std::size_t(i)]), QFileDevice::FileModificationTime));
        }
        // Another Runlane is writing this one.
        const auto held = LiveRecovery::claim(dir.filePath(QStringLiteral("live-held.json")));
        QVERIFY(held);
        QCOMPARE(LiveRecovery(dir.path()).recoverableFiles(),
                 (QStringList{dir.filePath(QStringLiteral("live-a.json")), dir.filePath(QStringLiteral("live-c.json")),
                              dir.filePath(QStringLiteral("live-b.json"))}));
        // A lock is released with its holder.
        QVERIFY(!LiveRecovery::claim(dir.filePath(QStringLiteral("live-held.json"))));
        QVERIFY(LiveRecovery::claim(dir.filePath(QStringLiteral("live-a.json"))));
        QVERIFY(LiveRecovery::claim(dir.filePath(QStringLiteral("live-a.json"))));
        QCOMPARE(LiveRecovery(dir.filePath(QStringLiteral("none"))).recoverableFiles(), QStringList());
    }

    void recordedFromWithoutTheUrl_data()
    {
        QTest::addColumn<QByteArray>("url"); // "(none)": no .url file
        QTest::addColumn<QString>("said");
        QTest::newRow("the url") << QByteArray("prometheus://p:9090\n") << QStringLiteral("prometheus://p:9090");
        QTest::newRow("blanks around") << QByteArray("  http://h:1/metrics \r\n") << QStringLiteral("http://h:1/metrics");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("live-x.json");
        QTest::newRow("no url file") << QByteArray("(none)") << QStringLiteral("live-x.json");
    }
    void recordedFromWithoutTheUrl()
    {
        QFETCH(QByteArray, url);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live-x.json"));
        write(path, "{}");
        if (url != "(none)")
            write(path + QStringLiteral(".url"), url);
        QCOMPARE(LiveRecovery::recordedFrom(path), said);
        LiveRecovery::remove(path);
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + QStringLiteral(".url")));
    }

    void moveTo_data()
    {
        QTest::addColumn<bool>("targetExists");
        QTest::addColumn<bool>("targetFolderExists");
        QTest::addColumn<bool>("moved");
        QTest::newRow("new file") << false << true << true;
        QTest::newRow("replaces a file") << true << true << true;
        QTest::newRow("no such folder") << false << false << false;
    }
    void moveTo()
    {
        QFETCH(bool, targetExists);
        QFETCH(bool, targetFolderExists);
        QFETCH(bool, moved);
        QTemporaryDir dir;
        const QString recovery = dir.filePath(QStringLiteral("live-1.json"));
        write(recovery, "recording");
        write(recovery + QStringLiteral(".url"), "http://h:1/metrics\n");
        const QString target = dir.filePath(targetFolderExists ? QStringLiteral("saved.json") : QStringLiteral("gone/saved.json"));
        if (targetExists)
            write(target, "older");
        QCOMPARE(LiveRecovery::moveTo(recovery, target), moved);
        QCOMPARE(QFile::exists(recovery), !moved);
        QCOMPARE(QFile::exists(recovery + QStringLiteral(".url")), !moved);
        QCOMPARE(contents(target), moved ? QByteArray("recording") : QByteArray("(none)"));
    }
};

QTEST_GUILESS_MAIN(TestLiveRecovery)
#include "tst_liverecovery.moc"
