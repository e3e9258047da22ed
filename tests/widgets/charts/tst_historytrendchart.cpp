#include "historydatabase.h"
#include "historystore.h"
#include "historytrendchart.h"

#include <QAreaSeries>
#include <QDateTime>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlane;

class TestHistoryTrendChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Issue 39, item 10: with no point to draw, no axes ("0 ns, 1 ns",
    // "run 1") and no legend: a centred text says what to do. With points,
    // the axes and the legend are back.
    void emptyChartSaysWhatToDo_data()
    {
        QTest::addColumn<int>("labels"); // 0: none selected; 1: one without points
        QTest::addColumn<QString>("message");
        QTest::newRow("no label") << 0 << QStringLiteral("Select a label to see its trend over the recorded runs.");
        QTest::newRow("a label without runs")
            << 1 << QStringLiteral("No run recorded a value of this metric for the labels selected.");
    }
    void emptyChartSaysWhatToDo()
    {
        QFETCH(int, labels);
        QFETCH(QString, message);
        HistoryTrendChart chart;
        chart.resize(600, 360);
        if (labels > 0)
            chart.setTrend(HistoryTrend::compute({}), QStringLiteral("poll"), QStringLiteral("ns"));
        for (const bool byTime : {false, true}) {
            chart.setXAxis(byTime ? HistoryTrendChart::XAxis::Time : HistoryTrendChart::XAxis::RunOrder);
            QCOMPARE(chart.message(), message);
            for (const QAbstractAxis* axis : chart.chart()->axes())
                QVERIFY2(!axis->isVisible(), qPrintable(axis->titleText()));
            QVERIFY(!chart.chart()->legend()->isVisible());
        }
        // The text is painted, in the middle of the view: dark pixels on
        // the middle rows, none near the top and bottom edges.
        const QImage image = chart.grab().toImage();
        // Inside the chart's rounded background (20 px in from each edge),
        // under the title (the label's name, if one is selected).
        const QRgb background = image.pixel(40, 60);
        auto inked = [&](int y0, int y1) {
            int count = 0;
            for (int y = std::max(60, y0); y < std::min(image.height() - 20, y1); ++y) {
                for (int x = 20; x < image.width() - 20; ++x)
                    count += image.pixel(x, y) != background ? 1 : 0;
            }
            return count;
        };
        if (qEnvironmentVariableIsSet("RUNLANE_CHART_PNG"))
            image.save(qEnvironmentVariable("RUNLANE_CHART_PNG"));
        QVERIFY(inked(image.height() / 2 - 12, image.height() / 2 + 12) > 50);
        QCOMPARE(inked(0, image.height() / 2 - 40) + inked(image.height() / 2 + 40, image.height()), 0);

        // A point: the axes of the x chosen and the legend, no text.
        HistoryStore::Point point;
        point.run.id = 1;
        point.run.recordedAt = "2024-05-01T10:00:00.000Z";
        point.value = 1'500'000;
        chart.setTrend(HistoryTrend::compute({point}), QStringLiteral("poll"), QStringLiteral("ns"));
        QCOMPARE(chart.message(), QString());
        QVERIFY(chart.chart()->legend()->isVisible());
        int visible = 0;
        for (const QAbstractAxis* axis : chart.chart()->axes())
            visible += axis->isVisible() ? 1 : 0;
        QCOMPARE(visible, 2); // the time's x and y
        chart.setXAxis(HistoryTrendChart::XAxis::RunOrder);
        visible = 0;
        for (const QAbstractAxis* axis : chart.chart()->axes())
            visible += axis->isVisible() ? 1 : 0;
        QCOMPARE(visible, 2); // the run's x and y
    }

    // 30 runs of a label with 1 % noise (seeded) and a +15 % step from run
    // 25 on, recorded in an SQLite history and read back: 30 points, the
    // first regression marker at run 25 and none before it, the band from
    // run 2 on; rendered offscreen.
    void stepAtRun25()
    {
        QTemporaryDir dir;
        HistoryDatabase db;
        QVERIFY2(db.open(dir.filePath(QStringLiteral("h.sqlite")).toStdString()), db.error().c_str());
        HistoryStore store(db);
        std::uint64_t state = 99;
        for (int r = 1; r <= 30; ++r) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const double noise = double(state >> 11) / double(1ULL << 53) - 0.5;
            RunSet::Label label;
            label.key = LabelKey{"poll", "app.rs", 7};
            CompareMetrics::Values v{};
            v.fill(std::round(500'000 * (1 + 0.02 * noise) * (r >= 25 ? 1.15 : 1.0)));
            v[std::size_t(CompareMetric::Calls)] = 3;
            HistoryRun run;
            run.workload = "w";
            run.commit = "c" + std::to_string(r);
            QVERIFY(store.record(run, {{label, v}}));
        }
        std::vector<HistoryStore::Point> points;
        QVERIFY(store.series("w", "poll", CompareMetric::Exec, 0, points));
        HistoryTrendChart chart;
        chart.resize(900, 500);
        chart.setTrend(HistoryTrend::compute(points), QStringLiteral("poll"), QStringLiteral("ns"));
        QCOMPARE(chart.values()->count(), 30);
        QCOMPARE(chart.band()->upperSeries()->count(), 29);
        // Marked: run 25, and the runs after it, whose window's median is
        // still before the step (check's rule, the change from the median
        // of the runs before); before it only runs 2 and 3, which one or
        // two runs before them give the 0.2 % default or about it.
        QList<double> regressed;
        for (const QPointF& point : chart.regressions()->points())
            regressed << point.x();
        QCOMPARE(regressed, (QList<double>{2, 3, 25, 26, 27, 28, 29, 30}));
        QCOMPARE(chart.regressions()->points().at(2), QPointF(25.0, points[24].value));
        QCOMPARE(chart.improvements()->count(), 0);
        // The band at run 25: the threshold around the median of runs 1-24.
        const HistoryTrend::Point& p = chart.trend().points()[24];
        QCOMPARE(chart.band()->upperSeries()->at(23).y(), p.high());
        QVERIFY(p.value > p.high());
        // By time: the same points at the times recorded.
        chart.setXAxis(HistoryTrendChart::XAxis::Time);
        QCOMPARE(chart.values()->count(), 30);
        const auto msecs = [&points](std::size_t i) {
            return double(QDateTime::fromString(QString::fromStdString(points[i].run.recordedAt), Qt::ISODateWithMs)
                              .toMSecsSinceEpoch());
        };
        QCOMPARE(chart.values()->at(29).x(), msecs(29));
        QCOMPARE(chart.regressions()->at(2), QPointF(msecs(24), points[24].value));
        chart.setXAxis(HistoryTrendChart::XAxis::RunOrder);
        QCOMPARE(chart.values()->at(29).x(), 30.0);
        // A second label, in runs 11-30 only: a line of its own, each point
        // at its run's place among all runs shown; the band and the marks
        // stay the first label's.
        std::vector<HistoryStore::Point> later(points.begin() + 10, points.end());
        for (HistoryStore::Point& p : later)
            p.value /= 2;
        chart.setTrends({{QStringLiteral("poll"), HistoryTrend::compute(points)},
                         {QStringLiteral("half"), HistoryTrend::compute(later)}},
                        QStringLiteral("poll, half"), QStringLiteral("ns"));
        QCOMPARE(chart.lines().size(), std::size_t(2));
        QCOMPARE(chart.lines()[1]->count(), 20);
        QCOMPARE(chart.lines()[1]->at(0), QPointF(11, points[10].value / 2));
        QCOMPARE(chart.regressions()->count(), 8);
        const QImage image = chart.grab().toImage();
        QCOMPARE(image.size(), QSize(900, 500));
        QVERIFY(chart.savePng(dir.filePath(QStringLiteral("trend.png"))));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("trend.png"))).size(), QSize(900, 500));
    }
};

QTEST_MAIN(TestHistoryTrendChart)
#include "tst_historytrendchart.moc"
