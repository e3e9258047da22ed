#include "clicommand.h"

#include "chroprofsnapshotwriter.h"
#include "clicommands.h"
#include "clisupport.h"
#include "livesource.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <optional>
#include <ostream>

#include <fcntl.h>
#include <unistd.h>

namespace runlane {

namespace {

constexpr const char* kRecordHelp = R"HELP(Usage: runlane-cli record URL -o FILE [--interval 1s] [--duration 60s | --until-interrupted]
                          [--timeout 10s] [--backfill 15m]

Records a running program's Chroprof metrics into FILE (Chroprof metric
snapshots, readable by every command and the viewer), each snapshot
written and flushed as it arrives: a recording that is killed still loads,
up to its last complete snapshot. Ctrl+C (SIGINT) or SIGTERM ends it
properly.

  URL              http://host:port/metrics: the program's exporter, scraped
                   every interval; prometheus://host:port or
                   http://host:port/api/v1: a Prometheus server that scrapes
                   it, asked for the last --backfill first, then every
                   interval for what is new
  -o FILE          the recording (--output FILE)
  --interval T     between fetches (default 1s)
  --duration T     stop after T (default 60s)
  --until-interrupted
                   record until Ctrl+C or SIGTERM
  --timeout T      per request (default 10s)
  --backfill T     how far back a Prometheus server is asked (default 15m;
                   whole minutes, at least 1)

Times take a unit: 500ms, 1s, 2m, 1h. Snapshots whose values did not change
since the last one are not written (Chroprof refreshes its gauges every few
seconds), so their times are the data's own. A failed fetch (refused,
timed out, a redirect, not 2xx, over 256 MiB) is retried after 1 s, 2 s,
4 s … up to 30 s; status lines go to stderr.

Exit codes: 0 at least one snapshot recorded, 1 FILE could not be written,
2 usage error, 3 nothing could be recorded (the last error is printed).
)HELP";

// "500ms", "1s", "2m", "1h": a positive whole number and a unit.
std::optional<std::chrono::milliseconds> parseDuration(const std::string& text)
{
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
        ++digits;
    if (digits == 0 || digits > 9)
        return std::nullopt;
    const long long n = std::stoll(text.substr(0, digits));
    const std::string unit = text.substr(digits);
    long long ms = 0;
    if (unit == "ms")
        ms = n;
    else if (unit == "s")
        ms = n * 1000;
    else if (unit == "m")
        ms = n * 60000;
    else if (unit == "h")
        ms = n * 3600000;
    else
        return std::nullopt;
    if (ms <= 0)
        return std::nullopt;
    return std::chrono::milliseconds(ms);
}

// The self-pipe: the handler only writes a byte, the event loop reads it.
int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(g_signalPipe[1], &byte, 1);
}

bool installSignalHandlers()
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return false;
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // A second Ctrl+C while the file is being finished kills as usual.
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    return ::sigaction(SIGINT, &action, nullptr) == 0 && ::sigaction(SIGTERM, &action, nullptr) == 0;
}

const char* stateName(LiveSource::State state)
{
    switch (state) {
    case LiveSource::State::Idle:
        return "idle";
    case LiveSource::State::Connecting:
        return "connecting";
    case LiveSource::State::Following:
        return "following";
    case LiveSource::State::Retrying:
        return "retrying";
    case LiveSource::State::Stopped:
        return "stopped";
    }
    return "";
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"-o", "--output", "--interval", "--duration", "--timeout", "--backfill"},
                             {"--help", "--until-interrupted"},
                             1,
                             1};
    if (const int code = CliSupport::parseArgs(args, spec, argc, argv, kRecordHelp, out, err); code >= 0)
        return code;
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output)
        return CliSupport::usageError(err, "record needs -o FILE");
    if (args.value("--duration") && args.has("--until-interrupted"))
        return CliSupport::usageError(err, "give --duration or --until-interrupted, not both");
    LiveOptions options;
    std::chrono::milliseconds duration{60000};
    const auto duration_ = [&](const char* option, std::chrono::milliseconds& into) {
        const auto text = args.value(option);
        if (!text)
            return true;
        const auto parsed = parseDuration(*text);
        if (parsed)
            into = *parsed;
        return parsed.has_value();
    };
    std::chrono::milliseconds backfill = options.backfill;
    for (const auto& [option, into] : {std::pair{"--interval", &options.interval}, std::pair{"--timeout", &options.timeout},
                                       std::pair{"--duration", &duration}, std::pair{"--backfill", &backfill}}) {
        if (!duration_(option, *into))
            return CliSupport::usageError(err, "bad " + std::string(option) + " '" + *args.value(option)
                                                   + "': give a positive time with a unit, e.g. 500ms, 1s, 2m, 1h");
    }
    options.backfill = std::chrono::duration_cast<std::chrono::minutes>(backfill);
    if (options.backfill.count() == 0)
        options.backfill = std::chrono::minutes(1);

    int qtArgc = 1;
    QCoreApplication app(qtArgc, argv);
    const QString urlText = QString::fromLocal8Bit(args.positional().front().c_str());
    QString error;
    std::unique_ptr<LiveSource> source = LiveSource::create(QUrl(urlText, QUrl::StrictMode), options, &error);
    if (!source)
        return CliSupport::usageError(err, error.toStdString());

    QFile file(QString::fromLocal8Bit(output->c_str()));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        err << "runlane-cli: cannot write " << *output << ": " << file.errorString().toStdString() << "\n";
        return CliCommands::OutputError;
    }
    ChroprofSnapshotWriter writer(&file);
    if (!writer.begin() || !file.flush()) {
        err << "runlane-cli: cannot write " << *output << ": " << writer.errorString().toStdString() << "\n";
        return CliCommands::OutputError;
    }
    if (!installSignalHandlers()) {
        err << "runlane-cli: cannot handle signals\n";
        return CliCommands::OutputError;
    }

    std::uint64_t written = 0;
    int code = CliCommands::Ok;
    bool finished = false;
    // Ends the recording once, whatever asked first (time, a signal, an
    // error writing the file).
    const auto finish = [&](const std::string& why, int exitCode) {
        if (finished)
            return;
        finished = true;
        source->stop();
        err << "runlane-cli: " << why << "\n";
        code = exitCode;
        QCoreApplication::exit(0);
    };
    QObject::connect(source.get(), &LiveSource::received, &app,
                     [&](const std::shared_ptr<const std::vector<ScrapedSnapshot>>& snapshots) {
                         if (finished)
                             return;
                         for (const ScrapedSnapshot& snapshot : *snapshots) {
                             // Each snapshot whole on disk before the next.
                             if (!writer.write(snapshot) || !file.flush())
                                 return finish("cannot write " + *output + ": " + writer.errorString().toStdString(),
                                               CliCommands::OutputError);
                             ++written;
                         }
                         err << "runlane-cli: " << written << " snapshot(s) recorded, the last of "
                             << QDateTime::fromMSecsSinceEpoch(snapshots->back().time / 1000000)
                                    .toString(Qt::ISODateWithMs)
                                    .toStdString()
                             << "\n";
                     });
    LiveSource::State lastState = LiveSource::State::Idle;
    QString lastMessage;
    QString lastError; // stop() clears the status; the exit message needs it
    QObject::connect(source.get(), &LiveSource::statusChanged, &app, [&]() {
        const LiveSource::Status& status = source->status();
        if (status.state == lastState && status.message == lastMessage)
            return;
        lastState = status.state;
        lastMessage = status.message;
        if (!status.message.isEmpty())
            // Without its "— retrying in 4 s": there may be no next attempt.
            lastError = status.message.section(QStringLiteral(" — retrying"), 0, 0);
        if (status.state == LiveSource::State::Stopped)
            return;
        err << "runlane-cli: " << source->description().toStdString() << ": " << stateName(status.state)
            << (status.message.isEmpty() ? "" : ": ") << status.message.toStdString() << "\n";
    });
    QSocketNotifier interrupts(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&interrupts, &QSocketNotifier::activated, &app, [&]() { finish("interrupted", CliCommands::Ok); });
    QTimer deadline;
    deadline.setSingleShot(true);
    if (!args.has("--until-interrupted")) {
        QObject::connect(&deadline, &QTimer::timeout, &app, [&]() { finish("duration reached", CliCommands::Ok); });
        deadline.start(duration);
    }
    QTimer::singleShot(0, source.get(), [&]() { source->start(); });
    app.exec();

    if (!writer.finish() || !file.flush()) {
        err << "runlane-cli: cannot write " << *output << ": " << writer.errorString().toStdString() << "\n";
        return CliCommands::OutputError;
    }
    file.close();
    if (code != CliCommands::Ok)
        return code;
    if (written == 0) {
        file.remove();
        err << "runlane-cli: nothing recorded from " << urlText.toStdString()
            << (lastError.isEmpty() ? std::string(": no Chroprof data") : ": " + lastError.toStdString()) << "\n";
        return CliCommands::InputError;
    }
    err << "runlane-cli: " << written << " snapshot(s) written to " << *output << "\n";
    return CliCommands::Ok;
}

} // namespace

CliCommand recordCommand()
{
    return {"record", "record a running program's Chroprof metrics (its exporter or a Prometheus server)", run};
}

} // namespace runlane
