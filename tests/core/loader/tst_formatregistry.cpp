#include "formatregistry.h"

#include <QtTest>

using namespace runlane;

class TestFormatRegistry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detect_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<QString>("format"); // the id, "" for none
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");

        QTest::newRow("chrome array") << QByteArray("[{\"ph\":\"X\"}]") << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("chrome object") << QByteArray("{\"traceEvents\":[]}") << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("empty array") << QByteArray(" [ ] ") << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("enso") << QByteArray("[{\"L\":{\"l\":\"x\"}}]") << QString("enso") << QString("Enso profiler event log") << QString();
        QTest::newRow("enso with blanks") << QByteArray("\n[ {\n \"C\" : {}}]") << QString("enso") << QString("Enso profiler event log") << QString();
        QTest::newRow("utf-8 bom") << QByteArray("\xef\xbb\xbf[{\"S\":{}}]") << QString("enso") << QString("Enso profiler event log") << QString();
        QTest::newRow("one-letter non-enso key") << QByteArray("[{\"s\":\"t\"}]") << QString("chrome") << QString("Chrome Trace Event Format")
                                                << QString();
        QTest::newRow("empty file") << QByteArray() << QString("") << QString("") << QString("the file is empty");
        QTest::newRow("blank file") << QByteArray(" \n\t") << QString("") << QString("")
                                    << QString("the file holds only white space");
        QTest::newRow("text") << QByteArray("hello") << QString("") << QString("")
                              << QString("not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks or perf script, found 'h' at byte 0");
        QTest::newRow("chronos marker first") << QByteArray("{\"chronosFutureEvents\": 1, \"events\": [")
                                              << QString("chronos") << QString("Chronos future event log") << QString();
        QTest::newRow("chronos events first") << QByteArray("{\"loop\": \"main\", \"events\": [{\"t\": 1}, {\"t\": 2}]}")
                                              << QString("chronos") << QString("Chronos future event log") << QString();
        QTest::newRow("chrome after metadata") << QByteArray("{\"metadata\": {\"a\": [1, {\"b\": \"}\"}]}, \"traceEvents\": [")
                                               << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("tokio") << QByteArray("{\"v\":1}\n{\"Spawn\":{\"id\":1") << QString("tokio")
                               << QString("tokio-console recording") << QString();
        QTest::newRow("tokio, header alone") << QByteArray(" {\"v\": 1}\n") << QString("tokio")
                                             << QString("tokio-console recording") << QString();
        QTest::newRow("tokio version 2") << QByteArray("{\"v\":2}\n") << QString("tokio") << QString("tokio-console recording")
                                         << QString("unsupported tokio-console recording version 2 (this Runlane reads version 1)");
        // A one-line object with more than the version is no recording.
        QTest::newRow("object with v") << QByteArray("{\"v\":1, \"traceEvents\": []}\n") << QString("chrome")
                                       << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("chroprof rows") << QByteArray("[{\"location\": {\"procedure\": \"p\"}, \"execTime\": 5}]")
                                       << QString("chroprof") << QString("Chroprof metrics") << QString();
        QTest::newRow("chroprof rows by metric") << QByteArray("[{\"callCount\": 1}]") << QString("chroprof") << QString("Chroprof metrics")
                                                 << QString();
        QTest::newRow("chroprof snapshots") << QByteArray("{\"chroprofSnapshots\": 1, \"snapshots\": []")
                                            << QString("chroprof") << QString("Chroprof metric snapshots") << QString();
        QTest::newRow("speedscope") << QByteArray("{\"exporter\": \"x\", \"$schema\": \"https://www.speedscope.app/file-format-schema.json\"}")
                                    << QString("speedscope") << QString("speedscope") << QString();
        QTest::newRow("speedscope by shared") << QByteArray("{\"shared\": {\"frames\": []}, \"profiles\": []}")
                                              << QString("speedscope") << QString("speedscope") << QString();
        QTest::newRow("gecko") << QByteArray("{\"meta\": {\"version\": 27, \"interval\": 1}, \"libs\": [], \"threads\": [")
                               << QString("gecko") << QString("Firefox Profiler") << QString();
        QTest::newRow("gecko processed, shared strings") << QByteArray("{\"meta\": {\"preprocessedProfileVersion\": 50}, \"shared\": {\"stringArray\": []}, \"threads\": []}")
                                                         << QString("gecko") << QString("Firefox Profiler") << QString();
        QTest::newRow("firefox devtools recording") << QByteArray("{\"label\": \"x\", \"duration\": 4.5, \"profile\": {\"meta\": {}, \"threads\": []}}")
                                                    << QString("gecko") << QString("Firefox DevTools recording") << QString();
        QTest::newRow("meta alone is not gecko") << QByteArray("{\"meta\": {}, \"traceEvents\": []}")
                                                 << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("folded") << QByteArray("a;b;c 12\na;b 3\n") << QString("folded") << QString("folded stacks") << QString();
        QTest::newRow("folded with comments") << QByteArray("# austin\n// x\nP1;T2;main 0.5\r\n")
                                              << QString("folded") << QString("folded stacks") << QString();
        QTest::newRow("folded utf-16 le") << QByteArray("\xff\xfe" "a\0;\0b\0 \0" "1\0\n\0", 14)
                                          << QString("folded") << QString("folded stacks") << QString();
        QTest::newRow("not folded") << QByteArray("a;b;c twelve\n") << QString("") << QString("")
                                    << QString("not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks or perf script, found 'a' at byte 0");
        // sample_type {cpu, nanoseconds}, then the string table.
        QTest::newRow("pprof") << QByteArray("\x0a\x04\x08\x01\x10\x02\x32\x00\x32\x03" "cpu" "\x32\x0b" "nanoseconds", 26)
                               << QString("pprof") << QString("pprof") << QString();
        QTest::newRow("pprof's string table must start with \"\"")
            << QByteArray("\x0a\x04\x08\x01\x10\x02\x32\x03" "cpu", 11) << QString("") << QString("")
            << QString("the file holds binary data (byte 0x04 at offset 1): not a JSON profile, and its first bytes are not those of a pprof or Perfetto trace");
        // A Trace's packet {trusted_packet_sequence_id 1, timestamp 5}.
        QTest::newRow("perfetto") << QByteArray("\x0a\x04\x50\x01\x40\x05", 6) << QString("perfetto")
                                  << QString("Perfetto trace") << QString();
        QTest::newRow("perf script") << QByteArray("simple-terminat     9/9     198791.127353: cpu-clock: \n"
                                                   "\t             643 _Z4betav (/workdir/simple-terminates)\n")
                                     << QString("perf") << QString("perf script") << QString();
        QTest::newRow("perf script --header") << QByteArray("# ========\n# arch : x86_64\n#\n"
                                                            "FS Broker 5906  7564/7598  2574592.949428:          1 cycles:ppp: \n")
                                              << QString("perf") << QString("perf script") << QString();
        QTest::newRow("perf script without time") << QByteArray("app 1/1 100 cycles:\n\t1 a (app)\n")
                                                  << QString("perf") << QString("perf script") << QString();
        QTest::newRow("perf script, a line a sample")
            << QByteArray("            bash  1234 [000] 100.000000:       1000 cycles:  ffff81 do_sys+0x1f ([kernel.kallsyms])\n")
            << QString("perf") << QString("perf script") << QString();
        QTest::newRow("perf without time needs a frame") << QByteArray("app 1/1 100 cycles:\nmore text\n")
                                                         << QString("") << QString("")
                                                         << QString("not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded "
                                                                    "stacks or perf script, found 'a' at byte 0");
        QTest::newRow("a log is not perf script") << QByteArray("12:00:01 server: started\n") << QString("") << QString("")
                                                  << QString("not a profile: expected JSON ('[' or '{') or Enso Language Server message log or folded stacks "
                                                             "or perf script, found '1' at byte 0");
        QTest::newRow("folded with colons is not perf script") << QByteArray("java;a:b: 12\njava;c 3\n")
                                                               << QString("folded") << QString("folded stacks") << QString();
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << QString("") << QString("")
                                << QString("the file holds binary data (byte 0x89 at offset 0): not a JSON profile, and its first bytes are not those of a pprof or Perfetto trace");
        QTest::newRow("text, then binary") << QByteArray("not a profile\0\x01", 15) << QString("") << QString("")
                                           << QString("the file holds binary data (byte 0x00 at offset 13): not a JSON profile, and its first bytes are not those of a pprof or Perfetto trace");
        QTest::newRow("chronos future version") << QByteArray("{\"chronosFutureEvents\": 2, \"events\": [")
                                                << QString("chronos") << QString("Chronos future event log")
                                                << QString("unsupported Chronos future event log version 2 (this Runlane reads version 1)");
        QTest::newRow("chronos version after events") << QByteArray("{\"events\": [], \"chronosFutureEvents\": 7}")
                                                      << QString("chronos") << QString("Chronos future event log")
                                                      << QString("unsupported Chronos future event log version 7 (this Runlane reads version 1)");
        QTest::newRow("chronos version as text, for the reader") << QByteArray("{\"chronosFutureEvents\": \"2\"}")
                                                                 << QString("chronos") << QString("Chronos future event log")
                                                                 << QString();
        QTest::newRow("chroprof future version") << QByteArray("{\"chroprofSnapshots\": 3, \"snapshots\": []}")
                                                 << QString("chroprof") << QString("Chroprof metrics")
                                                 << QString("unsupported Chroprof snapshot version 3 (this Runlane reads version 1)");
        QTest::newRow("earliest key wins") << QByteArray("{\"traceEvents\": [], \"chronosFutureEvents\": 2}")
                                           << QString("chrome") << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("object of no format") << QByteArray("{\"a\": 1}") << QString("chrome")
                                             << QString("Chrome Trace Event Format") << QString();
        QTest::newRow("cut prefix") << QByteArray("  ") << QString("") << QString("") << QString("the file holds only white space");
        QTest::newRow("utf-16") << QByteArray("\xff\xfe[\0", 4) << QString("") << QString("")
                                << QString("the file is UTF-16 text but not folded stacks; JSON profiles must be UTF-8");
    }

    void detectOnlyPartOfAFile()
    {
        const auto result = FormatRegistry::detect("   ", false);
        QVERIFY(!result.format);
        QVERIFY(!result.empty);
        QCOMPARE(QString::fromStdString(result.problem), QString("no data in the first 3 bytes"));
        QVERIFY(FormatRegistry::detect("", true).empty);
    }

    // One table: each folder under core/formats/ (but common/, which CMake
    // leaves out of RUNLANE_FORMAT_IDS) is one registered format whose id is
    // the folder's name, and the other way round.
    void tableMatchesTheFolders()
    {
        QStringList ids;
        for (const InputFormat* format : FormatRegistry::formats())
            ids << QString::fromUtf8(format->id());
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
        QStringList sorted = ids;
        sorted.sort();
        QCOMPARE(sorted.join(QLatin1Char(',')), QStringLiteral(RUNLANE_FORMAT_IDS));
        QCOMPARE(QString::fromStdString(FormatRegistry::ids()), ids.join(QStringLiteral(", ")));
        for (const InputFormat* format : FormatRegistry::formats()) {
            QCOMPARE(FormatRegistry::find(format->id()), format);
            QVERIFY(!format->name().empty());
            QVERIFY(format->memoryPerInputByte() >= 1.0);
        }
        QCOMPARE(QString::fromStdString(FormatRegistry::fileNamePatterns()),
                 QStringLiteral("*.json *.csv *.cpuprofile *.pb.gz *.pb *.pprof *.prof *.pftrace *.perfetto-trace *.txt *.folded "
                               "*.collapsed *.perf *.jsonl"));
        QVERIFY(!FormatRegistry::find("nope"));
        QVERIFY(!FormatRegistry::find(""));
    }

    // The README's table of formats is written by hand: it must name every
    // format of the registry, by its id, with its file name patterns (the
    // Open dialog's), and no other.
    void readmeListsEveryFormat()
    {
        QFile readme(QStringLiteral(RUNLANE_TEST_DATA "/../../README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(readme.readAll());
        const qsizetype start = text.indexOf(QStringLiteral("\n## Formats\n"));
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf(QStringLiteral("\n## "), start + 1);
        const QString section = text.mid(start, end - start);
        // "| [name](link) … | `id` | `*.a *.b` |"
        static const QRegularExpression row(QStringLiteral("^\\|.*\\| `([a-z0-9]+)` \\| `([^`]*)` \\|$"),
                                            QRegularExpression::MultilineOption);
        QMap<QString, QString> listed;
        for (auto match = row.globalMatch(section); match.hasNext();) {
            const QRegularExpressionMatch m = match.next();
            QVERIFY2(!listed.contains(m.captured(1)), qPrintable(m.captured(1)));
            listed.insert(m.captured(1), m.captured(2));
        }
        QMap<QString, QString> registered;
        for (const InputFormat* format : FormatRegistry::formats()) {
            QStringList patterns;
            for (const std::string_view pattern : format->fileNamePatterns())
                patterns << QString::fromUtf8(pattern.data(), qsizetype(pattern.size()));
            registered.insert(QString::fromUtf8(format->id()), patterns.join(QLatin1Char(' ')));
        }
        QCOMPARE(listed.size(), 14);
        QCOMPARE(listed, registered);
    }

    void detect()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(QString, format);
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        const auto result = FormatRegistry::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())), true);
        QCOMPARE(result.format ? QString::fromUtf8(result.format->id()) : QString(""), format);
        QCOMPARE(QString::fromUtf8(result.name()), kind);
        QCOMPARE(QString::fromStdString(result.problem), reason);
    }
};

QTEST_GUILESS_MAIN(TestFormatRegistry)
#include "tst_formatregistry.moc"
