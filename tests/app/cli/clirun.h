#pragma once

// Runs the real runlane-cli binary (RUNLANE_CLI) for the CLI tests.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace runlane::test {

struct Run {
    int code = -1;
    QString out;
    QString err;
};

inline Run cli(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(RUNLANE_CLI), args);
    process.waitForFinished(60000);
    Run run;
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace runlane::test
