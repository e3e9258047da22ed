// runlane's command line (app/gui/main.cpp): --help and --version answer the
// same with a display or without one (ssh, a package's build), where the
// viewer's QApplication would abort.
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

namespace {

// The help as QCommandLineParser words it; %1 is the program as started.
const char* const kHelp =
    "Usage: %1 [options] file [cpuprofile...]\n"
    "Viewer for profiles of asynchronous programs.\n"
    "\n"
    "Options:\n"
    "  -h, --help            Displays help on commandline options.\n"
    "  --help-all            Displays help including Qt specific options.\n"
    "  -v, --version         Displays version information.\n"
    "  --report-first-frame  Print how long the profile took to appear (from the\n"
    "                        start to its first painted frame), then quit. For\n"
    "                        benchmarks.\n"
    "  --no-previews         Show a file only once it is loaded, not while it loads.\n"
    "                        With --report-first-frame: what the previews cost. For\n"
    "                        benchmarks.\n"
    "  --attach <url>        Follow a running program's Chroprof metrics: an\n"
    "                        exporter's http://host:port/metrics or a Prometheus\n"
    "                        server (prometheus://host:9090). File ▸ Attach… does the\n"
    "                        same.\n"
    "  --interval <ms>       With --attach: milliseconds between scrapes (default\n"
    "                        1000).\n"
    "\n"
    "Arguments:\n"
    "  file                  The profile to open (default: the demo).\n"
    "  cpuprofile            V8 CPU profiles recorded in the same run as the trace\n"
    "                        FILE, added to it under its main thread.\n";

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersWithoutDisplay_data()
    {
        QTest::addColumn<bool>("display");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("out");
        const QString help = QString::fromUtf8(kHelp).arg(QStringLiteral(RUNLANE_VIEWER));
        const QString version = QStringLiteral("Runlane " RUNLANE_VERSION "\n");
        for (const bool display : {false, true}) {
            const char* where = display ? "offscreen" : "no display";
            QTest::addRow("%s: --help", where) << display << QStringList{"--help"} << help;
            QTest::addRow("%s: -h", where) << display << QStringList{"-h"} << help;
            QTest::addRow("%s: --help with a file", where) << display << QStringList{"trace.json", "--help"} << help;
            QTest::addRow("%s: --version", where) << display << QStringList{"--version"} << version;
            QTest::addRow("%s: -v", where) << display << QStringList{"-v"} << version;
        }
    }

    void answersWithoutDisplay()
    {
        QFETCH(bool, display);
        QFETCH(QStringList, args);
        QFETCH(QString, out);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        // No screen at all, as over ssh: Qt would pick xcb and find no X server.
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            environment.remove(QString::fromLatin1(name));
        if (display)
            environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        QProcess process;
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(RUNLANE_VIEWER), args);
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit, qPrintable(err));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()), out);
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
