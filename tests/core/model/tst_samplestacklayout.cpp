#include "loaderror.h"
#include "profilebuilder.h"
#include "samplestacklayout.h"

#include <QtTest>

#include <vector>

using namespace runlane;

namespace {

// "name start..end" of every interval at one depth, in order.
QStringList at(const Profile& p, int depth)
{
    QStringList out;
    for (const Interval& iv : p.depthSlice(0, depth)) {
        const std::string_view name = p.labelName(p.measurement(iv.measurement).label);
        out << QStringLiteral("%1 %2..%3")
                   .arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
                   .arg(iv.start)
                   .arg(iv.end);
    }
    return out;
}

} // namespace

class TestSampleStackLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Consecutive samples that share frames from the root share intervals.
    void mergesSharedPrefixes()
    {
        ProfileBuilder b("test");
        const TrackId track = b.addTrack(TrackInfo{});
        const LabelId a = b.label("a");
        const LabelId x = b.label("x");
        const LabelId y = b.label("y");
        SampleStackLayout layout(b, track, 100);
        layout.add(std::vector<LabelId>{a, x}, 10);
        layout.add(std::vector<LabelId>{a, x}, 5);
        layout.add(std::vector<LabelId>{a, y}, 5);
        QCOMPARE(layout.finish(), Time(120));
        const auto p = b.build();
        QCOMPARE(at(*p, 0), (QStringList{"a 100..120"}));
        QCOMPARE(at(*p, 1), (QStringList{"x 100..115", "y 115..120"}));
    }

    // skipTo closes every frame at the end of the last sample: the same
    // stack after the gap is a new interval, and the gap is empty.
    void skipToLeavesTheGapEmpty()
    {
        ProfileBuilder b("test");
        const TrackId track = b.addTrack(TrackInfo{});
        const LabelId a = b.label("a");
        const LabelId x = b.label("x");
        SampleStackLayout layout(b, track, 0);
        layout.add(std::vector<LabelId>{a, x}, 10);
        layout.skipTo(10); // no gap: closes, nothing else
        layout.add(std::vector<LabelId>{a, x}, 10);
        layout.skipTo(100);
        layout.add(std::vector<LabelId>{a}, 5);
        QCOMPARE(layout.finish(), Time(105));
        const auto p = b.build();
        QCOMPARE(at(*p, 0), (QStringList{"a 0..10", "a 10..20", "a 100..105"}));
        QCOMPARE(at(*p, 1), (QStringList{"x 0..10", "x 10..20"}));
        QCOMPARE(p->endTime(), Time(105));
    }

    void skipToThePastIsAnError()
    {
        ProfileBuilder b("test");
        const TrackId track = b.addTrack(TrackInfo{});
        SampleStackLayout layout(b, track, 50);
        layout.add(std::vector<LabelId>{b.label("a")}, 10);
        QVERIFY_THROWS_EXCEPTION(FormatError, layout.skipTo(59));
        layout.skipTo(60);
        QCOMPARE(layout.finish(), Time(60));
    }
};

QTEST_GUILESS_MAIN(TestSampleStackLayout)
#include "tst_samplestacklayout.moc"
