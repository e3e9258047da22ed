#include "historydatabase.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "historytestsupport.h"
#include "pgserver.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlane;
using runlane::test::rowsOf;

namespace {

RunSet::Run runFrom(const std::string& source)
{
    RunSet::Run run;
    run.source = source;
    run.format = "Chrome trace";
    run.busy = 700;
    return run;
}

// The value of `metric` for `name` in run `id`, -1 if absent.
double valueOf(HistoryStore& store, std::int64_t id, const std::string& name, CompareMetric metric)
{
    HistoryStore::Values values;
    if (!store.values(id, values))
        return -2;
    for (const auto& [label, v] : values) {
        if (label.key.name == name)
            return v[std::size_t(metric)];
    }
    return -1;
}

long long count(HistoryDatabase& db, const QString& table)
{
    QSqlQuery q(db.connection());
    return q.exec(QStringLiteral("SELECT count(*) FROM ") + table) && q.next() ? q.value(0).toLongLong() : -1;
}

} // namespace

// The recorder opens the history on a thread of its own while the caller
// loads (`history record`); what it writes is what HistoryStore writes.
class TestHistoryRecorder : public QObject
{
    Q_OBJECT

private:
    test::HistoryBackends m_backends;

private Q_SLOTS:
    void initTestCase() { m_backends.initTestCase(); }
    void cleanupTestCase() { m_backends.cleanupTestCase(); }
    void init() { m_backends.init(); }

    // Two run sets, the second with one label more: each lands whole, the
    // known labels are not added again, async and every value kept.
    void records_data() { test::HistoryBackends::addRows(); }
    void records()
    {
        const std::string location = m_backends.newHistory().toStdString();
        QVERIFY(!location.empty());
        std::vector<HistoryRun> first(2);
        {
            HistoryRecorder recorder(location, "server");
            RunSet set;
            HistoryStore::Values rows = rowsOf({{"poll", 400}, {"parse", 500}});
            rows[1].first.async = true;
            set.add(runFrom("a.json"), rows);
            set.add(runFrom("b.json"), rowsOf({{"poll", 410}}));
            for (HistoryRun& run : first)
                run.workload = "server";
            QVERIFY(recorder.opened());
            QVERIFY2(recorder.record(set, first), recorder.error().c_str());
            QCOMPARE(first[0].id, 1);
            QCOMPARE(first[1].id, 2);
            QCOMPARE(first[1].runSet, 1);
            QVERIFY(!recorder.record(set, first));
            QCOMPARE(recorder.error(), std::string("this recorder has recorded already"));
        }
        std::vector<HistoryRun> second(1);
        second[0].workload = "server";
        {
            HistoryRecorder recorder(location, "server");
            RunSet set;
            set.add(runFrom("c.json"), rowsOf({{"poll", 420}, {"parse", 480}, {"accept", 7}}));
            QVERIFY2(recorder.record(set, second), recorder.error().c_str());
            QCOMPARE(second[0].id, 3);
        }
        HistoryDatabase db;
        QVERIFY2(db.open(location), db.error().c_str());
        HistoryStore store(db);
        QCOMPARE(count(db, QStringLiteral("labels")), 3LL);
        QCOMPARE(count(db, QStringLiteral("run_values")), 6LL);
        QCOMPARE(valueOf(store, 1, "poll", CompareMetric::Exec), 400.0);
        QCOMPARE(valueOf(store, 1, "parse", CompareMetric::P99), 500.0);
        QCOMPARE(valueOf(store, 2, "poll", CompareMetric::Exec), 410.0);
        QCOMPARE(valueOf(store, 2, "parse", CompareMetric::Exec), -1.0);
        QCOMPARE(valueOf(store, 3, "accept", CompareMetric::Calls), 10.0);
        QCOMPARE(valueOf(store, 3, "parse", CompareMetric::Wait), 480.0);
        HistoryStore::Values values;
        QVERIFY(store.values(1, values));
        QCOMPARE(values.size(), std::size_t(2));
        for (const auto& [label, v] : values)
            QCOMPARE(label.async, label.key.name == "parse");
        std::vector<HistoryRun> listed;
        QVERIFY(store.runs("server", 0, listed));
        QCOMPARE(listed.size(), std::size_t(3));
        QCOMPARE(listed[2].format, std::string("Chrome trace"));
        QCOMPARE(listed[2].busy, 700.0);
    }

    // A history that cannot be opened: opened() and record() say why, in
    // the database's words, and nothing waits forever.
    void openFailure_data()
    {
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("error");
        QTest::newRow("no such folder") << "/nonexistent/dir/history.sqlite" << "cannot open the history";
        QTest::newRow("password in the URL") << "postgresql://user:secret@localhost/db"
                                             << "no password in the URL: give it in PGPASSWORD or ~/.pgpass";
    }
    void openFailure()
    {
        QFETCH(QString, location);
        QFETCH(QString, error);
        HistoryRecorder recorder(location.toStdString(), "server");
        QVERIFY(!recorder.opened());
        QVERIFY2(QString::fromStdString(recorder.error()).startsWith(error), recorder.error().c_str());
        RunSet set;
        set.add(runFrom("a.json"), rowsOf({{"poll", 1}}));
        std::vector<HistoryRun> runs(1);
        runs[0].workload = "server";
        QVERIFY(!recorder.record(set, runs));
        QVERIFY(QString::fromStdString(recorder.error()).startsWith(error));
    }

    // Made and dropped at once (a profile that failed to load): the
    // thread finishes opening and ends; the history exists, empty.
    void droppedUnused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.sqlite"));
        {
            HistoryRecorder recorder(path.toStdString(), "server");
        }
        HistoryDatabase db;
        QVERIFY2(db.open(path.toStdString()), db.error().c_str());
        QCOMPARE(db.versionFound(), HistoryDatabase::kSchemaVersion);
        QCOMPARE(count(db, QStringLiteral("runs")), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestHistoryRecorder)
#include "tst_historyrecorder.moc"
