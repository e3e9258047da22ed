// The Enso Language Server's CSV message log (formats.md (n)): opened alone
// it is the LanguageServer process the Enso reader makes of the array
// Enso's api_events_to_profile writes for it, mark for mark; added to an
// IDE profile it is that process beside the IDE's, on the epoch clock, so
// that the messages between the processes are those of the multi-array
// profile. Lines that are not messages are warnings naming them.
#include "ensogenerator.h"
#include "ensomessageline.h"
#include "formatregistry.h"
#include "processmessages.h"
#include "profileloader.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <utility>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr Time us = 1000;

// (time, payload) of every BackendMessage of the process named LanguageServer.
std::vector<std::pair<Time, std::string>> backendMessages(const Profile& p)
{
    std::vector<std::pair<Time, std::string>> found;
    for (const Mark& mark : p.marks()) {
        if (p.string(mark.name) == "BackendMessage" && p.string(p.track(mark.track).name) == "LanguageServer")
            found.emplace_back(mark.time, std::string(p.string(mark.detail)));
    }
    return found;
}

// Messages per (from, to) process name.
std::map<std::pair<std::string, std::string>, int> perPair(const ProcessMessages& messages)
{
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const ProcessMessages::Message& m : messages.messages())
        ++counts[{messages.processes()[m.from], messages.processes()[m.to]}];
    return counts;
}

std::map<std::pair<std::string, std::string>, int> perPair(const std::vector<EnsoGenMessage>& messages)
{
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const EnsoGenMessage& m : messages)
        ++counts[{m.from, m.to}];
    return counts;
}

// A log with a request without id, a quoted endpoint holding a comma, a
// quote and a backslash, a non-ASCII endpoint and nanoseconds; and the
// array api_events_to_profile makes of it (escaped strings: moc does not
// read raw strings with backslashes).
QByteArray handWrittenLog()
{
    return "2022-04-25T15:32:21.301300Z,Request,,\"a,\"\"b\"\"\\c\"\n"
           "2022-04-25T15:32:21.401300123Z,Response,7,s\xC3\xBC\n";
}

QByteArray handWrittenArray()
{
    return "[{\"X\":{\"t\":0,\"d\":{\"$Process\":\"LanguageServer\"}}},{\"X\":{\"t\":0,\"d\":{\"$TimeOffset\":0}}},\n"
           "{\"X\":{\"t\":1650900741301300,\"d\":{\"BackendMessage\":{\"direction\":\"Request\",\"request_id\":null,"
           "\"endpoint\":\"a,\\\"b\\\"\\\\c\"}}}},\n"
           "{\"X\":{\"t\":1650900741401300,\"d\":{\"BackendMessage\":{\"direction\":\"Response\",\"request_id\":\"7\","
           "\"endpoint\":\"s\xC3\xBC\"}}}}]\n";
}

LoadResult loadFile(QTemporaryDir& dir, const QByteArray& text, const QString& name,
                    std::vector<ProfileAddition> additions = {})
{
    LoadControl control;
    control.additions = std::move(additions);
    return ProfileLoader::load(writeTemp(dir, text, name), control);
}

} // namespace

class TestEnsoMessagesLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timestamps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("micros");
        const qint64 t = 1650900741301300; // 2022-04-25T15:32:21.301300Z
        QTest::newRow("Enso's") << "2022-04-25T15:32:21.301300Z" << true << t;
        QTest::newRow("space, lower z") << "2022-04-25 15:32:21.301300z" << true << t;
        QTest::newRow("offset east") << "2022-04-25T17:32:21.301300+02:00" << true << t;
        QTest::newRow("offset west, no colon") << "2022-04-25T10:02:21.301300-0530" << true << t;
        QTest::newRow("nanoseconds dropped") << "2022-04-25T15:32:21.301300999Z" << true << t;
        QTest::newRow("milliseconds") << "2022-04-25T15:32:21.3Z" << true << t - 1300;
        QTest::newRow("no fraction") << "2022-04-25T15:32:21Z" << true << t - 301300;
        QTest::newRow("leap day") << "2024-02-29T00:00:00Z" << true << qint64(1709164800) * 1000000;
        QTest::newRow("the epoch") << "1970-01-01T00:00:00Z" << true << qint64(0);
        QTest::newRow("no leap day") << "2023-02-29T00:00:00Z" << false << qint64(0);
        QTest::newRow("month 13") << "2022-13-25T15:32:21Z" << false << qint64(0);
        QTest::newRow("hour 24") << "2022-04-25T24:00:00Z" << false << qint64(0);
        QTest::newRow("no offset") << "2022-04-25T15:32:21.301300" << false << qint64(0);
        QTest::newRow("empty fraction") << "2022-04-25T15:32:21.Z" << false << qint64(0);
        QTest::newRow("before 1970") << "1969-12-31T23:59:59Z" << false << qint64(0);
        QTest::newRow("trailing text") << "2022-04-25T15:32:21Z junk" << false << qint64(0);
        QTest::newRow("seconds since the epoch") << "1650900741.3013" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
    }
    void timestamps()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, micros);
        std::uint64_t read = 0;
        QCOMPARE(EnsoMessageLine::parseTimestamp(text.toStdString(), read), ok);
        if (ok)
            QCOMPARE(qint64(read), micros);
    }

    // Detected by content whatever the name; other CSV is not a log.
    void detection_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("format");
        QTest::newRow("a log") << QByteArray("2022-04-25T15:32:21.301300Z,Request,1,text/openFile\n") << "ensomessages";
        QTest::newRow("CRLF, BOM, null request id")
            << QByteArray("\xEF\xBB\xBF" "2022-04-25T15:32:21.301300Z,Response,,text/openFile\r\n") << "ensomessages";
        QTest::newRow("no line end") << QByteArray("2022-04-25T15:32:21.301300Z,Request,1,a") << "ensomessages";
        QTest::newRow("unknown direction") << QByteArray("2022-04-25T15:32:21.301300Z,Notification,1,a\n") << "";
        QTest::newRow("a header line") << QByteArray("timestamp,direction,request_id,endpoint\n") << "";
        QTest::newRow("five fields") << QByteArray("2022-04-25T15:32:21.301300Z,Request,1,a,b\n") << "";
    }
    void detection()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, format);
        const FormatRegistry::Detection detected
            = FormatRegistry::detect(std::string_view(text.constData(), std::size_t(text.size())), true);
        QCOMPARE(detected.format ? QString::fromUtf8(detected.format->id().data(), qsizetype(detected.format->id().size()))
                                 : QString(),
                 format);
    }

    // The log alone is the LanguageServer array api_events_to_profile
    // writes for it ($Process LanguageServer, $TimeOffset 0): the same
    // marks at the same times with the same payloads, in the same track.
    void sameAsTheEnsoArray_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QByteArray>("array");
        for (const quint64 seed : {1, 2, 3}) {
            EnsoGenOptions options;
            options.seed = seed;
            options.tasks = 150;
            EnsoGenTruth truth;
            const std::string both = EnsoGenerator::profile(options, &truth);
            const std::size_t ls = both.find("[\n{\"X\":{\"t\":0,\"d\":{\"$Process\":\"LanguageServer\"");
            QVERIFY(ls != std::string::npos);
            QTest::addRow("generated, seed %llu", static_cast<unsigned long long>(seed))
                << QByteArray::fromStdString(truth.messageLog) << QByteArray::fromStdString(both.substr(ls));
        }
        QTest::newRow("null request id, quoted endpoint, escapes") << handWrittenLog() << handWrittenArray();
    }
    void sameAsTheEnsoArray()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QByteArray, array);
        QTemporaryDir dir;
        const LoadResult fromCsv = loadFile(dir, csv, QStringLiteral("messages.json"));
        QVERIFY2(fromCsv.ok(), fromCsv.error.toString().c_str());
        const LoadResult fromArray = loadFile(dir, array, QStringLiteral("messages-profile.json"));
        QVERIFY2(fromArray.ok(), fromArray.error.toString().c_str());
        const Profile& p = *fromCsv.profile;
        QCOMPARE(p.formatName(), std::string_view("Enso Language Server message log"));
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        QCOMPARE(p.trackCount(), std::size_t(1));
        QCOMPARE(p.trackCount(), fromArray.profile->trackCount());
        QCOMPARE(p.track(0).pid, fromArray.profile->track(0).pid);
        QCOMPARE(p.string(p.track(0).processName), std::string_view("LanguageServer"));
        QCOMPARE(p.startTime(), fromArray.profile->startTime());
        QCOMPARE(p.endTime(), fromArray.profile->endTime());
        const auto marks = backendMessages(p);
        QVERIFY(!marks.empty());
        QCOMPARE(marks, backendMessages(*fromArray.profile));
    }

    // Each bad line is a warning that names it; the others are kept. No
    // message at all is an error.
    void badLines_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<int>("marks");
        QTest::addColumn<QString>("firstWarning"); // or the error
        const QByteArray good = "2022-04-25T15:32:21.301300Z,Request,1,text/openFile\n";
        QTest::newRow("bad timestamp") << good + "2022-04-25T25:00:00Z,Response,1,text/openFile\n" + good << 2
                                       << "line 2: bad timestamp '2022-04-25T25:00:00Z', expected UTC date and time "
                                          "such as 2022-04-25T15:32:21.301300Z; the line is skipped";
        QTest::newRow("unknown direction") << good + good + "\n2022-04-25T15:32:22Z,Notification,,x\n" << 2
                                           << "line 4: unknown direction 'Notification', expected Request or Response; "
                                              "the line is skipped";
        QTest::newRow("lower-case direction") << "2022-04-25T15:32:22Z,request,,x\n" + good << 1
                                              << "line 1: unknown direction 'request', expected Request or Response; "
                                                 "the line is skipped";
        QTest::newRow("three fields") << good + "2022-04-25T15:32:22Z,Request,1\n" << 1
                                      << "line 2: 3 fields, expected 4 (timestamp,direction,request_id,endpoint); "
                                         "the line is skipped";
        QTest::newRow("after 2262") << good + "2263-01-01T00:00:00Z,Request,1,a\n" << 1
                                    << "line 2: timestamp out of range (after the year 2262); the line is skipped";
        QTest::newRow("a line of text") << QByteArray("2022-04-25T15:32:21Z,Request,1,a\nnot a log\n") << 1
                                        << "line 2: 1 field, expected 4 (timestamp,direction,request_id,endpoint); "
                                           "the line is skipped";
        QTest::newRow("only bad lines, forced") << QByteArray("x,Request,1,a\n\ny,Response,2,b\n") << -1
                                                << "none of its 2 lines is a message (line 1: bad timestamp 'x', "
                                                   "expected UTC date and time such as 2022-04-25T15:32:21.301300Z; "
                                                   "the line is skipped)";
    }
    void badLines()
    {
        QFETCH(QByteArray, csv);
        QFETCH(int, marks);
        QFETCH(QString, firstWarning);
        QTemporaryDir dir;
        const QString path = writeTemp(dir, csv, QStringLiteral("ls.csv"));
        const LoadResult r = ProfileLoader::load(path, {}, FormatRegistry::find("ensomessages"));
        if (marks < 0) {
            QVERIFY(!r.ok());
            QCOMPARE(QString::fromStdString(r.error.message), firstWarning);
            return;
        }
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(int(r.profile->marks().size()), marks);
        QCOMPARE(r.profile->diagnostics().warningCount(), std::uint64_t(1));
        QCOMPARE(r.profile->diagnostics().warningKinds().at("bad message line"), std::uint64_t(1));
        QCOMPARE(QString::fromStdString(r.profile->diagnostics().firstMessage("bad message line")), firstWarning);
    }

    // The IDE's profile with the log added: the messages between every
    // pair of processes are those the generator wrote, as in the profile
    // that holds both arrays, and the round trips per endpoint too.
    void addedToTheIdeProfile_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("tasks");
        for (const quint64 seed : {1, 2, 3})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed << int(60 * seed);
    }
    void addedToTheIdeProfile()
    {
        QFETCH(quint64, seed);
        QFETCH(int, tasks);
        EnsoGenOptions options;
        options.seed = seed;
        options.tasks = tasks;
        EnsoGenTruth truth;
        const std::string both = EnsoGenerator::profile(options, &truth);
        options.languageServer = false;
        const std::string ide = EnsoGenerator::profile(options);
        QTemporaryDir dir;
        const QString log = writeTemp(dir, QByteArray::fromStdString(truth.messageLog), QStringLiteral("messages.csv"));
        const LoadResult merged = loadFile(dir, QByteArray::fromStdString(ide), QStringLiteral("ide.json"),
                                           {ProfileAddition{log.toStdString(), std::nullopt}});
        QVERIFY2(merged.ok(), merged.error.toString().c_str());
        const LoadResult whole = loadFile(dir, QByteArray::fromStdString(both), QStringLiteral("both.json"));
        QVERIFY2(whole.ok(), whole.error.toString().c_str());
        const Profile& p = *merged.profile;
        QCOMPARE(p.diagnostics().warningCount(), std::uint64_t(0));
        QCOMPARE(p.addedFiles().size(), std::size_t(1));
        QCOMPARE(p.addedFiles()[0].format, std::string("Enso Language Server message log"));
        QCOMPARE(p.addedFiles()[0].pid, std::int64_t(1));
        QCOMPARE(p.trackCount(), std::size_t(2));
        QCOMPARE(p.string(p.track(1).name), std::string_view("LanguageServer"));
        QCOMPARE(p.startTime(), Time(truth.spanStart) * us);
        QCOMPARE(p.endTime(), Time(truth.spanEnd) * us);
        QCOMPARE(backendMessages(p), backendMessages(*whole.profile));

        const ProcessMessages messages = ProcessMessages::of(p);
        QCOMPARE(messages.processes(), (std::vector<std::string>{"Ide", "LanguageServer", "Engine"}));
        const auto expected = perPair(truth.messages);
        QCOMPARE(expected.size(), std::size_t(4)); // Ide -> LS, LS -> Engine, Engine -> LS, LS -> Ide
        QCOMPARE(perPair(messages), expected);
        QCOMPARE(perPair(messages), perPair(ProcessMessages::of(*whole.profile)));
        QCOMPARE(messages.messages().size(), truth.messages.size());
        for (std::size_t k = 0; k < truth.messages.size(); ++k) {
            QCOMPARE(messages.messages()[k].time, Time(truth.messages[k].at) * us);
            QCOMPARE(messages.messages()[k].name, truth.messages[k].name);
        }
        std::map<std::string, std::uint64_t> roundTrips;
        for (const ProcessMessages::RoundTrips& r : messages.roundTrips())
            roundTrips[r.endpoint] = r.answered;
        std::map<std::string, std::uint64_t> written;
        for (const auto& [endpoint, times] : truth.roundTrips)
            written[endpoint] = times.size();
        QCOMPARE(roundTrips, written);
    }

    // An IDE profile with the log added twice has two LanguageServer
    // processes; a trace that is no Enso profile takes it too (the user
    // knows their clocks), under the next pid.
    void addedUnderTheNextPid()
    {
        QTemporaryDir dir;
        const QString log = writeTemp(dir, "2022-04-25T15:32:21.301300Z,Request,1,a\n", QStringLiteral("ls.csv"));
        const QByteArray trace = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":41,\"tid\":7,\"ts\":0,\"dur\":5}]}";
        const LoadResult r = loadFile(dir, trace, QStringLiteral("trace.json"),
                                      {ProfileAddition{log.toStdString(), std::nullopt},
                                       ProfileAddition{log.toStdString(), std::nullopt}});
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.profile->addedFiles().size(), std::size_t(2));
        QCOMPARE(r.profile->addedFiles()[0].pid, std::int64_t(42));
        QCOMPARE(r.profile->addedFiles()[1].pid, std::int64_t(43));
        QCOMPARE(r.profile->marks().size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestEnsoMessagesLoader)
#include "tst_ensomessagesloader.moc"
