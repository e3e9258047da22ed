#include "diagnostics.h"
#include "loaderror.h"
#include "queryrangereader.h"
#include "snapshotsupport.h"

#include <QtTest>

using namespace runlane;

namespace {

// "t: proc|file|line exec=.. max=.. children=.. wall=.. calls=..; ..." a snapshot.
QStringList describe(const std::vector<ScrapedSnapshot>& snapshots)
{
    QStringList out;
    for (const ScrapedSnapshot& s : snapshots) {
        const QStringList rows = runlane::test::rowLines(s);
        out << QString::number(s.time) + QStringLiteral(": ") + rows.join(QStringLiteral("; "));
    }
    return out;
}

const QByteArray kMatrix = R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"__name__":"chronos_exec_time_total","proc":"a","file":"x.nim","line":"1","instance":"h:8008"},  "values":[[1732500000.123,"1000"],[1732500001,"1500"]]}, {"metric":{"__name__":"chronos_exec_time_with_children_total","proc":"a","file":"x.nim","line":"1"},  "values":[[1732500000.123,"1200"],[1732500001,"1600"]]}, {"metric":{"__name__":"chronos_call_count_total","proc":"b","file":"y.nim","line":"7"},  "values":[[1732500001,"3"],[1732500002.5,"4"]]}, {"metric":{"__name__":"up","job":"x"},"values":[[1732500000.123,"1"]]}]}})";

const QStringList kMatrixSnapshots{
    QStringLiteral("1732500000123000000: a|x.nim|1 exec=1000 max=0 children=200 wall=0 calls=0"),
    QStringLiteral("1732500001000000000: a|x.nim|1 exec=1500 max=0 children=100 wall=0 calls=0; "
                   "b|y.nim|7 exec=0 max=0 children=0 wall=0 calls=3"),
    QStringLiteral("1732500002500000000: b|y.nim|7 exec=0 max=0 children=0 wall=0 calls=4"),
};

} // namespace

class TestQueryRangeReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void read_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("snapshots");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<int>("otherSeries");

        QTest::newRow("matrix") << kMatrix << kMatrixSnapshots << 0 << 1;
        // "metric" after "values", "status" last, "result" before "resultType".
        QTest::newRow("keysOutOfOrder")
            << QByteArray(R"({"data":{"result":[ {"values":[[1732500001,"1600"],[1732500000.123,"1200"]],  "metric":{"line":"1","file":"x.nim","proc":"a","__name__":"chronos_exec_time_with_children_total"}}, {"values":[[1732500002.5,"4"],[1732500001,"3"]],"metric":{"proc":"b","__name__":"chronos_call_count_total","line":"7","file":"y.nim"}}, {"values":[[1732500000.123,"1000"],[1732500001,"1500"]],"metric":{"proc":"a","file":"x.nim","line":"1","__name__":"chronos_exec_time_total"}}, {"values":[[1732500000.123,"1"]],"metric":{"job":"x","__name__":"up"}}], "resultType":"matrix"},"status":"success"})")
            << kMatrixSnapshots << 0 << 1;
        // /api/v1/query: one value per series.
        QTest::newRow("vector")
            << QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[ {"metric":{"__name__":"chronos_wall_time_total","proc":"p","file":"f.nim","line":"12"},"value":[1732500000.5,"7.7e+02"]}, {"metric":{"__name__":"chronos_single_exec_time_max","proc":"p","file":"f.nim","line":"12"},"value":[1732500000.5,"30"]}]}})")
            << QStringList{QStringLiteral("1732500000500000000: p|f.nim|12 exec=0 max=30 children=0 wall=770 calls=0")} << 0
            << 0;
        // Nanoseconds exactly from the text, not through a double.
        QTest::newRow("exactNs")
            << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"__name__":"chronos_exec_time_total","proc":"a"},"values":[[1732500000.123456789,"1"],[1732500000.1234567891,"2"],[1.7325e9,"3"]]}]}})")
            << QStringList{QStringLiteral("1732500000000000000: a||0 exec=3 max=0 children=0 wall=0 calls=0"),
                           QStringLiteral("1732500000123456789: a||0 exec=2 max=0 children=0 wall=0 calls=0")}
            << 0 << 0;
        // NaN and ±Inf: the proc is there, the field 0, a warning each;
        // a value that is no number leaves the sample out.
        QTest::newRow("nanValues")
            << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"__name__":"chronos_exec_time_total","proc":"a"},"values":[[10,"NaN"],[11,"+Inf"],[12,"-Inf"],[13,"5"],[14,"x"]]}]}, "warnings":["query was slow"]})")
            << QStringList{QStringLiteral("10000000000: a||0 exec=0 max=0 children=0 wall=0 calls=0"),
                           QStringLiteral("11000000000: a||0 exec=0 max=0 children=0 wall=0 calls=0"),
                           QStringLiteral("12000000000: a||0 exec=0 max=0 children=0 wall=0 calls=0"),
                           QStringLiteral("13000000000: a||0 exec=5 max=0 children=0 wall=0 calls=0")}
            << 5 << 0;
        // Whatever else a response holds is skipped, however deep.
        QTest::newRow("otherKeys")
            << QByteArray(R"({"status":"success","stats":{"timings":{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}},"data":{"resultType":"matrix","result":[{"metric":{"__name__":"chronos_exec_time_total","proc":"a","extra":{"x":[{"y":"z"}]}},"values":[[1,"2"]],"histograms":[[1,{"count":"1"}]]}]},"infos":["i"]})")
            << QStringList{QStringLiteral("1000000000: a||0 exec=2 max=0 children=0 wall=0 calls=0")} << 0 << 0;
        QTest::newRow("emptyResult") << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[]}})")
                                     << QStringList{} << 0 << 0;
    }

    void read()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, snapshots);
        QFETCH(int, warnings);
        QFETCH(int, otherSeries);
        Diagnostics d;
        QCOMPARE(describe(QueryRangeReader::parse(json, d)), snapshots);
        QCOMPARE(d.warningCount(), std::uint64_t(warnings));
        QCOMPARE(d.skippedCount(), std::uint64_t(otherSeries));
    }

    void warningsSaid()
    {
        Diagnostics d;
        QueryRangeReader::parse(R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"__name__":"chronos_exec_time_total","proc":"a"},"values":[[10,"NaN"],[14,"x"]]}]}, "warnings":["query was slow"]})",
                                d);
        QCOMPARE(d.examples(), (std::vector<std::string>{
                                   "series #0: a sample that is not [seconds, \"value\"] is left out (byte 142)",
                                   "chronos_exec_time_total{proc=\"a\"} is NaN at 10000000000 ns; taken as 0",
                                   "Prometheus warned: query was slow",
                               }));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");

        QTest::newRow("errorStatus")
            << QByteArray(R"({"status":"error","errorType":"bad_data","error":"invalid parameter query: 1:1: parse error"})")
            << QStringLiteral("Prometheus answered with an error: bad_data: invalid parameter query: 1:1: parse error");
        QTest::newRow("noStatus") << QByteArray(R"({"data":{"resultType":"matrix","result":[]}})")
                                  << QStringLiteral("not a Prometheus API response: it has no \"status\"");
        QTest::newRow("scalar") << QByteArray(R"({"status":"success","data":{"resultType":"scalar","result":[1,"2"]}})")
                                << QStringLiteral("resultType 'scalar' has no series of Chroprof's gauges (a \"matrix\" or a \"vector\" is needed)");
        QTest::newRow("array") << QByteArray(R"([{"status":"success"}])")
                               << QStringLiteral("expected a Prometheus API response, a JSON object {\"status\", \"data\"}");
        QTest::newRow("syntax") << QByteArray(R"({"status":"success","data":{"result":[}})")
                                << QStringLiteral("invalid JSON: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal");
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        Diagnostics d;
        try {
            QueryRangeReader::parse(json, d);
            QFAIL("no error");
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
    }
};

QTEST_GUILESS_MAIN(TestQueryRangeReader)
#include "tst_queryrangereader.moc"
