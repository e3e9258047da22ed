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
                              << QString("not a JSON profile: expected '[' or '{', found 'h' at byte 0");
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << ProfileFormat::Unknown
                                << QString("the file holds binary data (byte 0x89 at offset 0), not a JSON profile");
        QTest::newRow("utf-16") << QByteArray("\xff\xfe[\0", 4) << ProfileFormat::Unknown
                                << QString("the file is UTF-16 text; JSON profiles must be UTF-8");
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
