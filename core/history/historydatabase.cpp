#include "historydatabase.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <atomic>
#include <utility>

namespace runlane {

namespace {

// The table of a run's values, one row per (run, label), as every version
// has it.
const char* const kRunValues =
    "run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
    " label_id BIGINT NOT NULL REFERENCES labels (id), async INTEGER NOT NULL DEFAULT 0,"
    " calls DOUBLE PRECISION NOT NULL, exec_time DOUBLE PRECISION NOT NULL, total_time DOUBLE PRECISION NOT NULL,"
    " wall_time DOUBLE PRECISION NOT NULL, p50 DOUBLE PRECISION NOT NULL, p90 DOUBLE PRECISION NOT NULL,"
    " p99 DOUBLE PRECISION NOT NULL, max_time DOUBLE PRECISION NOT NULL, wait_time DOUBLE PRECISION NOT NULL,"
    " PRIMARY KEY (run_id, label_id)";

// The migrations, in order: migration N brings a database from version
// N - 1 to N. "%ID%" is each engine's own auto-numbered key. Values are
// one row per (run, label) with a column per metric: a run of 5,000 labels
// is 5,000 rows, not 45,000.
const char* const kMigration1[] = {
    "CREATE TABLE runs (id %ID%, recorded_at TEXT NOT NULL, commit_sha TEXT NOT NULL DEFAULT '',"
    " branch TEXT NOT NULL DEFAULT '', host TEXT NOT NULL DEFAULT '', workload TEXT NOT NULL,"
    " tool_version TEXT NOT NULL DEFAULT '', source_name TEXT NOT NULL DEFAULT '',"
    " source_size BIGINT NOT NULL DEFAULT 0, format TEXT NOT NULL DEFAULT '', unit TEXT NOT NULL DEFAULT 'ns',"
    " busy DOUBLE PRECISION NOT NULL DEFAULT 0)",
    "CREATE INDEX runs_by_workload ON runs (workload, id)",
    ("CREATE TABLE labels (id %ID%, name TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL,"
     " UNIQUE (name, file, line))"),
    // "All labels of a run": the primary key; "one label over time": the
    // index by label (on SQLite until version 3).
    "CREATE TABLE run_values (%RUN_VALUES%)",
    "CREATE INDEX run_values_by_label ON run_values (label_id, run_id)",
};
// Version 2: where the profile is (to open it again), free-form tags, the
// run sets of several profiles recorded together, and labels by name.
const char* const kMigration2[] = {
    "ALTER TABLE runs ADD COLUMN source_path TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE runs ADD COLUMN tags TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE runs ADD COLUMN run_set BIGINT NOT NULL DEFAULT 0",
    "UPDATE runs SET run_set = id",
    "CREATE INDEX runs_by_set ON runs (workload, run_set)",
    "CREATE INDEX labels_by_name ON labels (name)",
};
// Version 3, SQLite only: a run's values no longer go into an index by
// label, and are stored in the primary key's order (WITHOUT ROWID: one
// tree, into which a run's rows append, instead of a table and a copy of
// its key). A run's entries in the index by label are spread over all of
// it, a page per label, so each record rewrote as many pages as the run
// had labels: 52-56 ms for a run of 5,001 labels into a history of 100
// such runs (9 ms now), and more as the history grows. SQLite's planner
// never used that index: "one label over time" takes the workload's runs
// from runs_by_workload and each run's row of the label by the primary
// key, with or without it. PostgreSQL's planner does use it (23 ms for
// one label over 10,000 runs against 71-130 ms without), so it keeps it:
// the tables and columns are the same on both, the indexes are each
// engine's. ("sqlite:" and "postgresql:" mark a statement of one engine.)
const char* const kMigration3[] = {
    "sqlite:CREATE TABLE run_values_v3 (%RUN_VALUES%) WITHOUT ROWID",
    // Columns by name, not *: the copy does not rely on the old order.
    ("sqlite:INSERT INTO run_values_v3 SELECT run_id, label_id, async, calls, exec_time, total_time, wall_time,"
     " p50, p90, p99, max_time, wait_time FROM run_values"),
    "sqlite:DROP TABLE run_values",
    "sqlite:ALTER TABLE run_values_v3 RENAME TO run_values",
};
// Version 4: the labels each workload has recorded, so that listing them
// (the History window's labels, the known labels a record starts from)
// reads that workload's few thousand rows instead of every value row of
// every run of it: 0.39 s for 107 runs of 5,001 labels, about 40 s for
// 10,000 runs. A record adds the labels new to its workload.
const char* const kMigration4[] = {
    ("sqlite:CREATE TABLE workload_labels (workload TEXT NOT NULL, label_id BIGINT NOT NULL REFERENCES labels (id),"
     " PRIMARY KEY (workload, label_id)) WITHOUT ROWID"),
    ("postgresql:CREATE TABLE workload_labels (workload TEXT NOT NULL,"
     " label_id BIGINT NOT NULL REFERENCES labels (id), PRIMARY KEY (workload, label_id))"),
    ("INSERT INTO workload_labels (workload, label_id) SELECT DISTINCT r.workload, v.label_id"
     " FROM run_values v JOIN runs r ON r.id = v.run_id"),
};
struct Migration {
    const char* const* begin;
    const char* const* end;
};
const Migration kMigrations[] = {
    {std::begin(kMigration1), std::end(kMigration1)},
    {std::begin(kMigration2), std::end(kMigration2)},
    {std::begin(kMigration3), std::end(kMigration3)},
    {std::begin(kMigration4), std::end(kMigration4)},
};
static_assert(std::size(kMigrations) == HistoryDatabase::kSchemaVersion);

} // namespace

HistoryDatabase::HistoryDatabase()
{
    static std::atomic<int> next{0};
    m_name = QStringLiteral("runlane-history-%1").arg(next++);
}

HistoryDatabase::~HistoryDatabase()
{
    if (!QSqlDatabase::contains(m_name))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

QSqlDatabase HistoryDatabase::connection() const
{
    return QSqlDatabase::database(m_name, false);
}

std::string HistoryDatabase::defaultLocation()
{
    // The generic folder, not AppDataLocation: that one is named after the
    // application, and runlane-cli and runlane must find the same file.
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (data.isEmpty())
        return kDefaultFile;
    return QDir(data).filePath(QStringLiteral("Runlane/") + QString::fromLatin1(kDefaultFile)).toStdString();
}

HistoryDatabase::Kind HistoryDatabase::kindOf(const std::string& location)
{
    const QUrl url(QString::fromStdString(location));
    return url.scheme() == QLatin1String("postgresql") || url.scheme() == QLatin1String("postgres") ? Kind::PostgreSQL
                                                                                                    : Kind::SQLite;
}

bool HistoryDatabase::open(const std::string& location, int schemaVersion)
{
    const std::string where = location.empty() ? defaultLocation() : location;
    // The data folder may not be there yet; a folder named in --db must be.
    if (location.empty() && !QDir().mkpath(QFileInfo(QString::fromStdString(where)).absolutePath())) {
        m_error = "cannot make the folder of the history " + where;
        return false;
    }
    const QUrl url(QString::fromStdString(where));
    m_kind = kindOf(where);
    const QString driver = m_kind == Kind::PostgreSQL ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        m_error = "the Qt SQL driver " + driver.toStdString() + " is not installed ("
            + (m_kind == Kind::PostgreSQL ? "libqt6sql6-psql" : "libqt6sql6-sqlite") + " on Debian)";
        return false;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, m_name);
    if (m_kind == Kind::PostgreSQL) {
        if (!url.isValid() || url.path().size() < 2 || !url.password().isEmpty()) {
            m_error = url.password().isEmpty()
                ? "bad PostgreSQL URL '" + where + "' (postgresql://user@host:port/dbname)"
                : std::string("no password in the URL: give it in PGPASSWORD or ~/.pgpass");
            return false;
        }
        db.setDatabaseName(url.path().mid(1));
        db.setUserName(url.userName());
        // ?host=/run/postgresql: a Unix socket's directory, as libpq takes it.
        const QString socketDir = QUrlQuery(url).queryItemValue(QStringLiteral("host"), QUrl::FullyDecoded);
        db.setHostName(socketDir.isEmpty() ? url.host() : socketDir);
        if (url.port() > 0)
            db.setPort(url.port());
    } else {
        db.setDatabaseName(QString::fromStdString(where));
        // A second recorder waits for the first one's transaction instead
        // of failing at once.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=60000"));
    }
    if (!db.open()) {
        m_error = "cannot open the history " + where + ": " + db.lastError().text().toStdString();
        return false;
    }
    if (m_kind == Kind::SQLite) {
        // WAL: readers never block the writer nor it them, and two
        // recorders take turns on the write lock (the busy timeout).
        // synchronous=NORMAL: in WAL mode a commit is not synced to disk
        // (the checkpoint is), so a power cut may lose the last runs
        // recorded, but never leaves half of one; a killed process loses
        // nothing. A sync per commit took longer than the rest of a record.
        if (!enableWal() || !exec(QStringLiteral("PRAGMA synchronous=NORMAL"))
            || !exec(QStringLiteral("PRAGMA foreign_keys=ON")))
            return false;
    }
    return migrate(schemaVersion);
}

bool HistoryDatabase::enableWal()
{
    // WAL is a property of the file, kept once set. Switching to it needs
    // the file to itself, and SQLite answers "database is locked" at once
    // there, without the busy handler, when another process is opening or
    // writing the same new file (two CI jobs recording at once). So: ask
    // first, and retry the switch for as long as the busy timeout.
    QSqlQuery query(connection());
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        if (query.exec(QStringLiteral("PRAGMA journal_mode")) && query.next()
            && query.value(0).toString().compare(QStringLiteral("wal"), Qt::CaseInsensitive) == 0)
            return true;
        query.finish();
        if (query.exec(QStringLiteral("PRAGMA journal_mode=WAL")))
            return true;
        if (waited.elapsed() >= 60000 || !query.lastError().text().contains(QStringLiteral("locked"), Qt::CaseInsensitive)) {
            m_error = "PRAGMA journal_mode=WAL: " + query.lastError().text().toStdString();
            return false;
        }
        query.finish();
        QThread::msleep(50);
    }
}

bool HistoryDatabase::exec(QSqlQuery& query, const char* what)
{
    if (query.exec())
        return true;
    m_error = std::string(what) + ": " + query.lastError().text().toStdString();
    return false;
}

bool HistoryDatabase::exec(const QString& sql)
{
    QSqlQuery query(connection());
    if (query.exec(sql))
        return true;
    m_error = sql.left(60).toStdString() + ": " + query.lastError().text().toStdString();
    return false;
}

bool HistoryDatabase::fail(std::string message)
{
    m_error = std::move(message);
    return false;
}

bool HistoryDatabase::begin()
{
    return exec(m_kind == Kind::SQLite ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN"));
}

bool HistoryDatabase::commit()
{
    return exec(QStringLiteral("COMMIT"));
}

void HistoryDatabase::rollback()
{
    QSqlQuery query(connection());
    query.exec(QStringLiteral("ROLLBACK"));
}

bool HistoryDatabase::migrate(int target)
{
    if (!begin())
        return false;
    // Two processes opening a new database at once: one migrates, the
    // other waits (SQLite: the write lock of BEGIN IMMEDIATE).
    if (m_kind == Kind::PostgreSQL && !exec(QStringLiteral("SELECT pg_advisory_xact_lock(7146723)"))) {
        rollback();
        return false;
    }
    if (!exec(QStringLiteral("CREATE TABLE IF NOT EXISTS runlane_schema (version INTEGER NOT NULL)"))) {
        rollback();
        return false;
    }
    QSqlQuery version(connection());
    if (!version.exec(QStringLiteral("SELECT version FROM runlane_schema"))) {
        m_error = "reading the schema version: " + version.lastError().text().toStdString();
        rollback();
        return false;
    }
    const bool hasRow = version.next();
    m_versionFound = hasRow ? version.value(0).toInt() : 0;
    version.finish();
    if (m_versionFound > kSchemaVersion) {
        m_error = "the history has schema version " + std::to_string(m_versionFound) + ", newer than this Runlane's "
            + std::to_string(kSchemaVersion);
        rollback();
        return false;
    }
    const QString id = m_kind == Kind::SQLite ? QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT")
                                              : QStringLiteral("BIGSERIAL PRIMARY KEY");
    const QLatin1String mine = m_kind == Kind::SQLite ? QLatin1String("sqlite:") : QLatin1String("postgresql:");
    const QLatin1String other = m_kind == Kind::SQLite ? QLatin1String("postgresql:") : QLatin1String("sqlite:");
    for (int v = m_versionFound + 1; v <= target; ++v) {
        for (const char* const* sql = kMigrations[v - 1].begin; sql != kMigrations[v - 1].end; ++sql) {
            QString statement = QString::fromLatin1(*sql);
            if (statement.startsWith(other))
                continue;
            if (statement.startsWith(mine))
                statement.remove(0, mine.size());
            statement.replace(QLatin1String("%ID%"), id)
                .replace(QLatin1String("%RUN_VALUES%"), QLatin1String(kRunValues));
            if (!exec(statement)) {
                rollback();
                return false;
            }
        }
    }
    if (target > m_versionFound) {
        const QString set = hasRow ? QStringLiteral("UPDATE runlane_schema SET version = %1")
                                   : QStringLiteral("INSERT INTO runlane_schema (version) VALUES (%1)");
        if (!exec(set.arg(target))) {
            rollback();
            return false;
        }
    }
    return commit();
}

} // namespace runlane
