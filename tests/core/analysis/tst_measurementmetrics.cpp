#include "measurementmetrics.h"
#include "testsupport.h"
#include "tracegenerator.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace runlane;
using runlane::test::loadText;

namespace {

// `roots` separate calls on one thread, each a chain of `depth` X events,
// each inside the one before, named from `names` in turn (root r's calls
// start at names[r]).
QByteArray forest(int roots, int depth, const QStringList& names)
{
    QByteArray text = "[";
    const int span = 2 * depth + 2;
    for (int r = 0; r < roots; ++r) {
        for (int i = 0; i < depth; ++i) {
            text += QStringLiteral(R"({"ph":"X","pid":1,"tid":1,"ts":%1,"dur":%2,"name":"%3"},)")
                        .arg(r * span + i)
                        .arg(2 * (depth - i) + 1)
                        .arg(names[(r + i) % names.size()])
                        .toUtf8();
        }
    }
    text.chop(1);
    return text + "]";
}

} // namespace

// The recursion flags and times with children that two threads find in one
// walk of the creation tree, against the obvious computation: up every
// creator chain for each measurement.
class TestMeasurementMetrics : public QObject
{
    Q_OBJECT

private:
    static void compareWithChains(const Profile& p)
    {
        const MeasurementMetrics metrics(p);
        std::vector<Time> total(p.measurementCount(), 0);
        std::size_t nested = 0;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            bool sameAbove = false;
            for (MeasurementId up = id; up != kNone; up = p.measurement(up).creator) {
                total[up] += metrics.exec(id);
                if (up != id && p.measurement(up).label == p.measurement(id).label)
                    sameAbove = true;
            }
            nested += sameAbove ? 1 : 0;
            QVERIFY2(metrics.nestedInSameLabel(id) == sameAbove, qPrintable(QStringLiteral("measurement %1").arg(id)));
        }
        for (MeasurementId id = 0; id < p.measurementCount(); ++id)
            QCOMPARE(metrics.total(id), total[id]);
        qDebug("%zu measurements, %zu nested in their own label", std::size_t(p.measurementCount()), nested);
    }

private Q_SLOTS:
    // Exact counts where they are known by construction.
    void chains_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<int>("measurements");
        QTest::addColumn<int>("nested");
        QTest::addColumn<qlonglong>("rootTotal"); // the root's whole span: every call is inside it
        // A 5,000-deep chain (walked without recursion): a, b, a, b, …:
        // all but the first a and the first b have their label above them.
        QTest::newRow("a b chain") << forest(1, 5000, {"a", "b"}) << 5000 << 4998 << 10001000LL;
        QTest::newRow("distinct names") << forest(1, 300, {"a", "b", "c", "d", "e", "f", "g"}) << 300 << 293 << 601000LL;
        // 400 roots (more than a walk takes at once, so both threads walk)
        // of 6 calls each over 4 names: calls 5 and 6 repeat calls 1 and 2.
        QTest::newRow("400 roots") << forest(400, 6, {"a", "b", "c", "d"}) << 2400 << 800 << 13000LL;
    }
    void chains()
    {
        QFETCH(QByteArray, trace);
        QFETCH(int, measurements);
        QFETCH(int, nested);
        QFETCH(qlonglong, rootTotal);
        const LoadResult r = loadText(trace);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const Profile& p = *r.profile;
        QCOMPARE(int(p.measurementCount()), measurements);
        const MeasurementMetrics metrics(p);
        int flagged = 0;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id)
            flagged += metrics.nestedInSameLabel(id) ? 1 : 0;
        QCOMPARE(flagged, nested);
        QCOMPARE(qlonglong(metrics.total(0)), rootTotal);
        compareWithChains(p);
    }

    // A generated trace: nested calls on 8 threads, async tasks that pause
    // and are created on other threads.
    void generated()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("generated.json"));
        QVERIFY(bench::TraceGenerator::writeFile(path.toLocal8Bit().constData(), 30000));
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        compareWithChains(*r.profile);
    }
};

QTEST_GUILESS_MAIN(TestMeasurementMetrics)
#include "tst_measurementmetrics.moc"
