#include "formatdetector.h"

#include <QtTest>

using namespace runlane;

Q_DECLARE_METATYPE(runlane::ProfileFormat)

class TestFormatDetector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detect_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<ProfileFormat>("format");
        QTest::addColumn<QString>("reason");

        QTest::newRow("chrome array") << QByteArray("[{\"ph\":\"X\"}]") << ProfileFormat::ChromeTrace << QString();
        QTest::newRow("chrome object") << QByteArray("{\"traceEvents\":[]}") << ProfileFormat::ChromeTrace << QString();
        QTest::newRow("empty array") << QByteArray(" [ ] ") << ProfileFormat::ChromeTrace << QString();
        QTest::newRow("enso") << QByteArray("[{\"L\":{\"l\":\"x\"}}]") << ProfileFormat::EnsoLog << QString();
        QTest::newRow("enso with blanks") << QByteArray("\n[ {\n \"C\" : {}}]") << ProfileFormat::EnsoLog << QString();
        QTest::newRow("utf-8 bom") << QByteArray("\xef\xbb\xbf[{\"S\":{}}]") << ProfileFormat::EnsoLog << QString();
        QTest::newRow("one-letter non-enso key") << QByteArray("[{\"s\":\"t\"}]") << ProfileFormat::ChromeTrace
                                                << QString();
        QTest::newRow("empty file") << QByteArray() << ProfileFormat::Empty << QString("the file is empty");
        QTest::newRow("blank file") << QByteArray(" \n\t") << ProfileFormat::Empty
                                    << QString("the file holds only white space");
        QTest::newRow("text") << QByteArray("hello") << ProfileFormat::Unknown
                              << QString("not a profile: expected JSON ('[' or '{') or folded stacks, found 'h' at byte 0");
        QTest::newRow("chronos marker first") << QByteArray("{\"chronosFutureEvents\": 1, \"events\": [")
                                              << ProfileFormat::ChronosLog << QString();
        QTest::newRow("chronos events first") << QByteArray("{\"loop\": \"main\", \"events\": [{\"t\": 1}, {\"t\": 2}]}")
                                              << ProfileFormat::ChronosLog << QString();
        QTest::newRow("chrome after metadata") << QByteArray("{\"metadata\": {\"a\": [1, {\"b\": \"}\"}]}, \"traceEvents\": [")
                                               << ProfileFormat::ChromeTrace << QString();
        QTest::newRow("chroprof rows") << QByteArray("[{\"location\": {\"procedure\": \"p\"}, \"execTime\": 5}]")
                                       << ProfileFormat::ChroprofRows << QString();
        QTest::newRow("chroprof rows by metric") << QByteArray("[{\"callCount\": 1}]") << ProfileFormat::ChroprofRows
                                                 << QString();
        QTest::newRow("chroprof snapshots") << QByteArray("{\"chroprofSnapshots\": 1, \"snapshots\": []")
                                            << ProfileFormat::ChroprofSnapshots << QString();
        QTest::newRow("speedscope") << QByteArray("{\"exporter\": \"x\", \"$schema\": \"https://www.speedscope.app/file-format-schema.json\"}")
                                    << ProfileFormat::Speedscope << QString();
        QTest::newRow("speedscope by shared") << QByteArray("{\"shared\": {\"frames\": []}, \"profiles\": []}")
                                              << ProfileFormat::Speedscope << QString();
        QTest::newRow("folded") << QByteArray("a;b;c 12\na;b 3\n") << ProfileFormat::FoldedStacks << QString();
        QTest::newRow("folded with comments") << QByteArray("# austin\n// x\nP1;T2;main 0.5\r\n")
                                              << ProfileFormat::FoldedStacks << QString();
        QTest::newRow("folded utf-16 le") << QByteArray("\xff\xfe" "a\0;\0b\0 \0" "1\0\n\0", 14)
                                          << ProfileFormat::FoldedStacks << QString();
        QTest::newRow("not folded") << QByteArray("a;b;c twelve\n") << ProfileFormat::Unknown
                                    << QString("not a profile: expected JSON ('[' or '{') or folded stacks, found 'a' at byte 0");
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << ProfileFormat::Unknown
                                << QString("the file holds binary data (byte 0x89 at offset 0), not a JSON profile");
        QTest::newRow("utf-16") << QByteArray("\xff\xfe[\0", 4) << ProfileFormat::Unknown
                                << QString("the file is UTF-16 text but not folded stacks; JSON profiles must be UTF-8");
    }

    void detect()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(ProfileFormat, format);
        QFETCH(QString, reason);
        const auto result = FormatDetector::detect(std::string_view(prefix.constData(), std::size_t(prefix.size())), true);
        QCOMPARE(result.format, format);
        QCOMPARE(QString::fromStdString(result.reason), reason);
    }
};

QTEST_GUILESS_MAIN(TestFormatDetector)
#include "tst_formatdetector.moc"
