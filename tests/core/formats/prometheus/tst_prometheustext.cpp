#include "prometheustext.h"
#include "snapshotsupport.h"

#include <QtTest>

using namespace runlane;
using runlane::test::rowLines;

namespace {

constexpr Time kScrape = 5000000000;


QString counts(const PrometheusText::Result& r)
{
    return QStringLiteral("lines=%1 samples=%2 other=%3 malformed=%4 utf8=%5 timestamped=%6 time=%7")
        .arg(r.lines)
        .arg(r.samples)
        .arg(r.otherSamples)
        .arg(r.malformedLines)
        .arg(r.invalidUtf8Lines)
        .arg(r.timestamped ? 1 : 0)
        .arg(r.snapshot.time);
}

QStringList warnings(const PrometheusText::Result& r)
{
    QStringList out;
    for (const std::string& w : r.warnings)
        out << QString::fromStdString(w);
    return out;
}

} // namespace

class TestPrometheusText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("rows");
        QTest::addColumn<QString>("counts");
        QTest::addColumn<QStringList>("warnings");

        // Every gauge, in any order; 1.5e+03 and 400.4 rounded; children =
        // with children − exec, 0 where only one of the two is given.
        QTest::newRow("gauges") << QByteArray("# HELP chronos_exec_time_total Exec time\n"
                                              "# TYPE chronos_exec_time_total gauge\n"
                                              "chronos_exec_time_total{proc=\"b\",file=\"x.nim\",line=\"2\"} 300\n"
                                              "chronos_exec_time_total{proc=\"a\",file=\"x.nim\",line=\"1\"} 1.5e+03\n"
                                              "chronos_exec_time_with_children_total{proc=\"a\",file=\"x.nim\",line=\"1\"} 2000\n"
                                              "chronos_wall_time_total{proc=\"a\",file=\"x.nim\",line=\"1\"} 9000\n"
                                              "chronos_call_count_total{proc=\"a\",file=\"x.nim\",line=\"1\"} 7\n"
                                              "chronos_single_exec_time_max{proc=\"a\",file=\"x.nim\",line=\"1\"} 400.4\n"
                                              "chronos_exec_time_with_children_total{proc=\"b\",file=\"x.nim\",line=\"2\"} 200\n")
                                << QStringList{QStringLiteral("a|x.nim|1 exec=1500 max=400 children=500 wall=9000 calls=7"),
                                               QStringLiteral("b|x.nim|2 exec=300 max=0 children=0 wall=0 calls=0")}
                                << QStringLiteral("lines=9 samples=7 other=0 malformed=0 utf8=0 timestamped=0 time=5000000000")
                                << QStringList{};
        // \\, \" and \n decoded; a trailing comma; blanks around tokens.
        QTest::newRow("escapes")
            << QByteArray("chronos_exec_time_total { proc = \"say \\\"hi\\\"\\n\" , file=\"C:\\\\dir\\\\x.nim\",line=\"3\",}   5  ")
            << QStringList{QStringLiteral("say \"hi\"\n|C:\\dir\\x.nim|3 exec=5 max=0 children=0 wall=0 calls=0")}
            << QStringLiteral("lines=1 samples=1 other=0 malformed=0 utf8=0 timestamped=0 time=5000000000")
            << QStringList{};
        // The newest Chroprof timestamp (ms → ns); another metric's later
        // one is not the data's time.
        QTest::newRow("timestamps") << QByteArray("chronos_exec_time_total{proc=\"a\"} 10 1732500000123\n"
                                                  "chronos_call_count_total{proc=\"a\"} 2 1732500001000\n"
                                                  "up 1 1732500009000\n")
                                    << QStringList{QStringLiteral("a||0 exec=10 max=0 children=0 wall=0 calls=2")}
                                    << QStringLiteral("lines=3 samples=3 other=1 malformed=0 utf8=0 timestamped=1 time=1732500001000000000")
                                    << QStringList{};
        QTest::newRow("nanInfNegative")
            << QByteArray("chronos_exec_time_total{proc=\"a\"} NaN\n"
                          "chronos_wall_time_total{proc=\"a\"} +Inf\n"
                          "chronos_call_count_total{proc=\"a\"} -Inf\n"
                          "chronos_single_exec_time_max{proc=\"a\"} -5\n"
                          "chronos_exec_time_with_children_total{proc=\"a\"} 12\n")
            << QStringList{QStringLiteral("a||0 exec=0 max=0 children=12 wall=0 calls=0")}
            << QStringLiteral("lines=5 samples=5 other=0 malformed=0 utf8=0 timestamped=0 time=5000000000")
            << QStringList{QStringLiteral("line 1: the value NaN is not a non-negative number; taken as 0"),
                           QStringLiteral("line 2: the value +Inf is not a non-negative number; taken as 0"),
                           QStringLiteral("line 3: the value -Inf is not a non-negative number; taken as 0"),
                           QStringLiteral("line 4: the value -5 is not a non-negative number; taken as 0")};
        QTest::newRow("malformed") << QByteArray("chronos_exec_time_total{proc=\"a\" 5\n"
                                                 "{proc=\"a\"} 5\n"
                                                 "\n"
                                                 "   # a comment\n"
                                                 "chronos_exec_time_total{proc=\"a\"} abc\n"
                                                 "chronos_exec_time_total{proc=\"a\\q\"} 1\n"
                                                 "chronos_exec_time_total{proc=\"a\"} 1 12x\n"
                                                 "chronos_exec_time_total{proc=\"a} 1\n"
                                                 "chronos_exec_time_total{proc} 1\n"
                                                 "chronos_exec_time_total\n"
                                                 "chronos_exec_time_total{proc=\"ok\"} 8 1 extra\n"
                                                 "chronos_exec_time_total{proc=\"ok\"} 9\n")
                                   << QStringList{QStringLiteral("ok||0 exec=9 max=0 children=0 wall=0 calls=0")}
                                   << QStringLiteral("lines=12 samples=1 other=0 malformed=9 utf8=0 timestamped=0 time=5000000000")
                                   << QStringList{QStringLiteral("line 1: expected ',' or '}' after a label value"),
                                                  QStringLiteral("line 2: expected a metric name"),
                                                  QStringLiteral("line 5: expected a float value (\"1.5e+09\", \"NaN\", \"+Inf\")"),
                                                  QStringLiteral("line 6: invalid escape in a label value (only \\\\, \\\" and \\n)"),
                                                  QStringLiteral("line 7: expected a timestamp in integer ms since the epoch"),
                                                  QStringLiteral("line 8: unterminated label value"),
                                                  QStringLiteral("line 9: expected '=' after a label name"),
                                                  QStringLiteral("line 10: expected a value"),
                                                  QStringLiteral("line 11: expected the end of the line after the timestamp")};
        // UTF-8 passes; a line that is not UTF-8 is skipped, a comment too.
        QTest::newRow("invalidUtf8") << QByteArray("chronos_exec_time_total{proc=\"caf\xc3\xa9\"} 4\n"
                                                   "chronos_exec_time_total{proc=\"bad\xff\"} 5\n"
                                                   "# HELP \xc0\xaf overlong\n"
                                                   "chronos_exec_time_total{proc=\"\xed\xa0\x80\"} 6\n")
                                     << QStringList{QStringLiteral("caf\u00e9||0 exec=4 max=0 children=0 wall=0 calls=0")}
                                     << QStringLiteral("lines=4 samples=1 other=0 malformed=0 utf8=3 timestamped=0 time=5000000000")
                                     << QStringList{QStringLiteral("line 2: not valid UTF-8; skipped"),
                                                    QStringLiteral("line 3: not valid UTF-8; skipped"),
                                                    QStringLiteral("line 4: not valid UTF-8; skipped")};
        QTest::newRow("crlf") << QByteArray("# TYPE chronos_exec_time_total gauge\r\n"
                                            "chronos_exec_time_total{proc=\"a\",line=\"7\"} 3\r\n"
                                            "\r\n"
                                            "chronos_call_count_total{proc=\"a\",line=\"7\"} 1 1732500000000\r\n")
                              << QStringList{QStringLiteral("a||7 exec=3 max=0 children=0 wall=0 calls=1")}
                              << QStringLiteral("lines=4 samples=2 other=0 malformed=0 utf8=0 timestamped=1 time=1732500000000000000")
                              << QStringList{};
        // The older exporter: run_time is with children; the unlabelled
        // largest_exec_time_* are other metrics.
        QTest::newRow("oldNames") << QByteArray("chronos_run_time_total{proc=\"a\",file=\"f.nim\",line=\"9\"} 70\n"
                                                "chronos_exec_time_total{proc=\"a\",file=\"f.nim\",line=\"9\"} 50\n"
                                                "chronos_largest_exec_time_total 50\n"
                                                "chronos_largest_exec_time_max 20")
                                  << QStringList{QStringLiteral("a|f.nim|9 exec=50 max=0 children=20 wall=0 calls=0")}
                                  << QStringLiteral("lines=4 samples=4 other=2 malformed=0 utf8=0 timestamped=0 time=5000000000")
                                  << QStringList{};
        QTest::newRow("otherMetrics") << QByteArray("process_cpu_seconds_total 1.5\n"
                                                    "go_gc_duration_seconds{quantile=\"0.5\"} NaN\n"
                                                    "http_requests_total{code=\"200\",} 3 1732500000000\n"
                                                    "chronos_exec_time_total{proc=\"p\",line=\"x\"} 1\n"
                                                    "chronos_exec_time_total{file=\"f\"} 1\n")
                                      << QStringList{QStringLiteral("p||0 exec=1 max=0 children=0 wall=0 calls=0")}
                                      << QStringLiteral("lines=5 samples=5 other=3 malformed=0 utf8=0 timestamped=0 time=5000000000")
                                      << QStringList{QStringLiteral("line 4: the 'line' label is not an integer; taken as 0"),
                                                     QStringLiteral("line 5: a Chroprof gauge without a 'proc' label; skipped")};
        // Names that hold the key's separators are still other procs.
        QTest::newRow("oddNames") << QByteArray("chronos_exec_time_total{proc=\"a\x1f\",file=\"b\"} 1\n"
                                                "chronos_exec_time_total{proc=\"a\",file=\"\x1f" "b\"} 2\n"
                                                "chronos_exec_time_total{proc=\"1:a\",file=\"\"} 3\n"
                                                "chronos_exec_time_total{proc=\"1\",file=\":a\"} 4\n")
                                  << QStringList{QStringLiteral("1|:a|0 exec=4 max=0 children=0 wall=0 calls=0"),
                                                 QStringLiteral("1:a||0 exec=3 max=0 children=0 wall=0 calls=0"),
                                                 QStringLiteral("a|\x1f" "b|0 exec=2 max=0 children=0 wall=0 calls=0"),
                                                 QStringLiteral("a\x1f|b|0 exec=1 max=0 children=0 wall=0 calls=0")}
                                  << QStringLiteral("lines=4 samples=4 other=0 malformed=0 utf8=0 timestamped=0 time=5000000000")
                                  << QStringList{};
        QTest::newRow("empty") << QByteArray() << QStringList{}
                               << QStringLiteral("lines=0 samples=0 other=0 malformed=0 utf8=0 timestamped=0 time=5000000000")
                               << QStringList{};
    }

    void parse()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, rows);
        QFETCH(QString, counts);
        QFETCH(QStringList, warnings);
        const PrometheusText::Result r = PrometheusText::parse(std::string_view(text.constData(), text.size()), kScrape);
        QCOMPARE(rowLines(r.snapshot), rows);
        QCOMPARE(::counts(r), counts);
        QCOMPARE(::warnings(r), warnings);
    }

    // 15 bad lines: all counted, the first 10 said.
    void warningsAreCapped()
    {
        QByteArray text;
        for (int k = 0; k < 15; ++k)
            text += "chronos_exec_time_total{proc=\"a\"} x\n";
        const PrometheusText::Result r = PrometheusText::parse(std::string_view(text.constData(), text.size()), kScrape);
        QCOMPARE(r.malformedLines, std::uint64_t(15));
        QCOMPARE(r.warnings.size(), std::size_t(10));
        QCOMPARE(QString::fromStdString(r.warnings.back()),
                 QStringLiteral("line 10: expected a float value (\"1.5e+09\", \"NaN\", \"+Inf\")"));
        QVERIFY(r.snapshot.rows.empty());
    }
};

QTEST_GUILESS_MAIN(TestPrometheusText)
#include "tst_prometheustext.moc"
