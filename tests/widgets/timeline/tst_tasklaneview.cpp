#include "icicleview.h"
#include "imageexporter.h"
#include "loadedprofile.h"
#include "profilebuilder.h"
#include "profiledocument.h"
#include "tasklaneview.h"
#include "timeaxis.h"
#include "timelinetestprofiles.h"
#include "widgettestsupport.h"

#include <QStyle>
#include <QtTest>

using namespace runlane;
using namespace runlane::test;

namespace {

constexpr int kTimeWidth = 800;

struct Fixture {
    TimeAxis axis;
    ProfileDocument document{&axis};
    TaskLaneView lanes{&document};

    explicit Fixture(const LoadedProfile& loaded, int height = 300)
    {
        lanes.resize(TimeAxis::kGutter + kTimeWidth + lanes.style()->pixelMetric(QStyle::PM_ScrollBarExtent), height);
        document.setProfile(loaded);
        lanes.show();
    }
    const Profile& profile() const { return *document.profile(); }
    MeasurementId task(const char* name) const { return byName(profile(), name); }
    double xOf(Time t) const { return TimeAxis::kGutter + axis.xFor(t, kTimeWidth); }
    double midOf(const char* name) const { return lanes.rowRect(task(name)).center().y(); }
    QStringList rowNames() const
    {
        QStringList names;
        QList<std::pair<int, QString>> rows;
        for (MeasurementId id = 0; id < profile().measurementCount(); ++id) {
            const QRect r = lanes.rowRect(id);
            if (!r.isEmpty())
                rows.append({r.top(), qstr(profile().labelName(profile().measurement(id).label))});
        }
        std::sort(rows.begin(), rows.end());
        for (const auto& row : rows)
            names << row.second;
        return names;
    }
};

} // namespace

class TestTaskLaneView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadedText(futures());
        QVERIFY(!m_loaded.isNull());
        QCOMPARE(m_loaded.profile->endTime() - m_loaded.profile->startTime(), 1000);
    }

    void ordersRows_data()
    {
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("creation") << int(TaskLaneView::Order::Creation) << QStringList{"outer", "child", "late", "zzz", "end"};
        // exec: outer 200, child 100, zzz 50, late 0, end 0 (ties keep creation order).
        QTest::newRow("exec") << int(TaskLaneView::Order::Exec) << QStringList{"outer", "child", "zzz", "late", "end"};
        QTest::newRow("name") << int(TaskLaneView::Order::Name) << QStringList{"child", "end", "late", "outer", "zzz"};
    }
    void ordersRows()
    {
        QFETCH(int, order);
        QFETCH(QStringList, names);
        Fixture f(m_loaded);
        f.lanes.setOrder(TaskLaneView::Order(order));
        QCOMPARE(f.lanes.taskCount(), std::size_t(5));
        QCOMPARE(f.rowNames(), names);
        // Rows follow the track header, one row height apart.
        const QRect first = f.lanes.rowRect(f.task(names.first().toUtf8().constData()));
        QCOMPARE(first.top(), TaskLaneView::kLegendHeight + TaskLaneView::kHeaderHeight);
    }

    void listsOnlyTasksAliveInView_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("all") << qint64(0) << qint64(1000) << QStringList{"outer", "child", "late", "zzz", "end"};
        QTest::newRow("650-850") << qint64(650) << qint64(850) << QStringList{"late"};
        QTest::newRow("350-360") << qint64(350) << qint64(360) << QStringList{"outer", "child"};
        QTest::newRow("960-990") << qint64(960) << qint64(990) << QStringList{"zzz"};
    }
    void listsOnlyTasksAliveInView()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(QStringList, names);
        Fixture f(m_loaded);
        f.axis.setVisibleRange(from, to);
        QCOMPARE(f.rowNames(), names);
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(5));
        f.lanes.setOnlyTasksInView(false);
        QCOMPARE(f.lanes.taskCount(), std::size_t(5));
    }

    void selectingATaskMarksItsCreatorAndChildren_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::addColumn<QStringList>("related");
        QTest::newRow("outer: its child") << "outer" << QStringList{"child"};
        QTest::newRow("child: its creator") << "child" << QStringList{"outer"};
        QTest::newRow("late: none") << "late" << QStringList{};
    }
    void selectingATaskMarksItsCreatorAndChildren()
    {
        QFETCH(QString, selected);
        QFETCH(QStringList, related);
        Fixture f(m_loaded);
        const MeasurementId id = f.task(selected.toUtf8().constData());
        QTest::mouseClick(&f.lanes, Qt::LeftButton, Qt::NoModifier, QPoint(60, int(f.midOf(selected.toUtf8().constData()))));
        QCOMPARE(f.axis.selectedMeasurement(), id);
        for (const char* name : {"outer", "child", "late", "zzz", "end"})
            QCOMPARE(f.lanes.isRelated(f.task(name)), related.contains(QString::fromLatin1(name)));
        // Highlighted rows: selected blue, related amber (in the gutter, left of the name).
        const QImage image = ImageExporter::lanes(f.lanes, f.lanes.size());
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter - 3, f.midOf(selected.toUtf8().constData()))), rgb(qRgb(210, 225, 250)));
        for (const QString& r : related)
            QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter - 3, f.midOf(r.toUtf8().constData()))), rgb(qRgb(252, 238, 200)));
    }

    void doubleClickZoomsToTheTaskLifetime()
    {
        Fixture f(m_loaded);
        QTest::mouseDClick(&f.lanes, Qt::LeftButton, Qt::NoModifier, QPoint(400, int(f.midOf("outer"))));
        QCOMPARE(f.axis.visibleStart(), 0);
        QCOMPARE(f.axis.visibleEnd(), 600);
    }

    // Each state has its own style: hatched pending, solid running in the
    // label's colour, a dotted line while paused, an end mark in the final
    // state's colour, an arrow when unfinished.
    void drawsEachStateInItsStyle()
    {
        Fixture f(m_loaded);
        const QImage image = ImageExporter::lanes(f.lanes, QSize(TimeAxis::kGutter + kTimeWidth, 300));
        const QRgb background = rgb(ColorScheme::background().rgb());
        const QRgb outerColor = rgb(f.document.labelColor(f.profile().measurement(f.task("outer")).label));
        const double outer = f.midOf("outer");
        // Pending 0-100: only the hatch's two colours.
        const QList<QRgb> hatch{rgb(qRgb(236, 238, 243)), rgb(qRgb(150, 156, 170))};
        QVERIFY(hatch.contains(pixelAt(image, QPointF(f.xOf(50), outer))));
        // Running 100-200 and 500-600: solid.
        QCOMPARE(pixelAt(image, QPointF(f.xOf(150), outer - 4)), outerColor);
        QCOMPARE(pixelAt(image, QPointF(f.xOf(550), outer + 4)), outerColor);
        // Paused 200-500: a dotted line through the middle, nothing above it.
        QCOMPARE(pixelAt(image, QPointF(f.xOf(350), outer - 4)), background);
        int dots = 0;
        for (double t = 220; t < 480; t += 1.25)
            dots += pixelAt(image, QPointF(f.xOf(Time(t)), outer)) != background;
        QVERIFY2(dots > 40 && dots < 180, qPrintable(QString::number(dots)));
        // End marks.
        QCOMPARE(pixelAt(image, QPointF(f.xOf(600), outer)), rgb(ColorScheme::forState(FinalState::Completed).rgb()));
        QCOMPARE(pixelAt(image, QPointF(f.xOf(400), f.midOf("child"))), rgb(ColorScheme::forState(FinalState::Failed).rgb()));
        QCOMPARE(pixelAt(image, QPointF(f.xOf(800), f.midOf("late"))), rgb(ColorScheme::forState(FinalState::Cancelled).rgb()));
        QVERIFY(hatch.contains(pixelAt(image, QPointF(f.xOf(750), f.midOf("late")))));
        QCOMPARE(pixelAt(image, QPointF(f.xOf(1000) - 3, f.midOf("zzz"))), rgb(ColorScheme::forState(FinalState::Unfinished).rgb()));
    }

    // Wakes are ticks at the top of the task's row: a self-wake in the flow
    // colour, another's wake in the text colour (tokio-hand.jsonl: main
    // loop wakes itself at 2800, is woken at 7000).
    void marksWakes()
    {
        Fixture f(loadedFile(dataPath(QStringLiteral("profiles/tokio-hand.jsonl"))));
        const QImage image = ImageExporter::lanes(f.lanes, QSize(TimeAxis::kGutter + kTimeWidth, 300));
        const double top = f.lanes.rowRect(f.task("main loop")).top();
        auto tick = [&](Time t) {
            return pixelAt(image, QPointF(TimeAxis::kGutter + std::floor(f.axis.xFor(t, kTimeWidth)) + 0.2, top + 2));
        };
        QCOMPARE(tick(7000), rgb(ColorScheme::text().rgb()));
        QCOMPARE(tick(2800), rgb(ColorScheme::flow().rgb()));
        QCOMPARE(tick(5000), rgb(ColorScheme::background().rgb())); // paused, no wake
        // conn's two wakes while paused, 5000 and 5200.
        const double conn = f.lanes.rowRect(f.task("src/conn.rs:20")).top();
        QCOMPARE(pixelAt(image, QPointF(TimeAxis::kGutter + std::floor(f.axis.xFor(5000, kTimeWidth)) + 0.2, conn + 2)),
                 rgb(ColorScheme::text().rgb()));
    }

    // Lanes and icicle share the axis: a task's running columns are the
    // columns of its intervals in the icicle, to the pixel.
    void alignsWithTheIcicleToThePixel()
    {
        Fixture f(m_loaded);
        IcicleView icicle(&f.document);
        icicle.resize(f.lanes.size());
        f.axis.setVisibleRange(80, 620);
        const QSize size(TimeAxis::kGutter + kTimeWidth, 200);
        const QImage lanes = ImageExporter::lanes(f.lanes, size);
        const QImage plot = ImageExporter::icicle(icicle, size);
        const IntervalId first = f.profile().intervalsOf(f.task("outer")).front();
        const double plotY = icicle.spanRect(first).top() + 2;
        const QRgb color = rgb(f.document.labelColor(f.profile().measurement(f.task("outer")).label));
        int running = 0;
        for (int x = TimeAxis::kGutter; x < size.width(); ++x) {
            // A box's last column is its darker edge line.
            const QRgb at = pixelAt(plot, QPointF(x, plotY));
            const bool inPlot = at == color || at == rgb(QColor::fromRgb(color).darker(125).rgb());
            // Near the top of the row, above the end mark.
            const bool inLanes = pixelAt(lanes, QPointF(x, f.lanes.rowRect(f.task("outer")).top() + 3)) == color;
            QVERIFY2(inPlot == inLanes, qPrintable(QStringLiteral("column %1").arg(x)));
            running += inLanes;
        }
        // 200 ns of 540 over 800 px.
        QVERIFY2(std::abs(running - 296) <= 2, qPrintable(QString::number(running)));
    }

    // Thousands of tasks: rows are virtualised behind a scroll bar.
    void scrollsThroughThousandsOfTasks()
    {
        QByteArray json = "{\"chronosFutureEvents\": 1, \"events\": [";
        for (int i = 0; i < 5000; ++i) {
            const QByteArray id = QByteArray::number(i + 1);
            const QByteArray t = QByteArray::number(i * 10);
            json += "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Pending\",\"proc\":\"task" + id + "\",\"file\":\"gen.nim\",\"line\":1},";
            json += "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Running\"},";
            json += "{\"t\":" + QByteArray::number(i * 10 + 5) + ",\"id\":" + id + ",\"state\":\"Completed\"}";
            json += i + 1 < 5000 ? "," : "]}";
        }
        Fixture f(loadedText(json));
        QCOMPARE(f.lanes.taskCount(), std::size_t(5000));
        const int rowHeight = f.lanes.rowRect(f.task("task1")).height();
        QCOMPARE(f.lanes.contentHeight(), TaskLaneView::kHeaderHeight + 5000 * rowHeight);
        QVERIFY(f.lanes.rowRect(f.task("task5000")).isEmpty());
        f.lanes.scrollToTask(f.task("task5000"));
        QVERIFY(!f.lanes.rowRect(f.task("task5000")).isEmpty());
        QVERIFY(f.lanes.rowRect(f.task("task1")).isEmpty());
        QCOMPARE(f.lanes.taskAt(f.lanes.rowRect(f.task("task4990")).center()), f.task("task4990"));
    }

    // A load's next preview (new ids, more tasks): the lanes stay where the
    // user scrolled them; another profile opens at the top.
    void aRefinementKeepsTheScroll_data()
    {
        QTest::addColumn<bool>("refine");
        QTest::newRow("the same file's next version") << true;
        QTest::newRow("another profile") << false;
    }
    void aRefinementKeepsTheScroll()
    {
        QFETCH(bool, refine);
        auto tasks = [](int count) {
            QByteArray json = "{\"chronosFutureEvents\": 1, \"events\": [";
            for (int i = 0; i < count; ++i) {
                const QByteArray id = QByteArray::number(i + 1);
                const QByteArray t = QByteArray::number(i * 10);
                json += "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Pending\",\"proc\":\"task" + id + "\",\"file\":\"gen.nim\",\"line\":1},";
                json += "{\"t\":" + QByteArray::number(i * 10 + 5) + ",\"id\":" + id + ",\"state\":\"Completed\"}";
                json += i + 1 < count ? "," : "]}";
            }
            return json;
        };
        Fixture f(loadedText(tasks(200)));
        f.lanes.scrollToTask(f.task("task100"));
        const int scroll = f.lanes.scrollY();
        QVERIFY(scroll > 0);
        if (refine)
            f.document.refineProfile(loadedText(tasks(300)));
        else
            f.document.setProfile(loadedText(tasks(300)));
        QCOMPARE(f.lanes.taskCount(), std::size_t(300));
        QCOMPARE(f.lanes.scrollY(), refine ? scroll : 0);
    }

    // Issue 39, item 18: selecting a task far down (a click on its box, here
    // or in the icicle) scrolls its row to the middle, which may leave the
    // top row cut by the legend. Its pending stretch, its running boxes and
    // its marks must stay below the legend: the legend row is the same,
    // pixel for pixel, as before the scroll.
    void scrollingKeepsTheLegend_data()
    {
        QTest::addColumn<int>("layout");
        QTest::newRow("a row per task") << int(TaskLaneView::Layout::PerTask);
        QTest::newRow("packed") << int(TaskLaneView::Layout::Packed);
    }
    void scrollingKeepsTheLegend()
    {
        QFETCH(int, layout);
        // 60 "job" tasks, each pending across most of the range, then
        // running 5 ns: every row is drawn under the whole legend.
        QByteArray json = "{\"chronosFutureEvents\": 1, \"loop\": \"main\", \"events\": [";
        for (int i = 0; i < 60; ++i)
            json += "{\"t\":" + QByteArray::number(i * 10) + ",\"id\":" + QByteArray::number(i + 1)
                + ",\"state\":\"Pending\",\"proc\":\"job\",\"file\":\"gen.nim\",\"line\":1},";
        for (int i = 0; i < 60; ++i) {
            const QByteArray id = QByteArray::number(i + 1);
            json += "{\"t\":" + QByteArray::number(1000 + i * 10) + ",\"id\":" + id + ",\"state\":\"Running\"},";
            json += "{\"t\":" + QByteArray::number(1005 + i * 10) + ",\"id\":" + id + ",\"state\":\"Completed\"}";
            json += i + 1 < 60 ? "," : "]}";
        }
        const LoadedProfile loaded = loadedText(json);
        QVERIFY(!loaded.isNull());
        const Profile& p = *loaded.profile;
        std::vector<MeasurementId> jobs;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            if (p.measurement(id).isAsync())
                jobs.push_back(id);
        }
        std::sort(jobs.begin(), jobs.end(), [&p](MeasurementId a, MeasurementId b) {
            return p.measurement(a).created < p.measurement(b).created;
        });
        QCOMPARE(jobs.size(), std::size_t(60));
        Fixture probe(loaded);
        const int rowHeight = probe.lanes.rowRect(jobs[0]).height();
        // A view of 5.5 rows under the legend: the selected row is put at
        // its middle, half a row off the rows' grid.
        const int height = TaskLaneView::kLegendHeight + 11 * rowHeight;
        Fixture f(loaded, height);
        f.lanes.setLayout(TaskLaneView::Layout(layout));
        const MeasurementId target = jobs[40];
        QVERIFY(f.lanes.rowRect(target).isEmpty());
        const QImage before = f.lanes.grab().toImage();
        f.axis.selectItem(p.intervalsOf(target).front(), target);
        // The target row's top at the view's middle (scrollToTask).
        const QRect row = f.lanes.rowRect(target);
        QCOMPARE(row.top(), TaskLaneView::kLegendHeight + (height - TaskLaneView::kLegendHeight) / 2);
        // The scroll leaves the top row cut by the legend, by half a row.
        QCOMPARE((f.lanes.scrollY() - TaskLaneView::kHeaderHeight) % rowHeight, rowHeight / 2 + rowHeight % 2);
        const QImage after = f.lanes.grab().toImage();
        QCOMPARE(after.size(), before.size());
        int changed = 0;
        for (int y = 0; y < TaskLaneView::kLegendHeight; ++y) {
            for (int x = 0; x < after.width(); ++x)
                changed += after.pixel(x, y) != before.pixel(x, y);
        }
        QCOMPARE(changed, 0);
        // Below the legend the cut row is drawn: its pending stretch's hatch.
        const QList<QRgb> hatch{rgb(ColorScheme::pending().rgb()), rgb(ColorScheme::hatch().rgb())};
        for (int y = TaskLaneView::kLegendHeight; y < TaskLaneView::kLegendHeight + 4; ++y)
            QVERIFY2(hatch.contains(pixelAt(after, QPointF(f.xOf(1000), y + 0.5))), qPrintable(QString::number(y)));
    }

    // Issue 13, item 10: 300 "tick" tasks one after another and two
    // "tock": a row per task shows the first dozen, all at the start;
    // packed, two rows show all 302 across the range. Automatic picks the
    // layout that shows more; five tasks of five labels keep a row each.
    void packsTasksThatDoNotOverlap()
    {
        QByteArray json = "{\"chronosFutureEvents\": 1, \"loop\": \"main\", \"events\": [";
        for (int i = 0; i < 300; ++i) {
            const QByteArray id = QByteArray::number(i + 1);
            const QByteArray t = QByteArray::number(i * 20);
            json += "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Pending\",\"proc\":\"tick\",\"file\":\"gen.nim\",\"line\":1},";
            json += "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Running\"},";
            json += "{\"t\":" + QByteArray::number(i * 20 + 10) + ",\"id\":" + id + ",\"state\":\"Completed\"},";
        }
        json += "{\"t\":5,\"id\":9001,\"state\":\"Pending\",\"proc\":\"tock\",\"file\":\"gen.nim\",\"line\":2},"
                "{\"t\":2000,\"id\":9001,\"state\":\"Completed\"},"
                "{\"t\":3000,\"id\":9002,\"state\":\"Pending\",\"proc\":\"tock\",\"file\":\"gen.nim\",\"line\":2},"
                "{\"t\":5990,\"id\":9002,\"state\":\"Completed\"}]}";
        Fixture f(loadedText(json));
        const Profile& p = f.profile();
        QCOMPARE(f.lanes.layout(), TaskLaneView::Layout::Auto);
        QCOMPARE(f.lanes.effectiveLayout(), TaskLaneView::Layout::Packed);
        QCOMPARE(f.lanes.taskCount(), std::size_t(302));
        const int rowHeight = f.lanes.rowRect(f.task("tock")).height();
        QCOMPARE(f.lanes.contentHeight(), TaskLaneView::kHeaderHeight + 2 * rowHeight);
        // Every tick shares the first row; the cursor over one finds it.
        std::vector<MeasurementId> ticks;
        for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
            if (p.labelName(p.measurement(id).label) == "tick")
                ticks.push_back(id);
        }
        std::sort(ticks.begin(), ticks.end(), [&p](MeasurementId a, MeasurementId b) {
            return p.measurement(a).created < p.measurement(b).created;
        });
        QCOMPARE(ticks.size(), std::size_t(300));
        QCOMPARE(f.lanes.rowRect(ticks[0]).top(), TaskLaneView::kLegendHeight + TaskLaneView::kHeaderHeight);
        const int tickRow = f.lanes.rowRect(ticks[0]).center().y();
        for (const MeasurementId id : {ticks[0], ticks[150], ticks[299]}) {
            QCOMPARE(f.lanes.rowRect(id).center().y(), tickRow);
            const Time middle = p.measurement(id).created + 5;
            QCOMPARE(f.lanes.taskAt(QPoint(int(f.xOf(middle)), tickRow)), id);
        }
        // Zoomed in between the two tocks.
        f.axis.setVisibleRange(p.startTime() + 2500, p.startTime() + 2600);
        QCOMPARE(f.lanes.effectiveLayout(), TaskLaneView::Layout::PerTask); // 6 tasks in view: a row each fits
        QCOMPARE(f.lanes.taskCount(), std::size_t(6));
        f.lanes.setLayout(TaskLaneView::Layout::Packed);
        QCOMPARE(f.lanes.contentHeight(), TaskLaneView::kHeaderHeight + rowHeight); // no tock alive here
        QCOMPARE(f.lanes.taskAt(QPoint(int(f.xOf(p.startTime() + 2545)), tickRow)), ticks[127]); // 2540-2550
        f.axis.zoomToAll();
        f.lanes.setLayout(TaskLaneView::Layout::PerTask);
        QCOMPARE(f.lanes.contentHeight(), TaskLaneView::kHeaderHeight + 302 * rowHeight);

        Fixture few(m_loaded);
        QCOMPARE(few.lanes.effectiveLayout(), TaskLaneView::Layout::PerTask);
        QCOMPARE(few.rowNames(), (QStringList{"outer", "child", "late", "zzz", "end"}));
    }

    // The automatic layout is chosen again whenever the lanes' height changes (ProfileView
    // sizes them after the profile has arrived): eight "tick" tasks one after another fill
    // eight rows a task each, or one packed row. Built at a first height, then resized to a
    // second, in lane rows under the legend and the header: where the eight rows fit, a row
    // per task (a tie keeps them); where three fit, packed. A layout the user picked stays.
    void automaticLayoutFollowsTheHeight_data()
    {
        QTest::addColumn<int>("layout");
        QTest::addColumn<int>("before"); // rows of height when the profile arrives
        QTest::addColumn<int>("after");
        QTest::addColumn<int>("effective");
        QTest::addColumn<int>("inView"); // lane rows wholly in view after the resize
        const int automatic = int(TaskLaneView::Layout::Auto);
        const int perTask = int(TaskLaneView::Layout::PerTask);
        const int packed = int(TaskLaneView::Layout::Packed);
        QTest::newRow("auto, shrunk") << automatic << 12 << 3 << packed << 1;
        QTest::newRow("auto, grown") << automatic << 3 << 12 << perTask << 8;
        QTest::newRow("auto, tall both times") << automatic << 12 << 10 << perTask << 8;
        QTest::newRow("per task, shrunk") << perTask << 12 << 3 << perTask << 3;
        QTest::newRow("packed, grown") << packed << 3 << 12 << packed << 1;
    }
    void automaticLayoutFollowsTheHeight()
    {
        QFETCH(int, layout);
        QFETCH(int, before);
        QFETCH(int, after);
        QFETCH(int, effective);
        QFETCH(int, inView);
        QByteArray json = "{\"chronosFutureEvents\": 1, \"loop\": \"main\", \"events\": [";
        for (int i = 0; i < 8; ++i) {
            const QByteArray id = QByteArray::number(i + 1);
            const QByteArray t = QByteArray::number(i * 20);
            json += QByteArray(i ? "," : "") + "{\"t\":" + t + ",\"id\":" + id
                + ",\"state\":\"Pending\",\"proc\":\"tick\",\"file\":\"gen.nim\",\"line\":1},"
                + "{\"t\":" + t + ",\"id\":" + id + ",\"state\":\"Running\"},"
                + "{\"t\":" + QByteArray::number(i * 20 + 10) + ",\"id\":" + id + ",\"state\":\"Completed\"}";
        }
        json += "]}";
        TimeAxis axis;
        ProfileDocument document(&axis);
        TaskLaneView lanes(&document);
        const auto heightOf = [&lanes](int rows) {
            return TaskLaneView::kLegendHeight + TaskLaneView::kHeaderHeight + rows * lanes.rowHeight();
        };
        lanes.setLayout(TaskLaneView::Layout(layout));
        lanes.resize(TimeAxis::kGutter + kTimeWidth, heightOf(before));
        lanes.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lanes));
        document.setProfile(loadedText(json));
        QCOMPARE(lanes.taskCount(), std::size_t(8));
        lanes.resize(lanes.width(), heightOf(after));
        QCOMPARE(int(lanes.effectiveLayout()), effective);
        QCOMPARE(int(lanes.layout()), layout);
        QCOMPARE(lanes.rowsInView(), inView);
    }

    void saysWhyThereAreNoRows()
    {
        Fixture f(loadedText(JSON([{"ph" : "X", "pid" : 1, "tid" : 1, "name" : "sync", "ts" : 0, "dur" : 10}])));
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(0));
        QCOMPARE(f.lanes.contentHeight(), 0);
    }

    // A profile without tasks says so, but the preview of a loading file
    // whose format does not add its tasks to previews holds its calls only:
    // its tasks come with the whole profile.
    void placeholderSaysWhy_data()
    {
        QTest::addColumn<int>("partial"); // -1: the whole file; else a PartialLoad::Kind
        QTest::addColumn<bool>("holdsTasks");
        QTest::addColumn<QString>("expected");
        QTest::newRow("whole file") << -1 << false << QStringLiteral("No asynchronous tasks in this profile");
        QTest::newRow("preview of calls") << int(PartialLoad::Kind::Preview) << false
                                          << QStringLiteral("Tasks are shown when the load ends: this file's previews hold the calls only");
        QTest::newRow("preview of calls and tasks")
            << int(PartialLoad::Kind::Preview) << true << QStringLiteral("No asynchronous tasks read so far");
        QTest::newRow("cut") << int(PartialLoad::Kind::Cut) << false << QStringLiteral("No asynchronous tasks in this profile");
    }
    void placeholderSaysWhy()
    {
        QFETCH(int, partial);
        QFETCH(bool, holdsTasks);
        QFETCH(QString, expected);
        ProfileBuilder builder("test");
        const TrackId track = builder.addTrack(TrackInfo{});
        builder.addCall(track, builder.label("sync"), 0, 10, 0);
        if (partial >= 0) {
            PartialLoad part;
            part.kind = PartialLoad::Kind(partial);
            part.holdsTasks = holdsTasks;
            builder.setPartial(part);
        }
        Fixture f(LoadedProfile::prepare(builder.build(), QStringLiteral("t.json")));
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(0));
        QCOMPARE(f.lanes.placeholderText(), expected);
    }

    // Node's async_hooks trace: most promises never run a callback, so the
    // lanes start without the tasks that never ran (Profile::
    // hidesTasksThatNeverRan); the choice shows them and then holds.
    void hidesTasksThatNeverRan_data()
    {
        QTest::addColumn<bool>("packedOnLoadingThread");
        QTest::newRow("packed on the loading thread") << true;
        QTest::newRow("packed by the view") << false;
    }
    void hidesTasksThatNeverRan()
    {
        QFETCH(bool, packedOnLoadingThread);
        LoadedProfile loaded = loadedFile(dataPath(QStringLiteral("samples/node/http-async-hooks.trace.json")));
        if (!packedOnLoadingThread) {
            loaded.tasks = nullptr;
            loaded.tasksThatRan = nullptr;
        }
        Fixture f(loaded);
        QVERIFY(f.lanes.hidesTasksThatNeverRan());
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(4061));
        QCOMPARE(f.lanes.hiddenTaskCount(), std::size_t(1543));
        std::size_t neverRan = 0;
        for (MeasurementId m = 0; m < f.profile().measurementCount(); ++m)
            neverRan += f.profile().measurement(m).isAsync() && f.profile().intervalsOf(m).empty();
        QCOMPARE(neverRan, std::size_t(1543));
        f.lanes.setHideTasksThatNeverRan(false);
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(5604));
        QCOMPARE(f.lanes.hiddenTaskCount(), std::size_t(0));
        // The user's choice holds for the next profile that asks to hide.
        f.document.setProfile(loaded);
        QVERIFY(!f.lanes.hidesTasksThatNeverRan());
        QCOMPARE(f.lanes.totalTaskCount(), std::size_t(5604));
    }

private:
    LoadedProfile m_loaded;
};

QTEST_MAIN(TestTaskLaneView)
#include "tst_tasklaneview.moc"
