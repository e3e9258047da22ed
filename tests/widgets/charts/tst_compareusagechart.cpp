#include "compareusagechart.h"
#include "comparesession.h"
#include "profiledocument.h"
#include "timeaxis.h"
#include "widgettestsupport.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr qint64 s = 1'000'000'000;

// A Chronos log of one loop: "work" runs [0, work) and is done; "tail"
// runs [end − 1 s, end), so that the profile spans `end`.
QByteArray chronosLog(qint64 work, qint64 end)
{
    return QStringLiteral(R"({"loop": "main", "chronosFutureEvents": 1, "events": [
  {"t": 0, "id": 1, "state": "Pending", "proc": "work", "file": "w.nim", "line": 1},
  {"t": 0, "id": 1, "state": "Running"},
  {"t": %1, "id": 1, "state": "Completed"},
  {"t": %2, "id": 2, "state": "Pending", "proc": "tail", "file": "w.nim", "line": 2},
  {"t": %2, "id": 2, "state": "Running"},
  {"t": %3, "id": 2, "state": "Completed"}
]})")
        .arg(work)
        .arg(end - s)
        .arg(end)
        .toUtf8();
}

struct Fixture {
    QTemporaryDir dir;
    TimeAxis axis;
    ProfileDocument document{&axis};
    CompareUsageChart chart{&document};

    Fixture()
    {
        chart.resize(700, 320);
        chart.show();
    }
    QString write(const QString& name, const QByteArray& text)
    {
        return writeTemp(dir, text, name);
    }
    // The new run open, `base` as the base runs.
    void compare(const QByteArray& base, const QByteArray& next)
    {
        document.setProfile(loadedFile(write(QStringLiteral("new.json"), next)));
        document.compare()->loadBase({write(QStringLiteral("base.json"), base)});
        document.compare()->finishPendingWork();
        chart.finishPendingWork();
    }
};

} // namespace

class TestCompareUsageChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Issue 39, item 10: before a row is selected the chart drew "1 %,
    // 1 %, 1 %, 0 %, 0 %", x from 0.00 to 1.00 and two nameless legend
    // squares. With nothing to draw it says what to do, and no axes show.
    void emptyChartSaysWhatToDo_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("message");
        QTest::newRow("no profile") << "no profile"
                                    << "Not comparing: File ▸ Compare with… opens the base runs.";
        QTest::newRow("not comparing") << "not comparing"
                                       << "Not comparing: File ▸ Compare with… opens the base runs.";
        QTest::newRow("no label selected")
            << "no label" << "Select a label (a rank row) to see its event-loop share in the base and in the new profile.";
        QTest::newRow("a label that never ran")
            << "never ran" << "stillborn (w.nim:3) never ran on an event loop or thread of either profile: no share to draw.";
    }
    void emptyChartSaysWhatToDo()
    {
        QFETCH(QString, state);
        QFETCH(QString, message);
        Fixture f;
        QByteArray next = chronosLog(2 * s, 8 * s);
        // A future that was created and cancelled without ever running.
        next.replace("\n]}", R"(,
  {"t": 10, "id": 3, "state": "Pending", "proc": "stillborn", "file": "w.nim", "line": 3},
  {"t": 20, "id": 3, "state": "Cancelled"}
]})");
        if (state == QLatin1String("not comparing"))
            f.document.setProfile(loadedFile(f.write(QStringLiteral("new.json"), next)));
        else if (state != QLatin1String("no profile"))
            f.compare(chronosLog(3 * s, 10 * s), next);
        if (state == QLatin1String("never ran")) {
            f.document.setFocusLabel(labelNamed(*f.document.profile(), "stillborn"));
            f.chart.finishPendingWork();
        }
        QApplication::processEvents();
        if (qEnvironmentVariableIsSet("RUNLANE_CHART_PNG"))
            f.chart.grab().save(qEnvironmentVariable("RUNLANE_CHART_PNG") + QLatin1String(QTest::currentDataTag()) + ".png");
        QCOMPARE(f.chart.message(), message);
        QVERIFY(!f.chart.isChartShown());
        // What is seen: the text, centred, and no axis (the chart's view is not shown).
        const auto labels = f.chart.findChildren<QLabel*>();
        const auto shown = std::find_if(labels.begin(), labels.end(), [](const QLabel* l) { return l->isVisible(); });
        QVERIFY(shown != labels.end());
        QCOMPARE((*shown)->text(), message);
        QCOMPARE((*shown)->alignment(), Qt::AlignCenter);
        QCOMPARE(std::count_if(labels.begin(), labels.end(), [](const QLabel* l) { return l->isVisible(); }), 1);
        for (QWidget* child : f.chart.findChildren<QWidget*>()) {
            if (child != *shown && child->parentWidget() == &f.chart)
                QVERIFY2(!child->isVisible(), child->metaObject()->className());
        }
    }

    // With a label selected: its share on both sides, times labelled as
    // the ruler labels them ("2 s", not "5000.0" ms), shares at round
    // steps, each side's last bin ending at its profile's end.
    void timesAsTheWindowLabelsThem()
    {
        Fixture f;
        f.compare(chronosLog(3 * s, 10 * s), chronosLog(2 * s, 8 * s) /* the new run: 8 s */);
        f.document.setFocusLabel(labelNamed(*f.document.profile(), "work"));
        f.chart.finishPendingWork();
        QApplication::processEvents();
        QVERIFY(f.chart.isChartShown());
        QCOMPARE(f.chart.message(), QString());
        const CompareUsageChart::Series& series = *f.chart.series();
        QCOMPARE(series.binWidth, 50'000'000); // 10 s / 200
        QCOMPARE(series.baseSpan, 10 * s);
        QCOMPARE(series.nextSpan, 8 * s);
        QCOMPARE(series.base.size(), std::size_t(200));
        QCOMPARE(series.next.size(), std::size_t(160));
        QCOMPARE(f.chart.timeAxis()->categoriesLabels(),
                 (QStringList{"0 s", "2 s", "4 s", "6 s", "8 s", "10 s"}));
        QCOMPARE(f.chart.timeAxis()->min(), 0.0);
        QCOMPARE(f.chart.timeAxis()->max(), double(10 * s));
        QVERIFY(f.chart.timeAxis()->isVisible());
        // "work" is the whole loop while it runs: 100 %, labelled every 20 %.
        QCOMPARE(f.chart.shareAxis()->max(), 100.0);
        QCOMPARE(f.chart.shareAxis()->tickInterval(), 20.0);
        QCOMPARE(f.chart.baseLine()->name(), QStringLiteral("base"));
        QCOMPARE(f.chart.newLine()->name(), QStringLiteral("new"));
        // The steps: the new run's line ends at 8 s, the base's at 10 s.
        QCOMPARE(f.chart.newLine()->points().back().x(), double(8 * s));
        QCOMPARE(f.chart.baseLine()->points().back().x(), double(10 * s));
        QCOMPARE(f.chart.baseLine()->at(0).y(), 100.0);
        QCOMPARE(f.chart.newLine()->at(2 * 40).y(), 0.0); // bin 40: [2 s, 2.05 s), after "work"
        if (qEnvironmentVariableIsSet("RUNLANE_CHART_PNG"))
            f.chart.grab().save(qEnvironmentVariable("RUNLANE_CHART_PNG"));
    }
};

QTEST_MAIN(TestCompareUsageChart)
#include "tst_compareusagechart.moc"
