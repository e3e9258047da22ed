#include "historycheck.h"
#include "historydatabase.h"
#include "historyjsonlines.h"
#include "historystore.h"
#include "noisethreshold.h"
#include "historytestsupport.h"
#include "pgserver.h"
#include "testsupport.h"

#include <QFileInfo>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <sstream>

using namespace runlane;
using runlane::test::dataPath;
using runlane::test::rowsOf;

namespace {

// Seeded: a uniform draw in [-1, 1) (the tests' own generator, so that the
// runs are the same with every standard library).
class Noise
{
public:
    explicit Noise(std::uint64_t seed) : m_state(seed) {}
    double next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(m_state >> 11) / double(1ULL << 52) - 1.0;
    }

private:
    std::uint64_t m_state;
};

const Comparison::LabelResult* labelNamed(const Comparison& c, const std::string& name)
{
    for (const Comparison::LabelResult& label : c.labels()) {
        if (label.key.name == name)
            return &label;
    }
    return nullptr;
}

bool runSql(HistoryDatabase& db, const QString& file)
{
    const QString text = QString::fromUtf8(test::readAll(file));
    for (QString statement : text.split(QLatin1Char(';'))) {
        QStringList lines;
        for (const QString& line : statement.split(QLatin1Char('\n'))) {
            if (!line.trimmed().startsWith(QLatin1String("--")))
                lines << line;
        }
        statement = lines.join(QLatin1Char('\n')).trimmed();
        if (!statement.isEmpty() && !db.exec(statement))
            return false;
    }
    return true;
}

// How run_values is stored since schema version 3: its indexes besides the
// primary key (on SQLite none: an index by label cost a page per label at
// every record and its planner never used it; PostgreSQL's does), and on
// SQLite the table's own SQL, which must end in WITHOUT ROWID (the rows
// kept in the key's order, with no second tree).
QStringList valueIndexes(const HistoryDatabase& db)
{
    QSqlQuery q(db.connection());
    q.exec(db.kind() == HistoryDatabase::Kind::SQLite
               ? QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'run_values'")
               : QStringLiteral("SELECT indexname FROM pg_indexes WHERE tablename = 'run_values'"
                                " AND indexname <> 'run_values_pkey'"));
    QStringList names;
    while (q.next())
        names << q.value(0).toString();
    return names;
}

QStringList expectedValueIndexes(const HistoryDatabase& db)
{
    if (db.kind() == HistoryDatabase::Kind::SQLite)
        return {};
    return {QStringLiteral("run_values_by_label")};
}

bool storedInKeyOrder(const HistoryDatabase& db)
{
    if (db.kind() != HistoryDatabase::Kind::SQLite)
        return true; // PostgreSQL has heaps only
    QSqlQuery q(db.connection());
    return q.exec(QStringLiteral("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'run_values'")) && q.next()
        && q.value(0).toString().endsWith(QLatin1String("WITHOUT ROWID"));
}

} // namespace

class TestHistoryStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    test::HistoryBackends m_backends;
    int m_databases = 0;

    std::string newHistory() { return m_backends.newHistory().toStdString(); }

    static bool record(HistoryStore& store, const std::string& workload, const HistoryStore::Values& values,
                       const std::string& commit = {})
    {
        HistoryRun run;
        run.workload = workload;
        run.commit = commit;
        return store.record(run, values);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_backends.initTestCase();
    }
    void cleanupTestCase() { m_backends.cleanupTestCase(); }
    void init() { m_backends.init(); }

    void recordAndRead_data() { test::HistoryBackends::addRows(); }
    void recordAndRead()
    {
        const std::string location = newHistory();
        HistoryDatabase db;
        QVERIFY2(db.open(location), db.error().c_str());
        QCOMPARE(db.versionFound(), 0);
        QCOMPARE(valueIndexes(db), expectedValueIndexes(db));
        QVERIFY(storedInKeyOrder(db));
        HistoryStore store(db);
        // Two profiles recorded together: one run set, one transaction.
        RunSet set;
        RunSet::Run run;
        run.source = "a.json";
        run.format = "Chronos future log";
        run.busy = 900;
        set.add(run, rowsOf({{"poll", 400}, {"parse", 500}}));
        set.add(run, rowsOf({{"poll", 410}}));
        HistoryRun meta;
        meta.workload = "server";
        meta.commit = "abc123";
        meta.branch = "main";
        meta.host = "ci-7";
        meta.toolVersion = "0.1.0";
        meta.sourceName = "a.json";
        meta.sourceSize = 1234;
        meta.sourcePath = "/data/a.json";
        meta.tags = {{"os", "linux"}, {"cores", "2=two"}};
        std::vector<HistoryRun> runs(2, meta);
        QVERIFY2(store.record(set, runs), store.error().c_str());
        QCOMPARE(runs[0].id, 1);
        QCOMPARE(runs[1].id, 2);
        QCOMPARE(runs[0].runSet, 1);
        QCOMPARE(runs[1].runSet, 1);
        QVERIFY(record(store, "server", rowsOf({{"poll", 420}, {"parse", 480}})));
        QVERIFY(record(store, "client", rowsOf({{"poll", 1}})));

        std::vector<HistoryRun> listed;
        QVERIFY(store.runs("server", 0, listed));
        QCOMPARE(listed.size(), std::size_t(3));
        QCOMPARE(listed[0].commit, std::string("abc123"));
        QCOMPARE(listed[0].branch, std::string("main"));
        QCOMPARE(listed[0].host, std::string("ci-7"));
        QCOMPARE(listed[0].sourceSize, 1234);
        QCOMPARE(listed[0].sourcePath, std::string("/data/a.json"));
        QCOMPARE(listed[0].format, std::string("Chronos future log"));
        QCOMPARE(listed[0].busy, 900.0);
        QCOMPARE(listed[0].tags, meta.tags);
        QCOMPARE(listed[2].runSet, 3);
        QVERIFY(store.runs("", 2, listed));
        QCOMPARE(listed.size(), std::size_t(2));
        QCOMPARE(listed[0].id, 3);
        QCOMPARE(listed[1].workload, std::string("client"));

        HistoryStore::Values values;
        QVERIFY(store.values(2, values));
        QCOMPARE(values.size(), std::size_t(1)); // parse is absent from run 2
        QCOMPARE(values[0].first.key, (LabelKey{"poll", "app.rs", 1}));
        QCOMPARE(values[0].second[std::size_t(CompareMetric::Exec)], 410.0);
        QCOMPARE(values[0].second[std::size_t(CompareMetric::Calls)], 10.0);

        std::vector<HistoryStore::Point> points;
        QVERIFY(store.series("server", "poll", CompareMetric::Exec, 0, points));
        QCOMPARE(points.size(), std::size_t(3));
        QCOMPARE(points[0].value, 400.0);
        QCOMPARE(points[1].value, 410.0);
        QCOMPARE(points[2].value, 420.0);
        QCOMPARE(points[2].run.id, 3);
        QVERIFY(store.series("server", "poll", CompareMetric::Exec, 2, points));
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0].run.id, 2);
        QVERIFY(store.series("server", "nothing", CompareMetric::Exec, 0, points));
        QVERIFY(points.empty());

        // Opened again: nothing to migrate.
        HistoryDatabase again;
        QVERIFY2(again.open(location), again.error().c_str());
        QCOMPARE(again.versionFound(), HistoryDatabase::kSchemaVersion);
        if (QString::fromStdString(location).startsWith(QLatin1String("postgresql://"))) {
            // No host but the socket's directory: postgresql://user@:port/db?host=/dir.
            HistoryDatabase socket;
            const std::string url = QString::fromStdString(location).replace(QLatin1String("@localhost:"), QLatin1String("@:")).toStdString();
            QVERIFY2(socket.open(url), socket.error().c_str());
            HistoryStore viaSocket(socket);
            QVERIFY(viaSocket.runs("server", 0, listed));
            QCOMPARE(listed.size(), std::size_t(3));
        }
    }

    // The labels a workload has recorded, in any of its runs, by name
    // (workload_labels, since schema version 4): from the store that
    // recorded them and from another connection, which then adds one.
    void labelNamesOfWorkload_data() { test::HistoryBackends::addRows(); }
    void labelNamesOfWorkload()
    {
        const std::string location = newHistory();
        HistoryDatabase db;
        QVERIFY2(db.open(location), db.error().c_str());
        HistoryStore store(db);
        QVERIFY(record(store, "server", rowsOf({{"poll", 1}, {"parse", 2}})));
        QVERIFY(record(store, "server", rowsOf({{"accept", 3}, {"poll", 4}}))); // poll at line 2: another label
        QVERIFY(record(store, "client", rowsOf({{"idle", 5}, {"poll", 6}})));
        QVERIFY(record(store, "server", rowsOf({{"poll", 7}})));
        using Names = std::vector<std::string>;
        Names names;
        QVERIFY(store.labelNames("server", names));
        QCOMPARE(names, (Names{"accept", "parse", "poll"}));
        QVERIFY(store.labelNames("client", names));
        QCOMPARE(names, (Names{"idle", "poll"}));
        QVERIFY(store.labelNames("nobody", names));
        QVERIFY(names.empty());

        HistoryDatabase other;
        QVERIFY2(other.open(location), other.error().c_str());
        HistoryStore second(other);
        QVERIFY(record(second, "server", rowsOf({{"late", 8}})));
        QVERIFY(record(second, "client", rowsOf({{"poll", 9}})));
        QVERIFY(store.labelNames("server", names));
        QCOMPARE(names, (Names{"accept", "late", "parse", "poll"}));
        QVERIFY(store.labelNames("client", names));
        QCOMPARE(names, (Names{"idle", "poll"}));
        QSqlQuery rows(db.connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT count(*) FROM workload_labels")) && rows.next());
        // server: poll:1, parse:2, accept:1, poll:2, late:1; client: idle:1, poll:2, poll:1
        QCOMPARE(rows.value(0).toInt(), 8);
    }

    // The History window's list: heaviest first in the workload's latest
    // run (two labels of one name summed: poll 4 + 5), then the labels that
    // run lacks by name; another workload's later run does not count.
    void labelNamesByWeight_data() { test::HistoryBackends::addRows(); }
    void labelNamesByWeight()
    {
        HistoryDatabase db;
        QVERIFY2(db.open(newHistory()), db.error().c_str());
        HistoryStore store(db);
        QVERIFY(record(store, "server", rowsOf({{"zeta", 100}, {"old", 90}, {"accept", 1}})));
        QVERIFY(record(store, "server", rowsOf({{"accept", 3}, {"poll", 4}, {"poll", 5}, {"parse", 8}, {"zeta", 2}})));
        QVERIFY(record(store, "client", rowsOf({{"zeta", 1}, {"idle", 50}})));
        using Names = std::vector<std::string>;
        Names names;
        QVERIFY2(store.labelNamesByWeight("server", CompareMetric::Exec, names), store.error().c_str());
        QCOMPARE(names, (Names{"poll", "parse", "accept", "zeta", "old"}));
        // Calls are 10 a label: a tie, by name.
        QVERIFY(store.labelNamesByWeight("server", CompareMetric::Calls, names));
        QCOMPARE(names, (Names{"poll", "accept", "parse", "zeta", "old"}));
        QVERIFY(store.labelNamesByWeight("client", CompareMetric::Exec, names));
        QCOMPARE(names, (Names{"idle", "zeta"}));
        QVERIFY(store.labelNamesByWeight("nobody", CompareMetric::Exec, names));
        QVERIFY(names.empty());
    }

    // Without --db: runlane-history.sqlite in the data folder, which open()
    // makes, never in the current folder.
    void defaultLocation()
    {
#if !defined(Q_OS_LINUX)
        QSKIP("the data folder is XDG_DATA_HOME on Linux only");
#endif
        QTemporaryDir home;
        const QByteArray saved = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toLocal8Bit());
        const QString expected = home.filePath(QStringLiteral("Runlane/runlane-history.sqlite"));
        const std::string location = HistoryDatabase::defaultLocation();
        {
            HistoryDatabase db;
            const bool opened = db.open("");
            if (saved.isNull())
                qunsetenv("XDG_DATA_HOME");
            else
                qputenv("XDG_DATA_HOME", saved);
            QVERIFY2(opened, db.error().c_str());
        }
        QCOMPARE(QString::fromStdString(location), expected);
        QVERIFY(QFileInfo(expected).isFile());
        QVERIFY(!QFileInfo::exists(QString::fromLatin1(HistoryDatabase::kDefaultFile)));
        QCOMPARE(HistoryDatabase::kindOf("postgres://u@h/db"), HistoryDatabase::Kind::PostgreSQL);
        QCOMPARE(HistoryDatabase::kindOf("postgresql://u@h/db"), HistoryDatabase::Kind::PostgreSQL);
        QCOMPARE(HistoryDatabase::kindOf("postgresql.sqlite"), HistoryDatabase::Kind::SQLite);
        QCOMPARE(HistoryDatabase::kindOf(""), HistoryDatabase::Kind::SQLite);
    }

    // SQLite takes a run's rows 32 to a statement, then one at a time:
    // every count around those edges reads back exactly, label by label
    // and value by value, in a new history and in one that knows the
    // labels already.
    void manyLabels_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("labels");
        for (const int labels : {1, 31, 32, 33, 64, 70, 5001})
            QTest::addRow("sqlite, %d labels", labels) << QStringLiteral("sqlite") << labels;
    }
    void manyLabels()
    {
        QFETCH(int, labels);
        HistoryDatabase db;
        QVERIFY2(db.open(newHistory()), db.error().c_str());
        HistoryStore store(db);
        auto valuesOf = [](int label, int run) {
            CompareMetrics::Values v{};
            for (std::size_t m = 0; m < v.size(); ++m)
                v[m] = 1000.0 * label + 10.0 * double(m) + run + 0.25;
            return v;
        };
        for (int run = 1; run <= 2; ++run) {
            HistoryStore::Values values;
            for (int l = 0; l < labels; ++l) {
                RunSet::Label label;
                label.key = LabelKey{"f" + std::to_string(l), "work.nim", l};
                label.async = l % 3 == 0;
                values.emplace_back(std::move(label), valuesOf(l, run));
            }
            QVERIFY2(record(store, "w", values), store.error().c_str());
        }
        for (int run = 1; run <= 2; ++run) {
            HistoryStore::Values read;
            QVERIFY(store.values(run, read));
            QCOMPARE(read.size(), std::size_t(labels));
            std::sort(read.begin(), read.end(), [](const auto& a, const auto& b) { return a.first.key.line < b.first.key.line; });
            for (int l = 0; l < labels; ++l) {
                QCOMPARE(read[std::size_t(l)].first.key, (LabelKey{"f" + std::to_string(l), "work.nim", l}));
                QCOMPARE(read[std::size_t(l)].first.async, l % 3 == 0);
                QVERIFY(read[std::size_t(l)].second == valuesOf(l, run));
            }
        }
    }

    // 30 seeded runs of 12 labels, 3 % noise each (but `noisy`, 12 %), and
    // a planted step of +15 % in `step` from run 25 on: checking run 25
    // flags exactly `step`; the noisy label's threshold is wider.
    void stepChange_data() { test::HistoryBackends::addRows(); }
    void stepChange()
    {
        HistoryDatabase db;
        QVERIFY2(db.open(newHistory()), db.error().c_str());
        HistoryStore store(db);
        Noise noise(20261125);
        std::map<std::string, std::vector<double>> series;
        for (int r = 1; r <= 30; ++r) {
            std::vector<std::pair<std::string, double>> execs;
            for (int l = 0; l < 10; ++l)
                execs.emplace_back("f" + std::to_string(l), std::round((100'000 + 10'000 * l) * (1 + 0.03 * noise.next())));
            execs.emplace_back("noisy", std::round(200'000 * (1 + 0.12 * noise.next())));
            execs.emplace_back("step", std::round(300'000 * (1 + 0.03 * noise.next()) * (r >= 25 ? 1.15 : 1.0)));
            for (const auto& [name, exec] : execs)
                series[name].push_back(exec);
            QVERIFY2(record(store, "w", rowsOf(execs), "c" + std::to_string(r)), store.error().c_str());
        }
        HistoryCheck check;
        std::string error;
        bool notFound = true;
        QVERIFY2(HistoryCheck::compute(store, {"w", 25, 30, CompareMetric::Exec}, check, error, notFound), error.c_str());
        QCOMPARE(check.window().size(), std::size_t(24));
        QCOMPARE(check.checked().front().commit, std::string("c25"));
        const Comparison& c = check.comparison();
        QCOMPARE(c.count(Comparison::Verdict::Regressed), std::size_t(1));
        QCOMPARE(c.count(Comparison::Verdict::Improved), std::size_t(0));
        QCOMPARE(c.count(Comparison::Verdict::Unchanged), std::size_t(11));
        QCOMPARE(c.labels().front().key.name, std::string("step"));
        QCOMPARE(c.labels().front().verdict, Comparison::Verdict::Regressed);
        // Each threshold is that of the label's own 24 runs before run 25.
        for (const auto& [name, values] : series) {
            const Comparison::LabelResult* label = labelNamed(c, name);
            QVERIFY(label);
            const std::vector<double> window(values.begin(), values.begin() + 24);
            QCOMPARE(*label->metrics.front().threshold, NoiseThreshold::of(window));
            QCOMPARE(label->metrics.front().next.median, values[24]);
        }
        const double noisy = *labelNamed(c, "noisy")->metrics.front().threshold;
        for (int l = 0; l < 10; ++l)
            QVERIFY(noisy > 2 * *labelNamed(c, "f" + std::to_string(l))->metrics.front().threshold);
        // The run before the step: nothing.
        QVERIFY(HistoryCheck::compute(store, {"w", 24, 30, CompareMetric::Exec}, check, error, notFound));
        QCOMPARE(check.comparison().count(Comparison::Verdict::Regressed), std::size_t(0));
        // The latest run by default; a window of 5.
        QVERIFY(HistoryCheck::compute(store, {"w", std::nullopt, 5, CompareMetric::Exec}, check, error, notFound));
        QCOMPARE(check.checked().front().id, 30);
        QCOMPARE(check.window().size(), std::size_t(5));
        QCOMPARE(check.window().front().id, 25);
        // Not there: told apart from a database error.
        QVERIFY(!HistoryCheck::compute(store, {"w", 31, 30, CompareMetric::Exec}, check, error, notFound));
        QVERIFY(notFound);
        QVERIFY(!HistoryCheck::compute(store, {"nope", std::nullopt, 30, CompareMetric::Exec}, check, error, notFound));
        QVERIFY(notFound);
    }

    // Thresholds worked by hand (tst_noisethreshold's series): a label
    // jittering by 10 % gets 40 % and does not alarm at +24.5 %; a steady
    // one (1-3 %) gets 5 % and alarms at +6.6 %.
    void handThresholds_data() { test::HistoryBackends::addRows(); }
    void handThresholds()
    {
        HistoryDatabase db;
        QVERIFY2(db.open(newHistory()), db.error().c_str());
        HistoryStore store(db);
        const double steady[] = {1000, 1010, 989.8, 999.698, 969.70706, 989.1012012, 1060};
        const double jittery[] = {100, 110, 99, 99, 108.9, 108.9, 130};
        for (int r = 0; r < 7; ++r) {
            std::vector<std::pair<std::string, double>> execs{{"steady", steady[r]}, {"jittery", jittery[r]}};
            if (r == 6)
                execs.emplace_back("fresh", 5);
            QVERIFY(record(store, "w", rowsOf(execs)));
        }
        HistoryCheck check;
        std::string error;
        bool notFound = false;
        QVERIFY2(HistoryCheck::compute(store, {"w", std::nullopt, 30, CompareMetric::Exec}, check, error, notFound),
                 error.c_str());
        const Comparison& c = check.comparison();
        const Comparison::MetricResult& s = labelNamed(c, "steady")->metrics.front();
        // Changes 1 2 1 3 2 %: Q1 1 %, Q3 2 %: 2 + 3 × 1 = 5 %.
        QVERIFY(std::fabs(*s.threshold - 0.05) < 1e-12);
        QCOMPARE(s.base.median, (989.8 + 999.698) / 2);
        QCOMPARE(s.verdict, Comparison::Verdict::Regressed);
        const Comparison::MetricResult& j = labelNamed(c, "jittery")->metrics.front();
        // Changes 10 10 0 10 0 %: Q1 0, Q3 10 %: 10 + 3 × 10 = 40 %.
        QVERIFY(std::fabs(*j.threshold - 0.40) < 1e-12);
        QCOMPARE(j.base.median, (100 + 108.9) / 2);
        QCOMPARE(j.verdict, Comparison::Verdict::Unchanged);
        QCOMPARE(labelNamed(c, "fresh")->verdict, Comparison::Verdict::Added);
        // The first run has no history: every label is new.
        QVERIFY(HistoryCheck::compute(store, {"w", 1, 30, CompareMetric::Exec}, check, error, notFound));
        QCOMPARE(check.comparison().count(Comparison::Verdict::Added), std::size_t(2));
    }

    // A database of the first schema is migrated on open.
    void migration_data() { test::HistoryBackends::addRows(); }
    void migration()
    {
        QFETCH(QString, backend);
        std::string location;
        if (backend == QLatin1String("sqlite")) {
            const QString copy = m_dir.filePath(QStringLiteral("v1-%1.sqlite").arg(++m_databases));
            QVERIFY(QFile::copy(dataPath(QStringLiteral("history/schema-v1.sqlite")), copy));
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
            location = copy.toStdString();
        } else {
            location = newHistory();
            HistoryDatabase v1;
            QVERIFY2(v1.open(location, 1), v1.error().c_str());
            QVERIFY2(runSql(v1, dataPath(QStringLiteral("history/schema-v1.sql"))), v1.error().c_str());
        }
        HistoryDatabase db;
        QVERIFY2(db.open(location), db.error().c_str());
        QCOMPARE(db.versionFound(), 1);
        QCOMPARE(valueIndexes(db), expectedValueIndexes(db));
        QVERIFY(storedInKeyOrder(db));
        HistoryStore store(db);
        std::vector<std::string> names;
        QVERIFY(store.labelNames("server", names));
        QCOMPARE(names, (std::vector<std::string>{"accept", "parse"}));
        std::vector<HistoryRun> runs;
        QVERIFY(store.runs("server", 0, runs));
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[1].id, 2);
        QCOMPARE(runs[1].runSet, 2); // each old run is a set of its own
        QCOMPARE(runs[1].sourcePath, std::string());
        QVERIFY(runs[1].tags.empty());
        QCOMPARE(runs[1].commit, std::string("2222222222222222222222222222222222222222"));
        QCOMPARE(runs[1].sourceSize, 4100);
        HistoryStore::Values values;
        QVERIFY(store.values(1, values));
        QCOMPARE(values.size(), std::size_t(2));
        QCOMPARE(values[0].first.key, (LabelKey{"accept", "server.nim", 12}));
        QVERIFY(values[0].first.async);
        QCOMPARE(values[0].second[std::size_t(CompareMetric::Wait)], 30000.0);
        // And it takes new runs with the new columns.
        HistoryRun run;
        run.workload = "server";
        run.sourcePath = "/x/run3.json";
        run.tags = {{"k", "v"}};
        QVERIFY2(store.record(run, rowsOf({{"accept", 120000}})), store.error().c_str());
        QCOMPARE(run.id, 3);
        QVERIFY(store.runs("server", 1, runs));
        QCOMPARE(runs[0].sourcePath, std::string("/x/run3.json"));
        QCOMPARE(runs[0].tags, run.tags);
        HistoryDatabase again;
        QVERIFY(again.open(location));
        QCOMPARE(again.versionFound(), HistoryDatabase::kSchemaVersion);
    }

    // Export, import into an empty history of the row's backend (from
    // SQLite), export again: the same lines.
    void jsonLines_data() { test::HistoryBackends::addRows(); }
    void jsonLines()
    {
        QFETCH(QString, backend);
        HistoryDatabase source;
        QVERIFY(source.open(m_dir.filePath(QStringLiteral("source%1.sqlite").arg(++m_databases)).toStdString()));
        HistoryStore from(source);
        RunSet set;
        set.add(RunSet::Run{}, rowsOf({{"a", 1}, {"b\"quoted\"", 2}}));
        set.add(RunSet::Run{}, rowsOf({{"a", 3}}));
        HistoryRun meta;
        meta.workload = "w";
        meta.tags = {{"x", "1"}};
        std::vector<HistoryRun> runs(2, meta);
        QVERIFY(from.record(set, runs));
        QVERIFY(record(from, "w", rowsOf({{"a", 4}})));
        std::ostringstream exported;
        std::string error;
        QVERIFY2(HistoryJsonLines::write(from, exported, "0.1.0", error), error.c_str());
        const std::string text = exported.str();
        QCOMPARE(std::count(text.begin(), text.end(), '\n'), 4);

        HistoryDatabase target;
        QVERIFY(target.open(newHistory()));
        HistoryStore to(target);
        std::istringstream in(exported.str());
        std::size_t imported = 0;
        QVERIFY2(HistoryJsonLines::read(to, in, imported, error), error.c_str());
        QCOMPARE(imported, std::size_t(3));
        std::ostringstream again;
        QVERIFY(HistoryJsonLines::write(to, again, "0.1.0", error));
        QCOMPARE(again.str(), exported.str());

        std::istringstream bad("{\"not\": 1}\n");
        QVERIFY(!HistoryJsonLines::read(to, bad, imported, error));
        QCOMPARE(error, std::string("line 1: not a Runlane history export (version 1)"));
    }

    void badLocations()
    {
        HistoryDatabase db;
        QVERIFY(!db.open("postgresql://user:secret@localhost/db"));
        QCOMPARE(db.error(), std::string("no password in the URL: give it in PGPASSWORD or ~/.pgpass"));
        HistoryDatabase noName;
        QVERIFY(!noName.open("postgresql://user@localhost"));
        QVERIFY(QString::fromStdString(noName.error()).startsWith(QLatin1String("bad PostgreSQL URL")));
        HistoryDatabase nowhere;
        QVERIFY(!nowhere.open("/nonexistent/dir/history.sqlite"));
        QVERIFY(QString::fromStdString(nowhere.error()).startsWith(QLatin1String("cannot open the history")));
    }

    // Makes tests/data/history/schema-v1.sqlite (README.md there); does
    // nothing unless asked.
    void writeFixture()
    {
        const QByteArray path = qgetenv("RUNLANE_WRITE_HISTORY_FIXTURE");
        if (path.isEmpty())
            QSKIP("RUNLANE_WRITE_HISTORY_FIXTURE is not set");
        QFile::remove(QString::fromLocal8Bit(path));
        {
            HistoryDatabase db;
            QVERIFY2(db.open(path.toStdString(), 1), db.error().c_str());
            QVERIFY2(runSql(db, dataPath(QStringLiteral("history/schema-v1.sql"))), db.error().c_str());
            // One file, no WAL beside it.
            QVERIFY(db.exec(QStringLiteral("PRAGMA journal_mode=DELETE")));
        }
    }
};

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
