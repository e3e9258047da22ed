#include "detailspane.h"
#include "ensogenerator.h"
#include "messagesstate.h"
#include "messagesview.h"
#include "profiledocument.h"
#include "profileview.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QPainter>
#include <QStyle>
#include <QtTest>

#include <numeric>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kTimeWidth = 600;
constexpr Time us = 1000;

// An IDE task over [0, 4n) µs and a Language Server log (absolute µs, as
// formats.md (n)) of n requests to the Engine: request k at 4k + 1 µs and
// its response at 4k + 3 µs, request id k, endpoint "a" for even k and "b"
// for odd k.
QByteArray backendLog(int n)
{
    // Plain strings, not raw ones: moc reads this file.
    QByteArray text = "[\n"
                      "{\"X\":{\"t\":0,\"d\":{\"$Process\":\"Ide\"}}},\n"
                      "{\"X\":{\"t\":0,\"d\":{\"$TimeOffset\":0}}},\n"
                      "{\"L\":{\"l\":\"task (a.rs:1)\"}},\n"
                      "{\"C\":{\"p\":-1,\"t\":0,\"l\":0}},\n"
                      "{\"S\":{\"i\":0,\"t\":0}},\n"
                      "{\"E\":{\"i\":0,\"t\":"
        + QByteArray::number(4 * n)
        + "}}\n]\n[\n"
          "{\"X\":{\"t\":0,\"d\":{\"$Process\":\"LanguageServer\"}}},\n"
          "{\"X\":{\"t\":0,\"d\":{\"$TimeOffset\":0}}}";
    for (int k = 0; k < n; ++k) {
        const QByteArray id = QByteArray::number(k);
        const QByteArray endpoint = k % 2 == 0 ? "a" : "b";
        for (const auto& [at, direction] : {std::pair(4 * k + 1, "Request"), std::pair(4 * k + 3, "Response")})
            text += ",\n{\"X\":{\"t\":" + QByteArray::number(at) + ",\"d\":{\"BackendMessage\":{\"direction\":\"" + direction
                + "\",\"request_id\":\"" + id + "\",\"endpoint\":\"" + endpoint + "\"}}}}";
    }
    return text + "\n]\n";
}

// The view in a window whose time area is kTimeWidth px wide.
struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    MessagesView view{&document};

    explicit Fixture(const LoadedProfile& loaded)
    {
        view.resize(TimeAxis::kGutter + kTimeWidth + view.style()->pixelMetric(QStyle::PM_ScrollBarExtent), 200);
        document.setProfile(loaded);
        view.show();
    }
    std::vector<MessagesView::Item> items() const { return view.items(kTimeWidth); }
    const ProcessMessages& messages() const { return document.messages()->messages(); }
    // A point on message m's arrow, a quarter of the way from its sender.
    QPoint onArrow(std::uint32_t m) const
    {
        const ProcessMessages::Message& x = messages().messages()[m];
        const double y = MessagesView::poleY(x.from) + (MessagesView::poleY(x.to) - MessagesView::poleY(x.from)) / 4.0;
        return QPoint(TimeAxis::kGutter + int(std::lround(axis.xFor(x.time, kTimeWidth))), int(y));
    }
};

struct Counts {
    int arrows = 0;
    int brackets = 0;
    std::uint64_t arrowMessages = 0; // what they stand for, merged ones counted
    std::uint64_t bracketRequests = 0;
    int merged = 0; // items standing for more than one
    int highlighted = 0;
    int labelled = 0;
};

Counts countsOf(const std::vector<MessagesView::Item>& items)
{
    Counts c;
    for (const MessagesView::Item& item : items) {
        const bool arrow = item.kind == MessagesView::Item::Kind::Arrow;
        (arrow ? c.arrows : c.brackets) += 1;
        (arrow ? c.arrowMessages : c.bracketRequests) += item.count;
        c.merged += item.count > 1 ? 1 : 0;
        c.highlighted += item.highlighted ? 1 : 0;
        c.labelled += item.labelled ? 1 : 0;
    }
    return c;
}

} // namespace

class TestMessagesView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Arrows and brackets drawn at each zoom: one per 3 px bucket of a
    // pair of poles, so that a view of 100,000 messages draws no more
    // items than the buckets across its 600 px.
    void itemsPerZoom_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<qint64>("fromUs"); // the visible range, µs
        QTest::addColumn<qint64>("toUs");
        QTest::addColumn<int>("arrows");
        QTest::addColumn<int>("brackets");
        QTest::addColumn<qulonglong>("arrowMessages");
        QTest::addColumn<int>("merged");
        QTest::addColumn<int>("labelled");
        // 60 px between requests: each its own arrow, labelled, and bracket
        // (30 px: narrower than its "2.00 µs").
        QTest::newRow("10, all") << 10 << qint64(0) << qint64(40) << 20 << 10 << qulonglong(20) << 0 << 20;
        // 150 px per µs: request 0 and its response, the bracket labelled too.
        QTest::newRow("10, 0-4 us") << 10 << qint64(0) << qint64(4) << 2 << 1 << qulonglong(2) << 0 << 3;
        // 0.6 px apart: five to a 3 px bucket, 200 buckets per lane, none labelled.
        QTest::newRow("1000, all") << 1000 << qint64(0) << qint64(4000) << 400 << 200 << qulonglong(2000) << 600 << 0;
        // Zoomed in 10x: 6 px apart, the first 100 requests: each its own,
        // too close for a label but the last of each lane (nothing after it).
        QTest::newRow("1000, 0-400 us") << 1000 << qint64(0) << qint64(400) << 200 << 100 << qulonglong(200) << 0 << 2;
        // Further in, mid-file: requests 250-259 and their responses.
        QTest::newRow("1000, 1000-1040 us") << 1000 << qint64(1000) << qint64(1040) << 20 << 10 << qulonglong(20) << 0 << 20;
        // 0.006 px apart: still 200 items per lane.
        QTest::newRow("100000, all") << 100000 << qint64(0) << qint64(400000) << 400 << 200 << qulonglong(200000) << 600 << 0;
    }
    void itemsPerZoom()
    {
        QFETCH(int, requests);
        QFETCH(qint64, fromUs);
        QFETCH(qint64, toUs);
        QFETCH(int, arrows);
        QFETCH(int, brackets);
        QFETCH(qulonglong, arrowMessages);
        QFETCH(int, merged);
        QFETCH(int, labelled);
        Fixture f(loadedText(backendLog(requests)));
        QCOMPARE(f.messages().messages().size(), std::size_t(2 * requests));
        QCOMPARE(f.view.poleCount(), std::size_t(2)); // LanguageServer and Engine
        f.axis.setVisibleRange(fromUs * us, toUs * us);
        const Counts c = countsOf(f.items());
        QCOMPARE(c.arrows, arrows);
        QCOMPARE(c.brackets, brackets);
        QCOMPARE(c.arrowMessages, std::uint64_t(arrowMessages));
        QCOMPARE(c.merged, merged);
        QCOMPARE(c.highlighted, 0);
        QCOMPARE(c.labelled, labelled);
    }

    // A request and its response, paired by request id: one bracket from
    // the request's time to the response's on the requester's pole.
    void bracketsPairRequests()
    {
        Fixture f(loadedText(backendLog(10)));
        f.axis.setVisibleRange(0, 40 * us); // 15 px per µs
        const auto& all = f.messages().messages();
        int brackets = 0;
        for (const MessagesView::Item& item : f.items()) {
            if (item.kind != MessagesView::Item::Kind::Bracket)
                continue;
            const ProcessMessages::Message& request = all[item.message];
            QCOMPARE(request.kind, ProcessMessages::Kind::Request);
            QVERIFY(request.pairedWith < all.size());
            const ProcessMessages::Message& response = all[request.pairedWith];
            QCOMPARE(response.requestId, request.requestId);
            QCOMPARE(response.kind, ProcessMessages::Kind::Response);
            QCOMPARE(item.x, 15.0 * (4 * brackets + 1));
            QCOMPARE(item.xEnd - item.x, 30.0); // the 2 µs round trip
            ++brackets;
        }
        QCOMPARE(brackets, 10);
    }

    // Generated IDE + Language Server profiles: the arrows stand for every
    // message the generator wrote and the brackets for every round trip.
    void generatedProfile_data()
    {
        QTest::addColumn<quint64>("seed");
        for (const quint64 seed : {1, 2, 3})
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed;
    }
    void generatedProfile()
    {
        QFETCH(quint64, seed);
        EnsoGenOptions options;
        options.seed = seed;
        EnsoGenTruth truth;
        Fixture f(loadedText(QByteArray::fromStdString(EnsoGenerator::profile(options, &truth))));
        QCOMPARE(f.view.poleCount(), std::size_t(3)); // Ide, LanguageServer, Engine
        QVERIFY(f.view.hasContent());
        f.axis.setVisibleRange(Time(truth.spanStart) * us, Time(truth.spanEnd) * us + 1);
        const Counts c = countsOf(f.items());
        QCOMPARE(c.arrowMessages, std::uint64_t(truth.messages.size()));
        std::uint64_t trips = 0;
        for (const auto& [endpoint, written] : truth.roundTrips)
            trips += written.size();
        QCOMPARE(c.bracketRequests, trips);
        QVERIFY(trips > 0);
    }

    // The round-trip table's endpoint (MessagesState's highlight): its
    // arrows and brackets drawn again over the others, and only its.
    void highlight_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<int>("highlighted");
        QTest::newRow("none") << 10 << QString() << 0;
        // 5 requests, 5 responses, 5 brackets.
        QTest::newRow("b of 10") << 10 << QStringLiteral("b") << 15;
        QTest::newRow("a of 10") << 10 << QStringLiteral("a") << 15;
        QTest::newRow("no such endpoint") << 10 << QStringLiteral("c") << 0;
        // 0.6 px apart: 200 buckets in each of the three lanes.
        QTest::newRow("b of 1000") << 1000 << QStringLiteral("b") << 600;
    }
    void highlight()
    {
        QFETCH(int, requests);
        QFETCH(QString, endpoint);
        QFETCH(int, highlighted);
        Fixture f(loadedText(backendLog(requests)));
        f.document.messages()->setHighlightedEndpoint(endpoint.toStdString());
        const std::vector<MessagesView::Item> items = f.items();
        const Counts c = countsOf(items);
        QCOMPARE(c.highlighted, highlighted);
        for (const MessagesView::Item& item : items) {
            if (item.highlighted)
                QCOMPARE(f.messages().messages()[item.message].name, endpoint.toStdString());
        }
        // The others are all still there, below.
        QCOMPARE(int(items.size()) - highlighted, requests == 10 ? 30 : 600);
    }

    // Hover names the message; a click selects it, draws it on top, and
    // the details pane shows it; a click on nothing clears it.
    void hoverAndClick()
    {
        Fixture f(loadedText(backendLog(10)));
        DetailsPane details(&f.document);
        f.axis.setVisibleRange(0, 40 * us);
        // Message 2: request 1 (endpoint b) at 5 µs, answered at 7 µs.
        QCOMPARE(f.view.messageAt(f.onArrow(2)), 2u);
        QCOMPARE(f.view.describeAt(f.onArrow(2)),
                 QStringLiteral("LanguageServer → Engine\nrequest b\nrequest id 1\nat 5.000 µs\nround trip 2.00 µs"));
        QCOMPARE(f.view.describeAt(f.onArrow(3)),
                 QStringLiteral("Engine → LanguageServer\nresponse b\nrequest id 1\nat 7.000 µs\nround trip 2.00 µs"));
        QCOMPARE(f.view.messageAt(QPoint(TimeAxis::kGutter + 40, MessagesView::poleY(0) + 20)), kNone);
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, f.onArrow(2));
        QCOMPARE(f.document.messages()->selected(), 2u);
        const std::vector<MessagesView::Item> items = f.items();
        QCOMPARE(items.size(), std::size_t(30 + 2)); // its arrow and bracket again, on top
        QVERIFY(items.back().selected && items.back().message == 2u);
        QVERIFY(items[items.size() - 2].selected && items[items.size() - 2].kind == MessagesView::Item::Kind::Bracket);
        QVERIFY(details.html().contains(QStringLiteral("request id 1")));
        QVERIFY(details.html().contains(QStringLiteral("BackendMessage")));
        QVERIFY(!details.isEmpty());
        // A box selected elsewhere is the selection now.
        f.axis.selectItem(0, 0);
        QCOMPARE(f.document.messages()->selected(), kNone);
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, f.onArrow(2));
        QCOMPARE(f.axis.selectedMeasurement(), kNone);
        QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(TimeAxis::kGutter + 40, MessagesView::poleY(0) + 20));
        QCOMPARE(f.document.messages()->selected(), kNone);
    }

    // In the window's ProfileView the messages are shown (and exported)
    // only for a profile with messages; without, they take no room.
    void shownOnlyWithMessages()
    {
        TimeAxis axis;
        ProfileDocument document(&axis);
        ProfileView view(&document);
        view.resize(1400, 800);
        view.show();
        document.setProfile(loadedText(requestReply())); // flows within one process: no messages
        view.fitToProfile();
        QVERIFY(view.messagesView()->isHidden());
        QVERIFY(!view.canExport(ProfileView::Part::Messages));
        document.setProfile(loadedText(backendLog(10)));
        view.fitToProfile();
        QVERIFY(!view.messagesView()->isHidden());
        QVERIFY(view.canExport(ProfileView::Part::Messages));
        QCOMPARE(view.messagesView()->height(), view.messagesView()->contentHeight());
        QCOMPARE(view.messagesView()->contentHeight(), 2 * MessagesView::kMargin + MessagesView::kPoleSpacing);
        document.setProfile(loadedText(requestReply()));
        view.fitToProfile();
        QVERIFY(view.messagesView()->isHidden());
    }
};

QTEST_MAIN(TestMessagesView)
#include "tst_messagesview.moc"
