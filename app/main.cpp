// runlane: the desktop viewer. `runlane FILE` opens FILE; `runlane` alone
// opens the bundled demo profile.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Runlane"));
    QApplication::setApplicationName(QStringLiteral("Runlane"));
    QApplication::setApplicationVersion(QStringLiteral(RUNLANE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Viewer for profiles of asynchronous programs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The profile to open (default: the demo)."));
    parser.process(app);

    runlane::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        window.openDemo();
    else
        window.openFile(files.first());
    return app.exec();
}
