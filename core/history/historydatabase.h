#pragma once

#include <QString>

#include <string>

class QSqlDatabase;
class QSqlQuery;

namespace runlane {

// A history's database, through Qt SQL: an SQLite file (QSQLITE) or a
// PostgreSQL server (QPSQL, "postgresql://user@host:port/dbname", a Unix
// socket's directory as "?host=/path"; the password only from PGPASSWORD
// or ~/.pgpass, which libpq reads, never from the command line). Opening
// it brings its schema to kSchemaVersion (the version table, then each
// migration in one transaction), so every Runlane reads the same tables.
class HistoryDatabase
{
public:
    enum class Kind { SQLite, PostgreSQL };
    static constexpr int kSchemaVersion = 4;
    // The default history's file name, in defaultLocation()'s folder.
    static constexpr const char* kDefaultFile = "runlane-history.sqlite";

    // The history without --db: kDefaultFile in the user's data folder
    // (~/.local/share/Runlane on Linux), one for runlane-cli and the viewer
    // whatever folder they are started in. kDefaultFile in the current
    // folder where there is no data folder (no home).
    static std::string defaultLocation();
    // PostgreSQL for a postgresql:// (or postgres://) URL, SQLite otherwise.
    static Kind kindOf(const std::string& location);

    HistoryDatabase();
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase&) = delete;
    HistoryDatabase& operator=(const HistoryDatabase&) = delete;

    // `location` as --db takes it ("" is defaultLocation(), whose folder is
    // made if it is missing). Migrates up to
    // `schemaVersion` (a lower one only to write the tests' fixture of an
    // older schema). False with error() set.
    bool open(const std::string& location, int schemaVersion = kSchemaVersion);
    const std::string& error() const { return m_error; }
    Kind kind() const { return m_kind; }
    // The schema version the database had when opened (0: it was new).
    int versionFound() const { return m_versionFound; }

    QSqlDatabase connection() const;
    // One write transaction: on SQLite BEGIN IMMEDIATE, so that two
    // writers queue on the busy timeout instead of one failing when it
    // would turn its read lock into a write lock.
    bool begin();
    bool commit();
    void rollback();
    // Puts an SQLite file in WAL mode, waiting out another opener.
    bool enableWal();
    // Runs `sql`; false with error() set to what the database said.
    bool exec(QSqlQuery& query, const char* what);
    bool exec(const QString& sql);
    // Sets error() to `message`; returns false, for `return db.fail(...)`.
    bool fail(std::string message);

private:
    bool migrate(int target);

    QString m_name; // the Qt connection's name, unique per object
    Kind m_kind = Kind::SQLite;
    int m_versionFound = 0;
    std::string m_error;
};

} // namespace runlane
