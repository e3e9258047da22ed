#include "ensogenerator.h"
#include "ensomessages.h"
#include "processmessages.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <tuple>

using namespace runlane;
using runlane::test::loadText;

namespace {

constexpr Time us = 1000;

using Row = std::tuple<Time, std::string, std::string, std::string, std::string>;

// A message as (time, from, to, name, request id), sorted: ties in time
// may be in either order.
std::vector<Row> rows(const ProcessMessages& m)
{
    std::vector<Row> out;
    for (const ProcessMessages::Message& x : m.messages())
        out.emplace_back(x.time, m.processes()[x.from], m.processes()[x.to], x.name, x.requestId);
    std::sort(out.begin(), out.end());
    return out;
}


} // namespace

class TestProcessMessages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // tests/ensomessages.h's two processes.
    void handWritten()
    {
        const LoadResult r = loadText(ensoMessages());
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const ProcessMessages m = ProcessMessages::of(*r.profile);
        QCOMPARE(m.processes(), (std::vector<std::string>{"Ide", "LanguageServer", "Engine"}));
        const Time t0 = 1'000'000 * us;
        const std::vector<Row> expected{
            {t0 + 100 * us, "Ide", "LanguageServer", "executionContext/push", ""},
            {t0 + 200 * us, "LanguageServer", "Engine", "executionContext/push", "7"},
            {t0 + 250 * us, "LanguageServer", "Engine", "executionContext/push", "8"},
            {t0 + 400 * us, "Engine", "LanguageServer", "executionContext/push", "7"},
            {t0 + 450 * us, "Engine", "LanguageServer", "file/read", "9"},
            {t0 + 500 * us, "LanguageServer", "Ide", "ExpressionUpdates", ""},
        };
        QCOMPARE(rows(m), expected);
        // 7's request and response are paired both ways.
        QCOMPARE(m.messages()[1].pairedWith, 3u);
        QCOMPARE(m.messages()[3].pairedWith, 1u);
        QCOMPARE(m.messages()[2].pairedWith, kNone);
        QCOMPARE(m.messages()[0].kind, ProcessMessages::Kind::Request);
        QCOMPARE(m.messages()[5].kind, ProcessMessages::Kind::Notification);
        QCOMPARE(m.roundTrips().size(), std::size_t(1));
        const ProcessMessages::RoundTrips& push = m.roundTrips()[0];
        QCOMPARE(push.endpoint, std::string("executionContext/push"));
        QCOMPARE(push.requests, 2u);
        QCOMPARE(push.answered, 1u);
        QCOMPARE(push.unanswered(), 1u);
        QCOMPARE(push.p50, 200 * us);
        QCOMPARE(push.p90, 200 * us);
        QCOMPARE(push.max, 200 * us);
        QCOMPARE(m.unmatchedResponses(), 1u);
        QCOMPARE(m.warnings(),
                 (std::vector<std::string>{
                     "BackendMessage at 0.460 ms in LanguageServer has no direction Request or Response and endpoint: "
                     "not a message ({\"direction\":\"Sideways\",\"request_id\":\"9\",\"endpoint\":\"file/read\"})",
                     "response without request: file/read (request_id 9) from Engine to LanguageServer at 0.450 ms"}));
    }

    // Chrome flows: only those between processes are messages.
    void chromeFlowsBetweenProcesses()
    {
        const LoadResult r = loadText(R"({"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"browser"}},
{"ph":"M","pid":2,"name":"process_name","args":{"name":"renderer"}},
{"ph":"X","pid":1,"tid":1,"name":"post","ts":0,"dur":100},
{"ph":"s","pid":1,"tid":1,"name":"ipc","id":1,"ts":50},
{"ph":"X","pid":2,"tid":5,"name":"handle","ts":300,"dur":200},
{"ph":"f","pid":2,"tid":5,"name":"ipc","id":1,"ts":350,"bp":"e"},
{"ph":"s","pid":2,"tid":5,"id":2,"name":"local","ts":400},
{"ph":"X","pid":2,"tid":6,"name":"work","ts":600,"dur":100},
{"ph":"f","pid":2,"tid":6,"id":2,"name":"local","ts":650,"bp":"e"}]})");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->flows().size(), std::size_t(2));
        const ProcessMessages m = ProcessMessages::of(*r.profile);
        QCOMPARE(m.processes(), (std::vector<std::string>{"browser", "renderer"}));
        QCOMPARE(m.messages().size(), std::size_t(1));
        const ProcessMessages::Message& x = m.messages()[0];
        QCOMPARE(x.kind, ProcessMessages::Kind::Flow);
        QCOMPARE(x.time, 0 * us);
        QCOMPARE(x.arrival, 300 * us);
        QCOMPARE(x.name, std::string("ipc"));
        QCOMPARE(m.roundTrips().size(), std::size_t(0));
    }

    // Generated IDE + Language Server profiles: every message and round
    // trip the generator wrote.
    void generated_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("tasks");
        QTest::addColumn<bool>("languageServer");
        for (const quint64 seed : {1, 2, 3, 4})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed << int(40 * seed) << true;
        QTest::newRow("IDE only") << quint64(5) << 100 << false;
    }
    void generated()
    {
        QFETCH(quint64, seed);
        QFETCH(int, tasks);
        QFETCH(bool, languageServer);
        test::EnsoGenOptions options;
        options.seed = seed;
        options.tasks = tasks;
        options.languageServer = languageServer;
        test::EnsoGenTruth truth;
        const LoadResult r = loadText(QByteArray::fromStdString(test::EnsoGenerator::profile(options, &truth)));
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const ProcessMessages m = ProcessMessages::of(*r.profile);
        std::vector<Row> expected;
        for (const test::EnsoGenMessage& x : truth.messages)
            expected.emplace_back(Time(x.at) * us, x.from, x.to, x.name, x.requestId);
        std::sort(expected.begin(), expected.end());
        QVERIFY(expected.size() >= 8);
        QCOMPARE(rows(m), expected);
        QCOMPARE(m.warnings(), std::vector<std::string>{});
        QCOMPARE(m.roundTrips().size(), truth.roundTrips.size());
        std::size_t k = 0;
        for (auto& [endpoint, written] : truth.roundTrips) {
            std::sort(written.begin(), written.end());
            const ProcessMessages::RoundTrips& row = m.roundTrips()[k++];
            QCOMPARE(row.endpoint, endpoint);
            QCOMPARE(row.requests, written.size());
            QCOMPARE(row.unanswered(), 0u);
            // Nearest rank: the ceil(p × n)-th smallest.
            QCOMPARE(row.p50, Time(written[(written.size() * 50 + 99) / 100 - 1]) * us);
            QCOMPARE(row.p90, Time(written[(written.size() * 90 + 99) / 100 - 1]) * us);
            QCOMPARE(row.max, Time(written.back()) * us);
        }
    }
};

QTEST_GUILESS_MAIN(TestProcessMessages)
#include "tst_processmessages.moc"
