// runlane-cli messages: the messages between processes and their round
// trips through the real binary (RUNLANE_CLI), on a hand-written and
// generated IDE + Language Server profiles.

#include "app/cli/clirun.h"
#include "ensogenerator.h"
#include "ensomessages.h"
#include "testsupport.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using runlane::test::cli;
using runlane::test::Run;
using runlane::test::writeTemp;

namespace {

// tests/ensomessages.h's two warnings.
const char* const kNoDirection =
    "BackendMessage at 0.460 ms in LanguageServer has no direction Request or Response and endpoint: not a message "
    "({\"direction\":\"Sideways\",\"request_id\":\"9\",\"endpoint\":\"file/read\"})";
const char* const kWarning =
    "response without request: file/read (request_id 9) from Engine to LanguageServer at 0.450 ms";

} // namespace

class TestMessagesCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWritten_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");
        const QString warned = QStringLiteral("runlane-cli: warning: %1\nrunlane-cli: warning: %2\n")
                                   .arg(QLatin1String(kNoDirection), QLatin1String(kWarning));
        QTest::newRow("table")
            << "table"
            << QStringLiteral(
                   "6 messages between 3 processes (Ide, LanguageServer, Engine)\n"
                   "\n"
                   "     time ms  from            to              kind          request  round trip ms  name\n"
                   "         0.1  Ide             LanguageServer  request                               executionContext/push\n"
                   "         0.2  LanguageServer  Engine          request       7        0.2            executionContext/push\n"
                   "        0.25  LanguageServer  Engine          request       8                       executionContext/push\n"
                   "         0.4  Engine          LanguageServer  response      7        0.2            executionContext/push\n"
                   "        0.45  Engine          LanguageServer  response      9                       file/read\n"
                   "         0.5  LanguageServer  Ide             notification                          ExpressionUpdates\n"
                   "\n"
                   "Round trips (a request and the response with its request_id), ms:\n"
                   "endpoint                requests  answered  unanswered         p50         p90         max\n"
                   "executionContext/push          2         1           1         0.2         0.2         0.2\n"
                   "\n"
                   "2 warnings:\n"
                   "  %1\n"
                   "  %2\n")
                   .arg(QLatin1String(kNoDirection), QLatin1String(kWarning))
            << QString();
        QTest::newRow("csv") << "csv"
                             << "time_ms,arrival_ms,from,to,kind,name,request_id,round_trip_ms\n"
                                "0.1,0.1,Ide,LanguageServer,request,executionContext/push,,\n"
                                "0.2,0.2,LanguageServer,Engine,request,executionContext/push,7,0.2\n"
                                "0.25,0.25,LanguageServer,Engine,request,executionContext/push,8,\n"
                                "0.4,0.4,Engine,LanguageServer,response,executionContext/push,7,0.2\n"
                                "0.45,0.45,Engine,LanguageServer,response,file/read,9,\n"
                                "0.5,0.5,LanguageServer,Ide,notification,ExpressionUpdates,,\n"
                             << warned;
        QTest::newRow("json")
            << "json"
            << QStringLiteral(
                   "{\"processes\":[\"Ide\",\"LanguageServer\",\"Engine\"],\n\"messages\":[\n"
                   "{\"time_ms\":0.1,\"arrival_ms\":0.1,\"from\":\"Ide\",\"to\":\"LanguageServer\",\"kind\":\"request\","
                   "\"name\":\"executionContext/push\"},\n"
                   "{\"time_ms\":0.2,\"arrival_ms\":0.2,\"from\":\"LanguageServer\",\"to\":\"Engine\",\"kind\":\"request\","
                   "\"name\":\"executionContext/push\",\"request_id\":\"7\",\"round_trip_ms\":0.2},\n"
                   "{\"time_ms\":0.25,\"arrival_ms\":0.25,\"from\":\"LanguageServer\",\"to\":\"Engine\",\"kind\":"
                   "\"request\",\"name\":\"executionContext/push\",\"request_id\":\"8\"},\n"
                   "{\"time_ms\":0.4,\"arrival_ms\":0.4,\"from\":\"Engine\",\"to\":\"LanguageServer\",\"kind\":"
                   "\"response\",\"name\":\"executionContext/push\",\"request_id\":\"7\",\"round_trip_ms\":0.2},\n"
                   "{\"time_ms\":0.45,\"arrival_ms\":0.45,\"from\":\"Engine\",\"to\":\"LanguageServer\",\"kind\":"
                   "\"response\",\"name\":\"file/read\",\"request_id\":\"9\"},\n"
                   "{\"time_ms\":0.5,\"arrival_ms\":0.5,\"from\":\"LanguageServer\",\"to\":\"Ide\",\"kind\":"
                   "\"notification\",\"name\":\"ExpressionUpdates\"}],\n"
                   "\"round_trips\":[\n"
                   "{\"endpoint\":\"executionContext/push\",\"requests\":2,\"answered\":1,\"unanswered\":1,"
                   "\"p50_ms\":0.2,\"p90_ms\":0.2,\"max_ms\":0.2}],\n"
                   "\"warnings\":[\n\"%1\",\n\"%2\"]}\n")
                   .arg(QString::fromLatin1(kNoDirection).replace(QLatin1Char('"'), QStringLiteral("\\\"")),
                        QLatin1String(kWarning))
            << warned;
    }
    void handWritten()
    {
        QFETCH(QString, format);
        QFETCH(QString, out);
        QFETCH(QString, err);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, ensoMessages(), QStringLiteral("two.json"));
        const Run run = cli({QStringLiteral("messages"), path, QStringLiteral("--format"), format});
        QCOMPARE(run.err, err);
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out, out);
    }

    // The beanpole diagram: three poles 220 units apart, an arrow per
    // message from pole to pole at its time (1 unit per ms, below a 40-unit
    // band for the names), a bracket for the answered request.
    void svgDiagram()
    {
        QTemporaryDir dir;
        const QString path = writeTemp(dir, ensoMessages(), QStringLiteral("two.json"));
        const Run run = cli({QStringLiteral("messages"), path, QStringLiteral("--format"), QStringLiteral("svg")});
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.startsWith(QStringLiteral(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"660\" height=\"80.5\" viewBox=\"0 0 660 80.5\">\n")));
        QVERIFY(run.out.endsWith(QStringLiteral("</g>\n</svg>\n")));
        QCOMPARE(run.out.count(QStringLiteral("class=\"pole\"")), 3);
        QCOMPARE(run.out.count(QStringLiteral("class=\"message\"")), 6);
        QCOMPARE(run.out.count(QStringLiteral("class=\"roundtrip\"")), 1);
        QVERIFY(run.out.contains(QStringLiteral(
            "<line class=\"message\" x1=\"330\" y1=\"40.2\" x2=\"550\" y2=\"40.2\" stroke=\"#333\" marker-end=\"url(#arrow)\"/>"
            "<text x=\"440\" y=\"38.2\" text-anchor=\"middle\">executionContext/push</text>\n"
            "<path class=\"roundtrip\" d=\"M 330 40.2 H 322 V 40.4 H 330\" fill=\"none\" stroke=\"#c60\"/>"
            "<text x=\"319\" y=\"40.3\" text-anchor=\"end\" fill=\"#c60\">0.2 ms</text>\n")));
        // One grid line (at 0 ms) in a profile of 1 ms.
        QCOMPARE(run.out.count(QStringLiteral("stroke=\"#ddd\"")), 1);
    }

    // Generated IDE + Language Server profiles: the messages per pair of
    // processes, the round trips per endpoint and the diagram's grid, as
    // the generator wrote them.
    void generated_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::newRow("seed 1") << quint64(1);
        QTest::newRow("seed 2") << quint64(2);
    }
    void generated()
    {
        QFETCH(quint64, seed);
        runlane::test::EnsoGenOptions options;
        options.seed = seed;
        options.tasks = 120;
        runlane::test::EnsoGenTruth truth;
        QTemporaryDir dir;
        const QString path = writeTemp(dir, QByteArray::fromStdString(runlane::test::EnsoGenerator::profile(options, &truth)),
                                       QStringLiteral("ide.json"));
        const Run csv = cli({QStringLiteral("messages"), path, QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.err, QString());
        QCOMPARE(csv.code, 0);
        std::map<QString, int> pairs;
        std::map<QString, int> expected;
        for (const runlane::test::EnsoGenMessage& m : truth.messages)
            ++expected[QString::fromStdString(m.from + ">" + m.to)];
        const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1);
        for (const QString& line : lines) {
            const QStringList fields = line.split(QLatin1Char(','));
            ++pairs[fields[2] + QLatin1Char('>') + fields[3]];
        }
        QCOMPARE(pairs, expected);
        QCOMPARE(lines.size(), qsizetype(truth.messages.size()));

        // The round trips: requests, answered, unanswered and max per endpoint.
        const Run table = cli({QStringLiteral("messages"), path});
        QCOMPARE(table.code, 0);
        for (const auto& [endpoint, trips] : truth.roundTrips) {
            const std::uint64_t max = *std::max_element(trips.begin(), trips.end());
            const QRegularExpression row(QStringLiteral("\n%1 +%2 +%2 +0 +\\S+ +\\S+ +%3\n")
                                             .arg(QRegularExpression::escape(QString::fromStdString(endpoint)))
                                             .arg(trips.size())
                                             .arg(QString::number(double(max) / 1000.0, 'f', 3).remove(QRegularExpression(QStringLiteral("\\.?0+$")))));
            QVERIFY2(row.match(table.out).hasMatch(), qPrintable(table.out));
        }

        // A grid line every 100 ms down to the last message.
        const Run svg = cli({QStringLiteral("messages"), path, QStringLiteral("--format"), QStringLiteral("svg")});
        QCOMPARE(svg.code, 0);
        QCOMPARE(svg.out.count(QStringLiteral("class=\"message\"")), qsizetype(truth.messages.size()));
        const std::uint64_t last = truth.messages.back().at - truth.spanStart; // µs from the profile's start
        QCOMPARE(svg.out.count(QStringLiteral("stroke=\"#ddd\"")), qsizetype(last / 100000 + 1));
        QVERIFY(last > 200000);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("err");
        const QByteArray enso = ensoMessages();
        QTest::newRow("unknown format") << enso << QStringList{"FILE", "--format", "png"} << 2
                                        << "runlane-cli: unknown --format 'png' (table, csv, json, svg) (see --help)\n";
        QTest::newRow("no file") << enso << QStringList{} << 2 << "runlane-cli: missing the profile file (see --help)\n";
        // A flow from pid 1 to pid 2 arriving 11 min after the start: a page 660,000 units tall.
        QTest::newRow("svg over 10 min")
            << QByteArray(R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"a","ts":0,"dur":10},)"
                          R"({"ph":"s","pid":1,"tid":1,"name":"f","id":1,"ts":5},)"
                          R"({"ph":"X","pid":2,"tid":2,"name":"b","ts":660000000,"dur":10},)"
                          R"({"ph":"f","pid":2,"tid":2,"name":"f","id":1,"ts":660000005,"bp":"e"}]})")
            << QStringList{"FILE", "--format", "svg"} << 3
            << "runlane-cli: the messages span 660 s from the profile's start: a beanpole diagram at 1 ms per unit is "
               "drawn for up to 600 s (use --format csv or json)\n";
    }
    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, err);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, json, QStringLiteral("profile.json"));
        args.replaceInStrings(QStringLiteral("FILE"), path);
        const Run run = cli(QStringList{QStringLiteral("messages")} + args);
        QCOMPARE(run.out, QString());
        QCOMPARE(run.err, err);
        QCOMPARE(run.code, code);
    }
};

QTEST_GUILESS_MAIN(TestMessagesCommand)
#include "tst_messagescommand.moc"
