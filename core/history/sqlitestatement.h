#pragma once

#include <QSqlDatabase>

#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace runlane {

// A statement prepared on the SQLite connection under a QSqlDatabase (its
// driver's handle, as QSqlDriver::handle documents), for the one write of
// thousands of rows: a run's label values. Binding a value through
// QSqlQuery costs about what SQLite's storing of it does (a QVariant per
// value, checked and converted on every exec); bound here it costs
// nothing beside it, and the row joins the transaction Qt began on the same
// connection. Everything else goes through Qt SQL.
class SqliteStatement
{
public:
    // Prepares `sql` on `db`'s connection; ok() false with error() set if
    // `db` is not an open QSQLITE connection or `sql` does not compile.
    SqliteStatement(const QSqlDatabase& db, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    bool ok() const { return m_statement != nullptr; }
    const std::string& error() const { return m_error; }

    // Parameters count from 1, as in SQLite.
    void bind(int parameter, std::int64_t value);
    void bind(int parameter, double value);
    // Runs the statement with the values bound, then resets it for the
    // next row (the bindings stay until bound again). False with error() set.
    bool step();

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_statement = nullptr;
    std::string m_error;
};

} // namespace runlane
