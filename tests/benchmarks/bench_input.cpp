// bench_input: what a user feels — the time from one input (a wheel notch,
// a key) on the real main window to the *last* repaint it causes, with
// every view on screen (icicle, overview, ruler, task lanes, usage chart,
// rank). A paint benchmark (bench_render) times one view's frame; this
// times everything an input sets off: background recomputes, their
// results, and the repaints they cause, until the window is quiet.
//
// The input is posted to the event queue, as the platform delivers it,
// and a repaint counts when its paint event has been handled. "Quiet" is
// 300 ms without a paint, as ../shared/tools/xlatency measures it with
// XDamage under X. Run under Xvfb (DISPLAY set) for the real backing
// store, or offscreen.
//
//   bench_input [--events 1000000] [--file trace.json] [--inputs 12] [--size 1400x900] [--compare 1]
//
// With --compare 1 it then compares the open trace with a base of as many
// events (another seed): the time from File ▸ Compare with… to the compare
// rank shown and, in the aggregated view, to the differential flame graph
// shown, then the same inputs on the differential flame graph.

#include "comparecontroller.h"
#include "comparemodel.h"
#include "comparesession.h"
#include "icicleview.h"
#include "mainwindow.h"
#include "mainwindowdriver.h"
#include "rankpanel.h"
#include "timeaxis.h"
#include "tracegenerator.h"

#include <QApplication>
#include <QDir>
#include <QKeyEvent>
#include <QTemporaryDir>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace runlane;

namespace {

using Clock = std::chrono::steady_clock;

// The GUI thread's CPU time: what an input costs it, less sensitive than
// wall time to a busy host (on a shared 2-core machine the wall time of
// the same build varied 2x within an hour, 2026-12-07).
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Notes when each paint event has been handled: the end of a repaint.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        const bool paint = event->type() == QEvent::Paint;
        const bool input = event->type() == QEvent::Wheel || event->type() == QEvent::KeyPress;
        const auto start = paint || input ? Clock::now() : Clock::time_point{};
        const bool result = QApplication::notify(receiver, event);
        if (input && trace)
            std::fprintf(stderr, "  %7.2f ms  input handled in %.2f ms\n",
                         std::chrono::duration<double, std::milli>(start - inputTime).count(),
                         std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        if (paint) {
            lastPaint = Clock::now();
            lastPaintCpu = threadCpuMs();
            ++paints;
            // Where the GUI thread's painting goes, by widget class.
            QObject* owner = receiver;
            while (owner->parent() && owner->objectName() == QLatin1String("qt_scrollarea_viewport"))
                owner = owner->parent();
            const double ms = std::chrono::duration<double, std::milli>(lastPaint - start).count();
            // A plain QWidget is named after the widget it is part of.
            std::string name = owner->metaObject()->className();
            if (name == "QWidget" && owner->parent())
                name += std::string(" in ") + owner->parent()->metaObject()->className();
            paintMs[name] += ms;
            if (trace)
                std::fprintf(stderr, "  %7.2f ms  paint %-28s %5.2f ms\n",
                             std::chrono::duration<double, std::milli>(start - inputTime).count(),
                             name.c_str(), ms);
        }
        return result;
    }

    std::map<std::string, double> paintMs;
    bool trace = qEnvironmentVariableIsSet("BENCH_INPUT_TRACE"); // every paint of every input, to stderr
    Clock::time_point inputTime{};

    Clock::time_point lastPaint{};
    double lastPaintCpu = 0;
    long paints = 0;
};

struct Measure {
    double first = 0; // ms to the first repaint
    double last = 0; // ms to the last
    double cpu = 0; // the GUI thread's CPU ms from the input to the last repaint
    long paints = 0;
};

// Posts the input, then runs the event loop until 300 ms pass without a
// paint (at most 3 s).
Measure measure(TimingApplication& app, QObject* target, QEvent* input)
{
    const long before = app.paints;
    const double cpuStart = threadCpuMs();
    const auto start = Clock::now();
    app.inputTime = start;
    if (app.trace)
        std::fprintf(stderr, "input %d\n", int(input->type()));
    QCoreApplication::postEvent(target, input);
    Measure m;
    bool seenFirst = false;
    auto quietSince = start;
    // Sleeps between events (a busy loop would take a core from the
    // views' background work); the timer wakes it to check for quiet.
    QTimer tick;
    tick.start(5);
    while (true) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        const auto now = Clock::now();
        if (app.paints != before) {
            if (!seenFirst && app.lastPaint >= start) {
                seenFirst = true;
                m.first = std::chrono::duration<double, std::milli>(app.lastPaint - start).count();
            }
            m.last = std::chrono::duration<double, std::milli>(app.lastPaint - start).count();
            quietSince = std::max(quietSince, app.lastPaint);
        }
        if (now - quietSince > std::chrono::milliseconds(300) || now - start > std::chrono::seconds(3))
            break;
    }
    m.paints = app.paints - before;
    if (m.paints > 0)
        m.cpu = app.lastPaintCpu - cpuStart;
    return m;
}

void report(const char* what, std::vector<Measure> ms)
{
    auto at = [](std::vector<double> v, double q) {
        std::sort(v.begin(), v.end());
        return v[std::size_t(q * double(v.size() - 1) + 0.5)];
    };
    std::vector<double> first, last, cpu;
    long paints = 0;
    for (const Measure& m : ms) {
        first.push_back(m.first);
        last.push_back(m.last);
        cpu.push_back(m.cpu);
        paints += m.paints;
    }
    std::printf("%-22s first repaint median %6.1f ms | last repaint median %6.1f ms, max %6.1f ms | %4.1f paints per input"
                " | GUI thread CPU median %5.1f ms\n",
                what, at(first, 0.5), at(last, 0.5), at(last, 1.0), double(paints) / double(ms.size()), at(cpu, 0.5));
}

void paintTimes(const TimingApplication& app, int inputs)
{
    std::printf("paint time per input, by widget:");
    for (const auto& [name, ms] : app.paintMs)
        std::printf(" %s %.1f ms;", name.c_str(), ms / double(inputs));
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv)
{
    std::uint64_t events = 1'000'000;
    std::string file;
    int inputs = 12;
    int width = 1400, height = 900;
    bool compare = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--events"))
            events = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--file"))
            file = argv[i + 1];
        else if (!std::strcmp(argv[i], "--inputs"))
            inputs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--size"))
            std::sscanf(argv[i + 1], "%dx%d", &width, &height);
        else if (!std::strcmp(argv[i], "--compare"))
            compare = std::atoi(argv[i + 1]) != 0;
    }
    TimingApplication app(argc, argv);
    QTemporaryDir dir;
    test::useTemporarySettings(dir.path(), QStringLiteral("bench_input"));
    if (file.empty()) {
        file = QDir(dir.path()).filePath(QStringLiteral("trace.json")).toStdString();
        if (!bench::TraceGenerator::writeFile(file.c_str(), events)) {
            std::fprintf(stderr, "cannot write %s\n", file.c_str());
            return 1;
        }
    }
    MainWindow window;
    window.resize(width, height);
    window.show();
    window.openFile(QString::fromStdString(file));
    if (!test::settle(window, 600000) || !window.document()->hasProfile()) {
        std::fprintf(stderr, "could not load %s: %s\n", file.c_str(), qPrintable(window.lastError()));
        return 1;
    }
    QTest::qWait(500);
    app.paintMs.clear();
    const Profile& p = *window.document()->profile();
    std::printf("%s: %zu intervals, %zu measurements; window %dx%d on %s\n", file.c_str(), p.intervals().size(),
                std::size_t(p.measurementCount()), window.width(), window.height(),
                qPrintable(QGuiApplication::platformName()));

    QWidget* icicle = window.icicle();
    icicle->setFocus();
    const QPointF centre(icicle->width() * 0.6, icicle->height() / 2.0);
    const QPointF global = icicle->mapToGlobal(centre);
    auto wheel = [&](int delta) {
        return new QWheelEvent(centre, global, QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                               false);
    };
    auto key = [](int k) { return new QKeyEvent(QEvent::KeyPress, k, Qt::NoModifier, QString(QChar(k).toLower())); };

    // In and back out, right and back left: every input starts from the
    // whole profile, where the most is drawn and the usage chart bins the
    // most intervals.
    std::vector<Measure> in, out, pan, zoomKey;
    for (int i = 0; i < inputs; ++i) {
        in.push_back(measure(app, icicle, wheel(120)));
        out.push_back(measure(app, icicle, wheel(-120)));
    }
    for (int i = 0; i < inputs; ++i) {
        zoomKey.push_back(measure(app, icicle, key(Qt::Key_W)));
        measure(app, icicle, key(Qt::Key_S));
    }
    TimeAxis& axis = *window.axis(); // a pan needs room: the middle half
    axis.zoomAt(axis.boundsStart() + (axis.boundsEnd() - axis.boundsStart()) / 2, 0.5);
    QTest::qWait(500);
    for (int i = 0; i < inputs; ++i) {
        pan.push_back(measure(app, icicle, key(Qt::Key_D)));
        pan.push_back(measure(app, icicle, key(Qt::Key_A)));
    }
    report("wheel notch in", in);
    report("wheel notch out", out);
    report("key D (pan)", pan);
    report("key W (zoom in)", zoomKey);
    paintTimes(app, 7 * inputs);
    if (!compare)
        return 0;

    // Compare mode, as a user enters it: a base of as many events.
    const std::string baseFile = QDir(dir.path()).filePath(QStringLiteral("base.json")).toStdString();
    bench::TraceGenerator::Options options;
    options.events = events;
    options.seed = 2;
    std::FILE* baseOut = std::fopen(baseFile.c_str(), "wb");
    if (!baseOut || (bench::TraceGenerator(options).write(baseOut), std::fclose(baseOut) != 0)) {
        std::fprintf(stderr, "cannot write %s\n", baseFile.c_str());
        return 1;
    }
    CompareSession* session = window.document()->compare();
    axis.zoomToAll();
    QTest::qWait(300);
    const auto waitFor = [](const std::function<bool()>& done) {
        const auto start = Clock::now();
        while (!done() && Clock::now() - start < std::chrono::seconds(600))
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    const auto started = Clock::now();
    window.compareController()->compareWith({QString::fromStdString(baseFile)});
    const double toBase = waitFor([&] { return session->isActive(); });
    const double toRank = waitFor([&] { return window.rank()->compareModel()->shown() != nullptr; });
    const double total = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    if (!window.rank()->compareModel()->shown()) {
        std::fprintf(stderr, "the comparison did not arrive\n");
        return 1;
    }
    std::printf("compare with a base of %llu events: base loaded (with its call tree) %.0f ms, compare rank shown "
                "%.0f ms later, %.0f ms in all; %d compare rows\n",
                static_cast<unsigned long long>(events), toBase, toRank, total, window.rank()->compareModel()->rowCount());
    const auto aggregated = Clock::now();
    window.document()->setAggregated(true);
    const double toTree = waitFor([&] { return window.document()->callTree() != nullptr; });
    const double toDiff = waitFor([&] { return window.icicle()->isDifferential(); });
    std::printf("aggregated view on: call tree after %.0f ms, differential flame graph %.0f ms later (%zu paths, %zu "
                "removed), %.0f ms in all\n",
                toTree, toDiff, session->diff() ? session->diff()->pathCount() : std::size_t(0),
                session->diff() ? session->diff()->removed().size() : std::size_t(0),
                std::chrono::duration<double, std::milli>(Clock::now() - aggregated).count());
    QTest::qWait(500);
    app.paintMs.clear();
    std::vector<Measure> diffIn, diffOut;
    for (int i = 0; i < inputs; ++i) {
        diffIn.push_back(measure(app, icicle, wheel(120)));
        diffOut.push_back(measure(app, icicle, wheel(-120)));
    }
    report("diff: wheel notch in", diffIn);
    report("diff: wheel notch out", diffOut);
    paintTimes(app, 2 * inputs);
    return 0;
}
