#include "core/formats/perfetto/perfettoencoder.h"
#include "detailspane.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QtTest>

using namespace runlane;
using namespace runlane::test;

class TestDetailsPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The selected slice's flows are links: "Caused by" the slices whose
    // flows end in it, "Causes" those its flows end in.
    void listsFlowsAsLinks_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("handle") << "handle"
                                << QStringList{"Caused by:\npost pid 1 / main, 0 ns (request)",
                                               "Causes:\nreply pid 1 / main, 700.000 µs (response)"}
                                << QStringList{};
        QTest::newRow("post") << "post" << QStringList{"Causes:\nhandle pid 1 / worker, 300.000 µs (request)"}
                              << QStringList{"Caused by:"};
        QTest::newRow("reply") << "reply" << QStringList{"Caused by:\nhandle pid 1 / worker, 300.000 µs (response)"}
                               << QStringList{"Causes:"};
    }
    void listsFlowsAsLinks()
    {
        QFETCH(QString, selected);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        document.setProfile(loadedText(requestReply()));
        const Profile& p = *document.profile();
        const IntervalId id = intervalNamed(p, selected.toStdString());
        axis.selectItem(id, p.interval(id).measurement);
        const QString text = pane.toPlainText();
        for (const QString& line : present)
            QVERIFY2(text.contains(line), qPrintable(line + QStringLiteral("\nnot in\n") + text));
        for (const QString& line : absent)
            QVERIFY2(!text.contains(line), qPrintable(line));
    }

    // The box selected in one preview of a loading file and left out of
    // the next (shorter than it keeps): the pane says so rather than "Select
    // a box", and shows the box again in the whole profile.
    void saysWhenAPreviewLeftTheSelectedBoxOut_data()
    {
        QTest::addColumn<qlonglong>("shortestKept");
        QTest::addColumn<QString>("said");
        QTest::newRow("shorter than it keeps")
            << 1'050'000LL
            << "parse, selected, is not in this preview of the file (it keeps boxes of 1.05 ms or more): it is "
               "selected again when a version that has it arrives, the whole profile at the latest.";
        QTest::newRow("a preview that keeps every box (a task over its budget)")
            << 0LL
            << "parse, selected, is not in this preview of the file: it is selected again when a version that has "
               "it arrives, the whole profile at the latest.";
    }
    void saysWhenAPreviewLeftTheSelectedBoxOut()
    {
        QFETCH(qlonglong, shortestKept);
        QFETCH(QString, said);
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        document.setProfile(loadVersion({"main", "parse"}, true));
        const IntervalId parse = intervalNamed(*document.profile(), "parse");
        axis.selectItem(parse, document.profile()->interval(parse).measurement);
        QVERIFY(pane.toPlainText().startsWith(QStringLiteral("parse")));
        document.refineProfile(loadVersion({"main"}, true, shortestKept));
        QCOMPARE(pane.toPlainText(), said);
        document.refineProfile(loadVersion({"main", "load", "parse"}, false));
        QVERIFY2(pane.toPlainText().startsWith(QStringLiteral("parse\n")), qPrintable(pane.toPlainText()));
        // Another file: nothing selected, nothing waited for.
        document.setProfile(loadVersion({"main"}, false));
        QCOMPARE(pane.toPlainText(), QStringLiteral("Select a box or a task to see its details."));
    }

    // A tokio task: its wakes and scheduling delay; a task spawned while
    // two were polled says its creator is unknown.
    void tokioTask()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        document.setProfile(loadedFile(dataPath(QStringLiteral("profiles/tokio-hand.jsonl"))));
        const Profile& p = *document.profile();
        const MeasurementId main = byName(p, "main loop");
        axis.selectItem(p.intervalsOf(main).front(), main);
        QString text = pane.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("wakes\n2 (1 self-wakes)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("sched. delay\n900 ns over 2 polls, max 500 ns")), qPrintable(text));

        auto t = [](int ns) { return "{\"secs_since_epoch\":0,\"nanos_since_epoch\":" + QByteArray::number(ns) + "}"; };
        document.setProfile(loadedText("{\"v\":1}\n"
                                       "{\"Spawn\":{\"id\":1,\"at\":" + t(0) + ",\"fields\":[]}}\n"
                                       "{\"Spawn\":{\"id\":2,\"at\":" + t(1) + ",\"fields\":[]}}\n"
                                       "{\"Enter\":{\"id\":1,\"at\":" + t(10) + "}}\n"
                                       "{\"Enter\":{\"id\":2,\"at\":" + t(20) + "}}\n"
                                       "{\"Spawn\":{\"id\":3,\"at\":" + t(25) + ",\"fields\":[]}}\n"
                                       "{\"Enter\":{\"id\":3,\"at\":" + t(26) + "}}\n"));
        const Profile& q = *document.profile();
        axis.selectItem(q.intervalsOf(2).front(), 2);
        text = pane.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("created by unknown (multi-threaded runtime)")), qPrintable(text));

        // A viztracer asyncio task without its create_task call: the file
        // does not say, and a single-threaded runtime is not the reason.
        document.setProfile(loadedText(
            "{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"tid\":7,\"name\":\"thread_name\",\"args\":{\"name\":\"Task-1\"}},"
            "{\"ph\":\"X\",\"pid\":1,\"tid\":7,\"ts\":1,\"dur\":2,\"name\":\"main (app.py:8)\"}],"
            "\"viztracer_metadata\":{}}"));
        const Profile& v = *document.profile();
        QVERIFY(v.measurement(0).isAsync());
        axis.selectItem(v.intervalsOf(0).front(), 0);
        text = pane.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("created by unknown (not recorded in the file)")), qPrintable(text));
    }

    // A Perfetto slice's debug annotations are its args, shown indented
    // under its details; a slice without them shows none.
    void showsASlicesArgs()
    {
        using namespace runlane::test::perfetto;
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        const ProtoEncoder annotation = ProtoEncoder().bytes(10, "url").bytes(6, "/a<b>");
        document.setProfile(loadedText(trace(
            {processTrack(100, 10, "app"), threadTrack(1, 10, 11, "main", 100),
             trackEvent(10, SliceBegin,
                        ProtoEncoder().varint(11, 1).bytes(23, "fetch").message(4, annotation).message(
                            4, ProtoEncoder().bytes(10, "size").varint(3, 512))),
             slice(20, SliceBegin, 1, "parse"), slice(30, SliceEnd, 1), slice(40, SliceEnd, 1)})));
        QVERIFY(document.profile());
        const Profile& p = *document.profile();
        const IntervalId fetch = intervalNamed(p, "fetch");
        axis.selectItem(fetch, p.interval(fetch).measurement);
        QString text = pane.toPlainText();
        QVERIFY2(text.endsWith(QStringLiteral("args\n{\n    \"size\": 512,\n    \"url\": \"/a<b>\"\n}")), qPrintable(text));
        QVERIFY2(pane.html().contains(QStringLiteral("/a&lt;b&gt;")), qPrintable(pane.html()));
        const IntervalId parse = intervalNamed(p, "parse");
        axis.selectItem(parse, p.interval(parse).measurement);
        QVERIFY2(!pane.toPlainText().contains(QStringLiteral("args")), qPrintable(pane.toPlainText()));
    }

    // Following a link selects that slice and zooms the shared axis to it.
    void aLinkSelectsTheOtherEnd()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        document.setProfile(loadedText(requestReply()));
        const Profile& p = *document.profile();
        const IntervalId handle = intervalNamed(p, "handle");
        const IntervalId reply = intervalNamed(p, "reply");
        axis.selectItem(handle, p.interval(handle).measurement);
        axis.setVisibleRange(p.startTime(), p.startTime() + 200000); // reply is out of view
        QSignalSpy revealed(&document, &ProfileDocument::intervalRevealed);
        QVERIFY(pane.html().contains(QStringLiteral("href=\"i:%1\"").arg(reply)));
        Q_EMIT pane.anchorClicked(QUrl(QStringLiteral("i:%1").arg(reply)));
        QCOMPARE(axis.selectedInterval(), reply);
        QCOMPARE(axis.selectedMeasurement(), p.interval(reply).measurement);
        QCOMPARE(revealed.count(), 1);
        // Zoomed to reply [700, 900) µs with a quarter of its length around
        // it, [650, 950), held within the profile's end at 900.
        QCOMPARE(axis.visibleStart() - p.startTime(), Time(600000));
        QCOMPARE(axis.visibleEnd() - p.startTime(), Time(900000));
        // The pane now shows reply, caused by handle.
        QVERIFY(pane.html().contains(QStringLiteral("href=\"i:%1\"").arg(handle)));
    }

    // A profile with frames: their statistics for the range in view, or
    // the selected one, under whatever else is shown; nothing is selected
    // and yet the pane has them to show. DrawFrames at 0, 10, 30 and 70 ms
    // (frames of 10, 20 and 40 ms: 100, 50 and 25 fps).
    void frameStatistics()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        DetailsPane pane(&document);
        document.setProfile(loadedText(R"({"traceEvents":[
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":0},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":10000},
            {"name":"DrawFrame","ph":"I","s":"t","pid":1,"tid":1,"ts":30000},
            {"name":"DrawFrame","ph":"X","pid":1,"tid":1,"ts":70000,"dur":10000}]})"));
        QVERIFY(!pane.isEmpty());
        QString text = pane.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Frames in view\nframes\n3 (DrawFrame)\n"
                                              "fps\n25.000 min, 58.333 average, 100.000 max\n"
                                              "frame time\np50 20.000, p90 40.000, p99 40.000 ms\n"
                                              "janky\n2 over 16.7 ms, 1 over 33.3 ms\n"
                                              "quality\n1 good, 1 medium, 1 bad")),
                 qPrintable(text));
        axis.setVisibleRange(5'000'000, 80'000'000);
        QVERIFY2(pane.toPlainText().contains(QStringLiteral("frames\n2 (DrawFrame)\nfps\n25.000 min, 37.500 average")),
                 qPrintable(pane.toPlainText()));
        axis.setSelection(0, 10'000'000);
        text = pane.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Frames in the selection\nframes\n1 (DrawFrame)\n"
                                              "fps\n100.000 min, 100.000 average, 100.000 max")),
                 qPrintable(text));
        // Without frames: the hint alone, the pane a strip.
        document.setProfile(loadedText(requestReply()));
        QVERIFY(pane.isEmpty());
        QVERIFY(!pane.toPlainText().contains(QStringLiteral("Frames")));
    }
};

QTEST_MAIN(TestDetailsPane)
#include "tst_detailspane.moc"
