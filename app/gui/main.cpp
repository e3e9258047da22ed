// runlane: the desktop viewer. `runlane FILE` opens FILE; `runlane` alone
// opens the bundled demo profile; `runlane TRACE PROFILE...` opens TRACE with
// the V8 CPU profiles of the same run added to it (File ▸ Add to this
// profile…, onto the trace's main thread).
#include "icicleview.h"
#include "livecontroller.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <vector>

namespace {

// For `--report-first-frame`: once the profile is shown, the first paint of
// the icicle plot ends the measurement; the time is printed when that paint
// is done, and the application quits.
class FirstFrameReporter : public QObject
{
public:
    FirstFrameReporter(runlane::MainWindow& window, const QElapsedTimer& clock) : m_clock(clock)
    {
        connect(&window, &runlane::MainWindow::profileShown, this, [this, &window] {
            m_shownMs = m_clock.elapsed();
            window.icicle()->installEventFilter(this);
            window.icicle()->update();
        });
        connect(&window, &runlane::MainWindow::loadFailed, this, [] { QCoreApplication::exit(1); });
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_painted) {
            m_painted = true;
            watched->removeEventFilter(this);
            QTimer::singleShot(0, this, [this] {
                std::printf("profile shown after %lld ms; first frame painted after %lld ms\n",
                            static_cast<long long>(m_shownMs), static_cast<long long>(m_clock.elapsed()));
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return false;
    }

private:
    const QElapsedTimer& m_clock;
    qint64 m_shownMs = 0;
    bool m_painted = false;
};

// The application's name and its options, the same whichever application
// object parses them, so that --help reads the same with a display or without.
struct CommandLine {
    QCommandLineParser parser;
    const QCommandLineOption firstFrame{QStringLiteral("report-first-frame"),
                                        QStringLiteral("Print how long the profile took to appear (from the start to "
                                                       "its first painted frame), then quit. For benchmarks.")};
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
