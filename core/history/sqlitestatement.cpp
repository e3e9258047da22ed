#include "sqlitestatement.h"

#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

namespace runlane {

SqliteStatement::SqliteStatement(const QSqlDatabase& db, const std::string& sql)
{
    const QVariant handle = db.isOpen() && db.driverName() == QLatin1String("QSQLITE") ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0) {
        m_error = "not an open SQLite connection";
        return;
    }
    m_db = *static_cast<sqlite3* const*>(handle.constData());
    if (!m_db) {
        m_error = "not an open SQLite connection";
        return;
    }
    if (sqlite3_prepare_v2(m_db, sql.c_str(), int(sql.size()), &m_statement, nullptr) != SQLITE_OK) {
        m_error = sqlite3_errmsg(m_db);
        sqlite3_finalize(m_statement);
        m_statement = nullptr;
    }
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

void SqliteStatement::bind(int parameter, std::int64_t value)
{
    sqlite3_bind_int64(m_statement, parameter, sqlite3_int64(value));
}

void SqliteStatement::bind(int parameter, double value)
{
    sqlite3_bind_double(m_statement, parameter, value);
}

bool SqliteStatement::step()
{
    const int result = sqlite3_step(m_statement);
    if (result != SQLITE_DONE)
        m_error = sqlite3_errmsg(m_db); // before the reset, which may say something else
    sqlite3_reset(m_statement);
    return result == SQLITE_DONE;
}

} // namespace runlane
