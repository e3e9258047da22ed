// runlane: the desktop viewer. `runlane FILE` opens FILE; `runlane` alone
// opens the bundled demo profile; `runlane TRACE PROFILE...` opens TRACE with
// the V8 CPU profiles of the same run added to it (File ▸ Add to this
// profile…, onto the trace's main thread).
#include "backgroundloader.h"
#include "hugepagenew.h"
#include "icicleview.h"
#include "livecontroller.h"
#include "loadcontroller.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

namespace {

// For `--report-first-frame`: the first paint of the icicle plot after a
// preview (a big file, while it loads) or the profile is shown is the
// first frame with data; the first paint after the whole profile is shown
// ends the measurement. Both are printed then, and the application quits:
//   first frame with data: 0.41 s (preview, 12 % read); profile complete: 11.90 s
//   profile shown after 11850 ms; first frame painted after 11900 ms
// (the second line as before previews existed: the complete profile's).
class FirstFrameReporter : public QObject
{
public:
    FirstFrameReporter(runlane::MainWindow& window, const QElapsedTimer& clock) : m_clock(clock)
    {
        connect(window.loadController(), &runlane::LoadController::previewShown, this,
                [this, &window](const runlane::LoadedProfile& preview) {
                    if (m_dataMs >= 0 || m_awaiting != Awaiting::Nothing)
                        return;
                    const auto& part = preview.profile->partial();
                    m_dataWhat = part && part->totalBytes > 0
                        ? QStringLiteral("preview, %1 % read").arg(100.0 * double(part->bytesRead) / double(part->totalBytes), 0, 'f', 1)
                        : QStringLiteral("preview");
                    watch(window, Awaiting::Preview);
                });
        connect(&window, &runlane::MainWindow::profileShown, this, [this, &window] {
            m_shownMs = m_clock.elapsed();
            watch(window, Awaiting::Profile);
        });
        connect(&window, &runlane::MainWindow::loadFailed, this, [] { QCoreApplication::exit(1); });
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::Paint || m_awaiting == Awaiting::Nothing)
            return false;
        const Awaiting painted = std::exchange(m_awaiting, Awaiting::Nothing);
        watched->removeEventFilter(this);
        // Timed once the paint is done.
        QTimer::singleShot(0, this, [this, painted] {
            const qint64 now = m_clock.elapsed();
            if (m_dataMs < 0) {
                m_dataMs = now;
                if (painted == Awaiting::Profile)
                    m_dataWhat = QStringLiteral("the whole profile");
            }
            if (painted != Awaiting::Profile)
                return;
            std::printf("first frame with data: %.2f s (%s); profile complete: %.2f s\n", double(m_dataMs) / 1000.0,
                        qPrintable(m_dataWhat), double(now) / 1000.0);
            std::printf("profile shown after %lld ms; first frame painted after %lld ms\n",
                        static_cast<long long>(m_shownMs), static_cast<long long>(now));
            std::fflush(stdout);
            QCoreApplication::quit();
        });
        return false;
    }

private:
    enum class Awaiting { Nothing, Preview, Profile };
    void watch(runlane::MainWindow& window, Awaiting what)
    {
        if (m_awaiting == Awaiting::Nothing)
            window.icicle()->installEventFilter(this);
        m_awaiting = what;
        window.icicle()->update();
    }

    const QElapsedTimer& m_clock;
    qint64 m_shownMs = 0;
    qint64 m_dataMs = -1;
    QString m_dataWhat;
    Awaiting m_awaiting = Awaiting::Nothing;
};

// The application's name and its options, the same whichever application
// object parses them, so that --help reads the same with a display or without.
struct CommandLine {
    QCommandLineParser parser;
    const QCommandLineOption firstFrame{QStringLiteral("report-first-frame"),
                                        QStringLiteral("Print how long the profile took to appear (from the start to "
                                                       "its first painted frame), then quit. For benchmarks.")};
    const QCommandLineOption noPreviews{QStringLiteral("no-previews"),
                                        QStringLiteral("Show a file only once it is loaded, not while it loads. With "
                                                       "--report-first-frame: what the previews cost. For benchmarks.")};
    const QCommandLineOption attach{QStringLiteral("attach"),
                                    QStringLiteral("Follow a running program's Chroprof metrics: an exporter's "
                                                   "http://host:port/metrics or a Prometheus server "
                                                   "(prometheus://host:9090). File ▸ Attach… does the same."),
                                    QStringLiteral("url")};
    const QCommandLineOption interval{QStringLiteral("interval"),
                                      QStringLiteral("With --attach: milliseconds between scrapes (default 1000)."),
                                      QStringLiteral("ms"), QStringLiteral("1000")};

    CommandLine()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Runlane"));
        QCoreApplication::setApplicationName(QStringLiteral("Runlane"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RUNLANE_VERSION));
        parser.setApplicationDescription(QStringLiteral("Viewer for profiles of asynchronous programs."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The profile to open (default: the demo)."));
        parser.addPositionalArgument(QStringLiteral("cpuprofile"),
                                     QStringLiteral("V8 CPU profiles recorded in the same run as the trace FILE, added to "
                                                    "it under its main thread."),
                                     QStringLiteral("[cpuprofile...]"));
        parser.addOption(firstFrame);
        parser.addOption(noPreviews);
        parser.addOption(attach);
        parser.addOption(interval);
    }
};

// `runlane --help` and `--version` answer without a display (over ssh, in a
// package's build, which runs --help for the man page): a QApplication
// aborts where it finds no screen, so they are parsed first under a
// QCoreApplication, which needs none. Anything else goes on to the viewer:
// --help-all too, whose Qt options are the QApplication's, and a command
// line this parse refuses (Qt's own -platform ... is known only there).
void answerWithoutDisplay(int& argc, char** argv)
{
    QCoreApplication core(argc, argv);
    CommandLine commandLine;
    QCommandLineParser& parser = commandLine.parser;
    if (parser.parse(QCoreApplication::arguments())
        && (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version"))))
        parser.process(core); // prints, then exits
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    // This thread answers input: it must never wait for the address space's
    // lock behind a load's page faults (hugepagenew.h).
    runlane::stopHugePageAdvice();
    answerWithoutDisplay(argc, argv);
    QApplication app(argc, argv);
    // The window belongs to the installed desktop entry (its name and icon
    // under Wayland): packaging/io.github.runlane.Runlane.desktop.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.runlane.Runlane"));
    CommandLine commandLine;
    QCommandLineParser& parser = commandLine.parser;
    parser.process(app);
    const QCommandLineOption& firstFrame = commandLine.firstFrame;
    const QCommandLineOption& attach = commandLine.attach;
    const QCommandLineOption& interval = commandLine.interval;

    runlane::MainWindow window;
    if (parser.isSet(commandLine.noPreviews))
        window.loader()->setPreviews(false);
    std::unique_ptr<FirstFrameReporter> reporter;
    if (parser.isSet(firstFrame))
        reporter = std::make_unique<FirstFrameReporter>(window, clock);
    window.show();
    // A recording the last run could not save is offered once the window is up.
    QTimer::singleShot(0, &window, [&window] { window.liveController()->offerRecovery(); });
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(attach)) {
        runlane::LiveOptions options;
        bool ok = false;
        const int ms = parser.value(interval).toInt(&ok);
        if (!ok || ms < 100) {
            std::fprintf(stderr, "runlane: --interval must be at least 100 (ms)\n");
            return 2;
        }
        options.interval = std::chrono::milliseconds(ms);
        QString error;
        if (!window.liveController()->attach(QUrl::fromUserInput(parser.value(attach)), options, &error)) {
            std::fprintf(stderr, "runlane: cannot attach: %s\n", qPrintable(error));
            return 2;
        }
    } else if (files.isEmpty())
        window.openDemo();
    else {
        std::vector<runlane::ProfileAddition> additions;
        for (qsizetype i = 1; i < files.size(); ++i)
            additions.push_back(runlane::ProfileAddition{files[i].toStdString(), std::nullopt});
        window.openFile(files.first(), std::move(additions));
    }
    return app.exec();
}
