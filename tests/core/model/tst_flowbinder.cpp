#include "profilebuilder.h"
#include "testsupport.h"

#include <QtTest>

#include <map>

using namespace runlane;
using runlane::test::qstr;

namespace {

// Two threads, added in the reverse of their order in the profile, so that
// the points' tracks are renumbered before binding. Times in ns:
//   A (tid 1): a1 [0, 50)          a2 [100, 200)
//   B (tid 2): b1 [0, 100)                       b3 [200, 300)
//                 b2 [40, 60)                    b4 [200, 210)
struct Fixture {
    ProfileBuilder builder{"test"};
    std::map<QString, TrackId> tracks;
    std::map<QString, MeasurementId> calls;

    Fixture()
    {
        TrackInfo b;
        b.pid = 1;
        b.tid = 2;
        tracks["B"] = builder.addTrack(b);
        TrackInfo a;
        a.pid = 1;
        a.tid = 1;
        tracks["A"] = builder.addTrack(a);
        const struct {
            const char* track;
            const char* name;
            Time start;
            Time end;
        } spec[] = {{"A", "a1", 0, 50},    {"A", "a2", 100, 200}, {"B", "b1", 0, 100},
                    {"B", "b2", 40, 60},   {"B", "b3", 200, 300}, {"B", "b4", 200, 210}};
        std::uint32_t order = 0;
        for (const auto& s : spec)
            calls[QString::fromLatin1(s.name)] =
                builder.addCall(tracks[QString::fromLatin1(s.track)], builder.label(s.name), s.start, s.end, order++);
    }

    // "key role binding track time [slice]": role S, T or E; binding enc,
    // next or slice (naming the call).
    void add(const QString& text, std::uint32_t order)
    {
        const QStringList f = text.split(QLatin1Char(' '));
        FlowBinder::Point p;
        p.key = f[0].toUInt();
        p.role = f[1] == QLatin1String("S") ? FlowBinder::Role::Start
            : f[1] == QLatin1String("T")    ? FlowBinder::Role::Step
                                            : FlowBinder::Role::End;
        p.binding = f[2] == QLatin1String("enc") ? FlowBinder::Binding::Enclosing
            : f[2] == QLatin1String("next")      ? FlowBinder::Binding::Next
                                                 : FlowBinder::Binding::Slice;
        p.track = tracks[f[3]];
        p.time = f[4].toLongLong();
        if (f.size() > 5)
            p.measurement = calls[f[5]];
        p.order = order;
        builder.addFlowPoint(p);
    }
};

QString nameOf(const Profile& p, IntervalId id)
{
    return qstr(p.labelName(p.measurement(p.interval(id).measurement).label));
}

QStringList flowTexts(const Profile& p)
{
    QStringList out;
    for (const Flow& f : p.flows())
        out << nameOf(p, f.from) + QLatin1Char('>') + nameOf(p, f.to);
    out.sort();
    return out;
}

} // namespace

class TestFlowBinder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void binds_data()
    {
        QTest::addColumn<QStringList>("points");
        QTest::addColumn<QStringList>("flows");
        QTest::addColumn<int>("unbound");
        QTest::newRow("enclosing: the innermost") << QStringList{"1 S enc B 45", "1 E enc A 120"} << QStringList{"b2>a2"} << 0;
        QTest::newRow("enclosing: an end is exclusive") << QStringList{"1 S enc A 49", "1 E enc B 100"}
                                                        << QStringList{} << 2;
        QTest::newRow("next: the earliest start at or after, at any depth")
            << QStringList{"1 S enc A 10", "1 E next B 30"} << QStringList{"a1>b2"} << 0;
        QTest::newRow("next: the outermost of equal starts")
            << QStringList{"1 S enc A 10", "1 E next B 150"} << QStringList{"a1>b3"} << 0;
        QTest::newRow("next: at the time itself") << QStringList{"1 S enc A 10", "1 E next B 40"} << QStringList{"a1>b2"}
                                                  << 0;
        QTest::newRow("slice: the call's own, not its parent of the same start")
            << QStringList{"1 S slice A 100 a2", "1 E slice B 200 b4"} << QStringList{"a2>b4"} << 0;
        QTest::newRow("a slice point at another start binds nothing")
            << QStringList{"1 S slice A 101 a2", "1 E slice B 200 b4"} << QStringList{} << 2;
        QTest::newRow("chain: s t f") << QStringList{"1 S enc A 10", "1 T enc B 45", "1 E enc A 150"}
                                      << QStringList{"a1>b2", "b2>a2"} << 0;
        QTest::newRow("a step without start opens the chain")
            << QStringList{"1 T enc A 10", "1 E enc B 45"} << QStringList{"a1>b2"} << 0;
        QTest::newRow("a lone step") << QStringList{"1 T enc A 10"} << QStringList{} << 1;
        QTest::newRow("an end leaves the flow open: fan-out")
            << QStringList{"1 S enc A 10", "1 E enc B 45", "1 E enc B 250"} << QStringList{"a1>b2", "a1>b3"} << 0;
        QTest::newRow("a new start replaces an unended one")
            << QStringList{"1 S enc A 10", "1 S enc A 150", "1 E enc B 250"} << QStringList{"a2>b3"} << 1;
        QTest::newRow("time order, not the order given")
            << QStringList{"1 E enc B 250", "1 S enc A 10"} << QStringList{"a1>b3"} << 0;
        QTest::newRow("keys apart") << QStringList{"1 S enc A 10", "2 E enc B 45"} << QStringList{} << 2;
        QTest::newRow("no slice there") << QStringList{"1 S enc A 75", "1 E next A 250"} << QStringList{} << 2;
    }
    void binds()
    {
        QFETCH(QStringList, points);
        QFETCH(QStringList, flows);
        QFETCH(int, unbound);
        Fixture f;
        for (int k = 0; k < points.size(); ++k)
            f.add(points[k], std::uint32_t(k));
        const std::shared_ptr<const Profile> p = f.builder.build();
        QCOMPARE(flowTexts(*p), flows);
        QCOMPARE(p->unboundFlowEnds(), std::uint64_t(unbound));
    }

    // The range queries the painter uses: flows leaving or entering a run
    // of interval ids (here a whole track's).
    void rangeQueries()
    {
        Fixture f;
        const QStringList points{"1 S enc A 10", "1 E enc B 45", "1 E enc B 250", "2 S enc B 5", "2 E enc A 150"};
        for (int k = 0; k < points.size(); ++k)
            f.add(points[k], std::uint32_t(k));
        const std::shared_ptr<const Profile> p = f.builder.build();
        QCOMPARE(flowTexts(*p), (QStringList{"a1>b2", "a1>b3", "b1>a2"}));
        const Track& a = p->track(0);
        const Track& b = p->track(1);
        QCOMPARE(qstr(p->string(a.name)), QStringLiteral("pid 1 / tid 1"));
        QCOMPARE(p->flowsOutOf(a.begin, a.end).size(), std::size_t(2));
        QCOMPARE(p->flowsInto(a.begin, a.end).size(), std::size_t(1));
        QCOMPARE(p->flowsOutOf(b.begin, b.end).size(), std::size_t(1));
        QCOMPARE(p->flowsInto(b.begin, b.end).size(), std::size_t(2));
        for (const std::uint32_t k : p->flowsInto(b.begin, b.end))
            QCOMPARE(nameOf(*p, p->flows()[k].from), QStringLiteral("a1"));
        QCOMPARE(p->flowsOutOf(a.end, a.end).size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestFlowBinder)
#include "tst_flowbinder.moc"
