// The Debian package (packaging/CMakeLists.txt), as a user gets it: its
// size, its files unpacked with dpkg -x into a temporary root (no root
// rights needed), the installed runlane-cli on a sample, the installed
// runlane's --version without a display, the desktop entry and the
// AppStream metainfo through their validators, the MIME types as Qt's
// shared-mime-info reader sees them, the generated man pages and bash
// completion, the user guide, and lintian. It needs the package:
// `./packaging/quickstart.sh deb` builds it in build-release/ beside this
// build (RUNLANE_DEB names another .deb); without one the test skips,
// saying so. CI does not build the package (a Release build of both
// programs: some 7 minutes of its budget), so there it skips too.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeDatabase>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QString out;
    QString err;
};

Run run(const QString& program, const QStringList& args, const QProcessEnvironment& environment =
                                                             QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, args);
    Run result;
    if (!process.waitForFinished(300000)) {
        result.err = QStringLiteral("%1 did not finish: %2").arg(program, process.errorString());
        return result;
    }
    result.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString dataPath(const QString& relative)
{
    return QStringLiteral(RUNLANE_TEST_DATA "/") + relative;
}

// A tool the checks need, or a skip that says which package has it.
#define REQUIRE_TOOL(tool, package)                                                                                   \
    if (QStandardPaths::findExecutable(QStringLiteral(tool)).isEmpty())                                               \
        QSKIP(tool " is not installed (apt-get install " package ")");

} // namespace

class TestPackage : public QObject
{
    Q_OBJECT

private:
    QString m_deb;
    QTemporaryDir m_root;
    bool m_mimeDatabase = false;

    QString installed(const QString& path) const { return m_root.filePath(path); }

    // runlane-cli's commands, as its main help lists them ("  summary   format, ...").
    QStringList cliCommands()
    {
        const Run help = run(installed(QStringLiteral("usr/bin/runlane-cli")), {QStringLiteral("--help")});
        static const QRegularExpression command(QStringLiteral("^  ([a-z][a-z-]*)  "), QRegularExpression::MultilineOption);
        QStringList commands;
        for (const QRegularExpressionMatch& m : command.globalMatch(help.out))
            commands.append(m.captured(1));
        return commands;
    }

    QString gunzip(const QString& path)
    {
        const Run unzipped = run(QStringLiteral("gzip"), {QStringLiteral("-dc"), installed(path)});
        return unzipped.code == 0 ? unzipped.out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_deb = qEnvironmentVariable("RUNLANE_DEB");
        if (m_deb.isEmpty()) {
            const QDir release(QStringLiteral(RUNLANE_PACKAGE_BUILD));
            const QStringList debs = release.entryList({QStringLiteral("runlane_*.deb")}, QDir::Files, QDir::Time);
            if (debs.isEmpty())
                QSKIP("no package in " RUNLANE_PACKAGE_BUILD ": './packaging/quickstart.sh deb' builds it there "
                      "(RUNLANE_DEB=path names another)");
            m_deb = release.filePath(debs.first());
        }
        QVERIFY2(QFileInfo::exists(m_deb), qPrintable(m_deb));
        QVERIFY(m_root.isValid());
        const Run unpacked = run(QStringLiteral("dpkg"), {QStringLiteral("-x"), m_deb, m_root.path()});
        QVERIFY2(unpacked.code == 0, qPrintable(unpacked.err));
        // The MIME database as dpkg's trigger leaves it once the package is
        // installed: the system's types and the package's in one cache
        // (update-mime-database), where a more certain magic wins. Qt would
        // read the package's XML beside the system's cache, but lets the
        // cache's match win whatever the priorities.
        const QString packages = m_root.filePath(QStringLiteral("mime-database/mime/packages"));
        QVERIFY(QDir().mkpath(packages));
        const QDir system(QStringLiteral("/usr/share/mime/packages"));
        for (const QString& xml : system.entryList({QStringLiteral("*.xml")}, QDir::Files))
            QVERIFY(QFile::copy(system.filePath(xml), packages + QLatin1Char('/') + xml));
        QVERIFY(QFile::copy(installed(QStringLiteral("usr/share/mime/packages/runlane.xml")),
                            packages + QStringLiteral("/runlane.xml")));
        if (!QStandardPaths::findExecutable(QStringLiteral("update-mime-database")).isEmpty()) {
            const Run update = run(QStringLiteral("update-mime-database"),
                                   {m_root.filePath(QStringLiteral("mime-database/mime"))});
            QVERIFY2(update.code == 0, qPrintable(update.err));
            m_mimeDatabase = true;
            qputenv("XDG_DATA_HOME", m_root.filePath(QStringLiteral("no-home")).toUtf8());
            qputenv("XDG_DATA_DIRS", m_root.filePath(QStringLiteral("mime-database")).toUtf8());
        }
    }

    // Issue 44's budget: a Release build, stripped, no debug information.
    void sizeIsWithinBudget()
    {
        const qint64 size = QFileInfo(m_deb).size();
        QVERIFY2(size <= 10 * 1024 * 1024, qPrintable(QStringLiteral("%1 is %2 bytes").arg(m_deb).arg(size)));
        const Run info = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), m_deb, QStringLiteral("Depends")});
        QCOMPARE(info.code, 0);
        // dpkg-shlibdeps' libraries, and the SQL driver it cannot see.
        QVERIFY2(info.out.contains(QStringLiteral("libqt6widgets6")), qPrintable(info.out));
        QVERIFY2(info.out.contains(QStringLiteral("libqt6sql6-sqlite")), qPrintable(info.out));
    }

    void files_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* path : {"usr/bin/runlane", "usr/bin/runlane-cli", "usr/libexec/runlane/runlane-cli-render",
                                 "usr/share/applications/io.github.runlane.Runlane.desktop",
                                 "usr/share/metainfo/io.github.runlane.Runlane.metainfo.xml",
                                 "usr/share/mime/packages/runlane.xml",
                                 "usr/share/icons/hicolor/scalable/apps/runlane.svg",
                                 "usr/share/icons/hicolor/256x256/apps/runlane.png",
                                 "usr/share/icons/hicolor/64x64/apps/runlane.png",
                                 "usr/share/man/man1/runlane.1.gz", "usr/share/man/man1/runlane-cli.1.gz",
                                 "usr/share/bash-completion/completions/runlane",
                                 "usr/share/bash-completion/completions/runlane-cli",
                                 "usr/share/doc/runlane/copyright", "usr/share/doc/runlane/changelog.gz",
                                 "usr/share/doc/runlane/guide/viewer.md"})
            QTest::newRow(path) << QString::fromLatin1(path);
    }

    void files()
    {
        QFETCH(QString, path);
        QVERIFY2(QFileInfo(installed(path)).isFile(), qPrintable(path));
    }

    // The installed programs run (on the system's Qt), runlane without a display.
    void programsRun()
    {
        const Run summary = run(installed(QStringLiteral("usr/bin/runlane-cli")),
                                {QStringLiteral("summary"), dataPath(QStringLiteral("profiles/enso-async.json"))});
        QVERIFY2(summary.code == 0, qPrintable(summary.err));
        const QStringList lines = summary.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() > 5, qPrintable(summary.out));
        QCOMPARE(lines[1], QStringLiteral("format:        Enso profiler event log"));
        QCOMPARE(lines[3], QStringLiteral("tracks:        2"));
        QCOMPARE(lines[4], QStringLiteral("measurements:  7 (4 async tasks, 1 unfinished)"));

        QProcessEnvironment noDisplay = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            noDisplay.remove(QString::fromLatin1(name));
        // render runs the program installed in libexec (renderlauncher.cpp).
        const QString png = m_root.filePath(QStringLiteral("render.png"));
        const Run render = run(installed(QStringLiteral("usr/bin/runlane-cli")),
                               {QStringLiteral("render"), dataPath(QStringLiteral("profiles/enso-async.json")),
                                QStringLiteral("--size"), QStringLiteral("640x400"), QStringLiteral("-o"), png},
                               noDisplay);
        QVERIFY2(render.code == 0, qPrintable(render.err));
        QCOMPARE(render.out, png + QStringLiteral(": 640x400\n"));
        QCOMPARE(QImage(png).size(), QSize(640, 400));
        const Run version = run(installed(QStringLiteral("usr/bin/runlane")), {QStringLiteral("--version")}, noDisplay);
        QVERIFY2(version.code == 0, qPrintable(version.err));
        QCOMPARE(version.out, QStringLiteral("Runlane " RUNLANE_VERSION "\n"));
    }

    // Help ▸ User Guide's copy: every page of docs/, uncompressed (the
    // desktop opens it as it is), where the program looks for it
    // (app/gui/userguide.cpp: bin/../share/doc/runlane/guide).
    void userGuide()
    {
        const QStringList markdown{QStringLiteral("*.md")};
        const QStringList source = QDir(QStringLiteral(RUNLANE_TEST_DATA "/../../docs")).entryList(markdown, QDir::Files, QDir::Name);
        QVERIFY(source.contains(QStringLiteral("viewer.md")));
        const QDir guide(installed(QStringLiteral("usr/share/doc/runlane/guide")));
        QCOMPARE(guide.entryList(QDir::Files, QDir::Name), source);
        QFile index(guide.filePath(QStringLiteral("viewer.md")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(index.readAll());
        QVERIFY(text.startsWith(QStringLiteral("# The viewer\n")));
        QVERIFY(text.contains(QStringLiteral("Help ▸ User Guide")));
    }

    void desktopEntryIsValid()
    {
        REQUIRE_TOOL("desktop-file-validate", "desktop-file-utils");
        const Run check = run(QStringLiteral("desktop-file-validate"),
                              {installed(QStringLiteral("usr/share/applications/io.github.runlane.Runlane.desktop"))});
        QCOMPARE(check.out + check.err, QString());
        QCOMPARE(check.code, 0);
    }

    void metainfoIsValid()
    {
        REQUIRE_TOOL("appstreamcli", "appstream");
        // --no-net: the screenshot's URL is a placeholder (packaging/CMakeLists.txt).
        const Run check = run(QStringLiteral("appstreamcli"),
                              {QStringLiteral("validate"), QStringLiteral("--no-net"), QStringLiteral("--explain"),
                               installed(QStringLiteral("usr/share/metainfo/io.github.runlane.Runlane.metainfo.xml"))});
        QVERIFY2(check.code == 0, qPrintable(check.out + check.err));
        QVERIFY2(check.out.contains(QStringLiteral("Validation was successful")), qPrintable(check.out));
        // Not even a warning or an info: only pedantic hints may remain.
        static const QRegularExpression issue(QStringLiteral("^[EWI]: "), QRegularExpression::MultilineOption);
        QVERIFY2(!check.out.contains(issue), qPrintable(check.out));
    }

    // Every type the package declares is one the desktop entry opens, and
    // the metainfo says it provides.
    void mimeTypesAreListed()
    {
        QFile xml(installed(QStringLiteral("usr/share/mime/packages/runlane.xml")));
        QVERIFY(xml.open(QIODevice::ReadOnly));
        static const QRegularExpression declared(QStringLiteral("<mime-type type=\"([^\"]+)\""));
        QSet<QString> types;
        for (const QRegularExpressionMatch& m : declared.globalMatch(QString::fromUtf8(xml.readAll())))
            types.insert(m.captured(1));
        QCOMPARE(types.size(), 10);

        QFile desktop(installed(QStringLiteral("usr/share/applications/io.github.runlane.Runlane.desktop")));
        QVERIFY(desktop.open(QIODevice::ReadOnly));
        static const QRegularExpression mimeLine(QStringLiteral("^MimeType=(.*)$"), QRegularExpression::MultilineOption);
        const QRegularExpressionMatch line = mimeLine.match(QString::fromUtf8(desktop.readAll()));
        QVERIFY(line.hasMatch());
        QSet<QString> opened;
        for (const QString& type : line.captured(1).split(QLatin1Char(';'), Qt::SkipEmptyParts))
            opened.insert(type);
        QSet<QString> expected = types;
        expected.insert(QStringLiteral("application/json"));
        QCOMPARE(opened, expected);

        QFile metainfo(installed(QStringLiteral("usr/share/metainfo/io.github.runlane.Runlane.metainfo.xml")));
        QVERIFY(metainfo.open(QIODevice::ReadOnly));
        static const QRegularExpression mediatype(QStringLiteral("<mediatype>([^<]+)</mediatype>"));
        QSet<QString> provided;
        for (const QRegularExpressionMatch& m : mediatype.globalMatch(QString::fromUtf8(metainfo.readAll())))
            provided.insert(m.captured(1));
        QCOMPARE(provided, types);
    }

    // A file manager's view: by name first, by content where the name says
    // nothing (a longer pattern wins: *.json.gz over *.gz).
    void mimeTypes_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("type");
        const QString cpuprofile = QStringLiteral("samples/cpuprofile/node-hello.cjs.cpuprofile");
        QTest::newRow("cpuprofile") << cpuprofile << "profile.cpuprofile" << "application/x-v8-cpuprofile";
        QTest::newRow("cpuprofile, no name") << cpuprofile << "profile" << "application/x-v8-cpuprofile";
        QTest::newRow("cpuprofile as .json") << cpuprofile << "profile.json" << "application/json";
        QTest::newRow("chronos, no name") << "profiles/chronos-states.json" << "chronos-run" << "application/x-chronos-log";
        QTest::newRow("chroprof, no name") << "profiles/chroprof-snapshots.json" << "metrics"
                                           << "application/x-chroprof-snapshots";
        QTest::newRow("chrome, no name") << "samples/chrome-trace/catapult/flow_simple.json" << "trace"
                                         << "application/x-chrome-trace";
        const QString speedscope = QStringLiteral("samples/speedscope/0.0.1_simple.speedscope.json");
        QTest::newRow("speedscope") << speedscope << "run.speedscope.json" << "application/x-speedscope";
        QTest::newRow("speedscope, no name") << speedscope << "run" << "application/x-speedscope";
        const QString gz = QStringLiteral("samples/chrome-trace/devtools-samples/firefox-chrome-trace-issue-5429.json.gz");
        QTest::newRow(".json.gz") << gz << "trace.json.gz" << "application/x-compressed-json";
        QTest::newRow("other .gz") << gz << "trace.gz" << "application/gzip";
        QTest::newRow("folded") << "samples/folded/simple.txt" << "stacks.folded" << "text/x-folded-stacks";
        QTest::newRow("collapsed") << "samples/folded/simple.txt" << "stacks.collapsed" << "text/x-folded-stacks";
        QTest::newRow("perf") << "samples/folded/simple.txt" << "out.perf" << "text/x-perf-script";
        QTest::newRow("pprof") << "samples/pprof/pprof-report-sample.cpu.pb" << "cpu.pprof" << "application/x-pprof";
        QTest::newRow("perfetto") << "perfetto/tokio-tracing-perfetto.pftrace" << "trace.pftrace" << "application/x-perfetto-trace";
        QTest::newRow("perfetto-trace") << "perfetto/systing-ebpf.perfetto-trace" << "trace.perfetto-trace"
                                        << "application/x-perfetto-trace";
    }

    void mimeTypes()
    {
        QFETCH(QString, sample);
        QFETCH(QString, name);
        QFETCH(QString, type);
        if (!m_mimeDatabase)
            QSKIP("update-mime-database is not installed (apt-get install shared-mime-info)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(dataPath(sample), dir.filePath(name)));
        QCOMPARE(QMimeDatabase().mimeTypeForFile(dir.filePath(name)).name(), type);
    }

    // Generated from the programs' help: every command and option is there.
    void manPages()
    {
        const QString cli = gunzip(QStringLiteral("usr/share/man/man1/runlane-cli.1.gz"));
        QVERIFY(cli.startsWith(QStringLiteral(".\\\" Generated from `runlane-cli --help`")));
        QVERIFY(cli.contains(QStringLiteral(".TH RUNLANE-CLI 1 \"\" \"runlane-cli " RUNLANE_VERSION "\"")));
        const QStringList commands = cliCommands();
        QVERIFY(commands.size() >= 11);
        for (const QString& command : commands)
            QVERIFY2(cli.contains(QStringLiteral("\n.SS %1\n").arg(command)), qPrintable(command));
        QCOMPARE(cli.count(QStringLiteral("\n.SS ")), commands.size());
        QVERIFY(cli.contains(QStringLiteral("\\fB\\-\\-fail\\-on\\-regression\\fR")));

        const QString viewer = gunzip(QStringLiteral("usr/share/man/man1/runlane.1.gz"));
        for (const char* part : {".SH SYNOPSIS\n.nf\n\\fBrunlane\\fR [options] file [cpuprofile...]\n.fi\n",
                                 ".SH OPTIONS\n", "\\fB\\-\\-attach <url>\\fR\n", ".SH ARGUMENTS\n"})
            QVERIFY2(viewer.contains(QString::fromUtf8(part)), part);
    }

    void completion()
    {
        QFile file(installed(QStringLiteral("usr/share/bash-completion/completions/runlane-cli")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString script = QString::fromUtf8(file.readAll());
        QVERIFY(script.contains(QStringLiteral("compgen -W \"%1 --version --help\"").arg(cliCommands().join(QLatin1Char(' ')))));
        QVERIFY(script.contains(QStringLiteral(" tree) options=\"--max-depth --input-format --variant --add --add-thread --help\"")));
        QVERIFY(script.contains(QStringLiteral("subwords=\"record list show check export import\"")));
        const Run syntax = run(QStringLiteral("bash"), {QStringLiteral("-n"), file.fileName()});
        QVERIFY2(syntax.code == 0, qPrintable(syntax.err));
    }

    // No error; the warnings that stay are listed in docs/CONTRIBUTING.md.
    void lintian()
    {
        REQUIRE_TOOL("lintian", "lintian");
        const Run check = run(QStringLiteral("lintian"), {m_deb});
        static const QRegularExpression error(QStringLiteral("^E: "), QRegularExpression::MultilineOption);
        QVERIFY2(!check.out.contains(error), qPrintable(check.out + check.err));
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
