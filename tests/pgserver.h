#pragma once

// A throwaway PostgreSQL cluster for the history tests: initdb and pg_ctl
// (Debian's postgresql package) on a temporary directory, listening only on
// a Unix socket in that directory, stopped and removed at the end. No
// mocks: the tests talk to a real server. initdb refuses to run as root,
// so as root (CI) the cluster is made and run by the postgres user.
// RUNLANE_PG_BINDIR picks another PostgreSQL's programs (default: Debian
// 12's, /usr/lib/postgresql/15/bin).

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace runlane::test {

class PgServer
{
public:
    static QString binDir() { return qEnvironmentVariable("RUNLANE_PG_BINDIR", QStringLiteral("/usr/lib/postgresql/15/bin")); }
    static bool installed() { return QFile::exists(binDir() + QStringLiteral("/initdb")); }
    // CI (CI=true) runs every backend: there a missing server fails the
    // test, as a skip would pass it with its postgresql rows never run.
    static bool required() { return qgetenv("CI") == "true"; }

    ~PgServer() { stop(); }

    // False with `error` set.
    bool start(QString& error)
    {
        if (!m_dir.isValid()) {
            error = QStringLiteral("no temporary directory");
            return false;
        }
        if (geteuid() == 0) {
            // The postgres user must own the directory it runs in.
            if (!run({QStringLiteral("chown"), QStringLiteral("postgres:postgres"), m_dir.path()}, false, error))
                return false;
        }
        // The port only names the socket file: no TCP (listen_addresses '').
        const QString port = QString::number(40000 + QCoreApplication::applicationPid() % 20000);
        m_port = port;
        if (!run({binDir() + QStringLiteral("/initdb"), QStringLiteral("-D"), dataDir(), QStringLiteral("-U"), user(),
                  QStringLiteral("--auth=trust"), QStringLiteral("--no-sync"), QStringLiteral("-E"), QStringLiteral("UTF8")},
                 true, error))
            return false;
        if (!run({binDir() + QStringLiteral("/pg_ctl"), QStringLiteral("-D"), dataDir(), QStringLiteral("-l"),
                  m_dir.filePath(QStringLiteral("log")), QStringLiteral("-w"), QStringLiteral("-o"),
                  QStringLiteral("-k %1 -c listen_addresses='' -p %2 -c fsync=off").arg(m_dir.path(), port),
                  QStringLiteral("start")},
                 true, error))
            return false;
        m_running = true;
        return true;
    }

    void stop()
    {
        if (!m_running)
            return;
        m_running = false;
        QString error;
        run({binDir() + QStringLiteral("/pg_ctl"), QStringLiteral("-D"), dataDir(), QStringLiteral("-m"),
             QStringLiteral("fast"), QStringLiteral("-w"), QStringLiteral("stop")},
            true, error);
    }

    // A new empty database on the server; its --db URL.
    QString createDatabase(const QString& name, QString& error)
    {
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("pgserver-admin"));
            db.setHostName(m_dir.path());
            db.setPort(m_port.toInt());
            db.setUserName(user());
            db.setDatabaseName(QStringLiteral("postgres"));
            if (!db.open()) {
                error = db.lastError().text();
            } else {
                QSqlQuery q(db);
                if (!q.exec(QStringLiteral("CREATE DATABASE ") + name))
                    error = q.lastError().text();
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("pgserver-admin"));
        return url(name);
    }

    QString url(const QString& database) const
    {
        return QStringLiteral("postgresql://%1@localhost:%2/%3?host=%4").arg(user(), m_port, database, m_dir.path());
    }

private:
    static QString user() { return QStringLiteral("runlane"); }
    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }

    bool run(QStringList command, bool asPostgres, QString& error)
    {
        if (asPostgres && geteuid() == 0)
            command = QStringList{QStringLiteral("runuser"), QStringLiteral("-u"), QStringLiteral("postgres"),
                                  QStringLiteral("--")}
                + command;
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(command.takeFirst(), command);
        if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
            error = QString::fromUtf8(process.readAll()) + process.errorString();
            return false;
        }
        return true;
    }

    QTemporaryDir m_dir;
    QString m_port;
    bool m_running = false;
};

// The backends every history test runs on: an SQLite file and a database
// of the throwaway server. In the test class: initTestCase(),
// cleanupTestCase() and init() in its own, addRows() as a test's _data, newHistory()
// in the test for an empty history of the row's backend (as --db takes it).
class HistoryBackends
{
public:
    // initTestCase: starts the server. Where PostgreSQL is not installed
    // the postgresql rows are skipped (with a warning), except under CI,
    // which fails; installed, it must start.
    void initTestCase()
    {
        if (!PgServer::installed()) {
            const QString missing = QStringLiteral("PostgreSQL (Debian's postgresql package) is not installed (no %1/initdb)")
                                        .arg(PgServer::binDir());
            QVERIFY2(!PgServer::required(), qPrintable(missing + QStringLiteral(": CI=true runs the postgresql rows")));
            qWarning("%s: the postgresql rows are skipped", qPrintable(missing));
            return;
        }
        QString error;
        m_running = m_server.start(error);
        QVERIFY2(m_running, qPrintable(error));
    }
    void cleanupTestCase() { m_server.stop(); }
    // init: skips a postgresql row without a server.
    void init()
    {
        if (QTest::currentDataTag() && QByteArray(QTest::currentDataTag()) == "postgresql" && !m_running)
            QSKIP("no PostgreSQL server");
    }
    static void addRows()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    // "" where the database cannot be made.
    QString newHistory()
    {
        QFETCH(QString, backend);
        const QString name = QStringLiteral("history%1").arg(++m_count);
        if (backend == QLatin1String("sqlite"))
            return m_dir.filePath(name + QStringLiteral(".sqlite"));
        QString error;
        const QString url = m_server.createDatabase(name, error);
        return error.isEmpty() ? url : QString();
    }
    // A new name in the SQLite files' directory.
    QString newFile(const QString& suffix) { return m_dir.filePath(QStringLiteral("file%1").arg(++m_count) + suffix); }

private:
    QTemporaryDir m_dir;
    PgServer m_server;
    bool m_running = false;
    int m_count = 0;
};

} // namespace runlane::test
