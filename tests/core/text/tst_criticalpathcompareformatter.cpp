#include "core/compare/criticalpathruns.h"
#include "criticalpathcompareformatter.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <memory>

using namespace runlane;
using namespace runlane::test;

// The critical-path comparison as text (docs/compare.md, "Critical path in
// compare mode"), on the workload of criticalpathworkload.h: its waker 30 %
// slower, and its blocker renamed.
class TestCriticalPathCompareFormatter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void table()
    {
        CriticalPathRuns runs;
        const std::string text = CriticalPathCompareFormatter::table(runs.compare(130), "handler");
        // Running: 259000 -> 324700 ns (Σ 2000 + d_i per task); the test of
        // 20 tasks against 20, wholly apart, is the normal approximation's
        // p = 6.8e-08; Welch's interval of the total's change +56896 …
        // +74504 ns. The floor: 0.1 % of the base's busy time (269 µs), 269 ns.
        QCOMPARE(QString::fromStdString(text),
                 QString::fromUtf8(
                     "Critical path of handler: 20 tasks in base, 20 tasks in new; wall time (Σ of the lives) 269 µs → "
                     "335 µs\n"
                     "1 base run, 1 new run; per run (totals); Mann-Whitney U over each task's values; threshold 5 %, "
                     "alpha 0.05, floor 269 ns\n"
                     "\n"
                     "verdict      kind            base        new           Δ        Δ%        p  95 % CI of Δ%\n"
                     "regressed    running       259 µs     325 µs    +65.7 µs   +25.4 %  6.8e-08  [+22.0 %, +28.8 %]\n"
                     "unchanged    queued       10.0 µs    10.0 µs       +0 ns    +0.0 %    1.000  [+0.0 %, +0.0 %]\n"
                     "unchanged    idle            0 ns       0 ns       +0 ns    +0.0 %    1.000  [+0.0 %, +0.0 %]\n"
                     "unchanged    waiting         0 ns       0 ns       +0 ns    +0.0 %    1.000  [+0.0 %, +0.0 %]\n"
                     "\n"
                     "By (kind, label), largest change first:\n"
                     "  running query (app.nim:20) +65.7 µs  (+30.0 %: 219 µs → 285 µs)\n"
                     "  running handler (app.nim:10) +0 ns  (+0.0 %: 40.0 µs → 40.0 µs)\n"
                     "  queued behind flush (app.nim:50) +0 ns  (+0.0 %: 10.0 µs → 10.0 µs)\n"
                     "warning: one run per side: tested over each task's values, not over runs\n"));
    }

    void tableOfAddedAndRemovedRows()
    {
        CriticalPathRuns runs;
        const std::string text = CriticalPathCompareFormatter::table(runs.compare(100, "compact"), "handler");
        const QString lines = QString::fromStdString(text.substr(text.find("By (kind, label)")));
        QCOMPARE(lines, QString::fromUtf8("By (kind, label), largest change first:\n"
                                          "  queued behind compact (app.nim:50) +10.0 µs  (added: 0 ns → 10.0 µs)\n"
                                          "  queued behind flush (app.nim:50) -10.0 µs  (removed: 10.0 µs → 0 ns)\n"
                                          "  running handler (app.nim:10) +0 ns  (+0.0 %: 40.0 µs → 40.0 µs)\n"
                                          "  running query (app.nim:20) +0 ns  (+0.0 %: 219 µs → 219 µs)\n"
                                          "warning: one run per side: tested over each task's values, not over runs\n"));
    }

    void csv()
    {
        CriticalPathRuns runs;
        QCOMPARE(QString::fromStdString(CriticalPathCompareFormatter::csv(runs.compare(130))),
                 QStringLiteral("part,kind,name,file,line,base_ns,new_ns,delta_ns,delta_pct,p_value,ci_low_ns,ci_high_ns,"
                                "verdict\n"
                                "total,running,,,,259000,324700,65700,25.36679536679537,6.795615128173387e-08,56896,74504,"
                                "regressed\n"
                                "total,queued,,,,10000,10000,0,0,1.0,0,0,unchanged\n"
                                "total,idle,,,,0,0,0,0,1.0,0,0,unchanged\n"
                                "total,waiting,,,,0,0,0,0,1.0,0,0,unchanged\n"
                                "label,running,query,app.nim,20,219000,284700,65700,30,,,,\n"
                                "label,running,handler,app.nim,10,40000,40000,0,0,,,,\n"
                                "label,queued,flush,app.nim,50,10000,10000,0,0,,,,\n"));
    }

    void json()
    {
        CriticalPathRuns runs;
        const std::string text = CriticalPathCompareFormatter::json(runs.compare(100, "compact"), "handler");
        const QJsonObject doc = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        QCOMPARE(doc.keys().size(), 16);
        QCOMPARE(doc.value(QStringLiteral("label")).toString(), QStringLiteral("handler"));
        QCOMPARE(doc.value(QStringLiteral("per")).toString(), QStringLiteral("run"));
        QCOMPARE(doc.value(QStringLiteral("verdict")).toString(), QStringLiteral("unchanged"));
        const QJsonArray rows = doc.value(QStringLiteral("breakdown")).toArray();
        QCOMPARE(rows.size(), 4);
        const QJsonObject added = rows.at(0).toObject();
        QCOMPARE(added.value(QStringLiteral("name")).toString(), QStringLiteral("compact"));
        QCOMPARE(added.value(QStringLiteral("delta_ns")).toInt(), 10000);
        QVERIFY(added.value(QStringLiteral("delta_pct")).isNull()); // new: no base to be a share of
        QCOMPARE(added.value(QStringLiteral("in_base")).toBool(), false);
        QCOMPARE(added.value(QStringLiteral("in_new")).toBool(), true);
        QCOMPARE(rows.at(1).toObject().value(QStringLiteral("delta_pct")).toDouble(), -100.0);
        const QJsonArray kinds = doc.value(QStringLiteral("kinds")).toArray();
        QCOMPARE(kinds.size(), 4);
        QCOMPARE(kinds.at(1).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("queued"));
        QCOMPARE(kinds.at(1).toObject().value(QStringLiteral("base_median_ns")).toInt(), 10000);
        QCOMPARE(kinds.at(1).toObject().value(QStringLiteral("verdict")).toString(), QStringLiteral("unchanged"));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPathCompareFormatter)
#include "tst_criticalpathcompareformatter.moc"
