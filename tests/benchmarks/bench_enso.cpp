// bench_enso: opening a multi-process Enso profile against the same events
// in one process (issue 43: within 1.2x). EnsoGenerator writes an IDE
// array and the Language Server's, about `--events` events of which
// `--messages` are messages between the processes (RpcRequest, RpcEvent,
// BackendMessage); the one-process file is the IDE's array with the
// Language Server's events moved into it (their times made relative to the
// IDE's $TimeOffset). A third load opens the IDE's array alone with the
// Language Server's CSV message log added. Each load runs in a child
// process of its own, alternating, `--repeat` times: the CPU time (user +
// system) and peak memory are the load's alone; the medians and the ratio
// of CPU times are printed, never asserted.
//
//   bench_enso [--events 1000000] [--messages 100000] [--repeat 3] [--keep DIR]

#include "benchsupport.h"
#include "childrun.h"
#include "ensogenerator.h"
#include "profileloader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <string>
#include <vector>

using namespace runlane;

namespace {

// Events in a generated file: one a line, each line of an array that is
// not a bracket.
std::uint64_t countEvents(const std::string& text)
{
    std::uint64_t events = 0;
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        if (text[at] == '{')
            ++events;
        if (text.find('\n', at) == std::string::npos)
            break;
    }
    return events;
}

// The Language Server's array folded into the IDE's: one process, the same
// events, the LS's absolute times made relative to the IDE's offset.
std::string oneProcess(const std::string& both, std::uint64_t ideOffset)
{
    const std::string lsStart = "[\n{\"X\":{\"t\":0,\"d\":{\"$Process\":\"LanguageServer\"";
    const std::size_t ls = both.find(lsStart);
    std::string out = both.substr(0, ls);
    out.resize(out.rfind("\n]")); // the IDE array's end
    const std::string tKey = "{\"X\":{\"t\":";
    for (std::size_t at = both.find('\n', ls) + 1; at < both.size(); at = both.find('\n', at) + 1) {
        const std::size_t end = both.find('\n', at);
        std::string line = both.substr(at, end - at);
        if (line.compare(0, tKey.size(), tKey) == 0 && line.find("BackendMessage") != std::string::npos) {
            const std::size_t digits = line.find(',', tKey.size());
            const std::uint64_t t = std::stoull(line.substr(tKey.size(), digits - tKey.size()));
            if (line.back() == ',')
                line.pop_back();
            out += ",\n" + tKey + std::to_string(t - ideOffset) + line.substr(digits);
        }
        if (end == std::string::npos)
            break;
    }
    out += "\n]\n";
    return out;
}

bool write(const QString& path, const std::string& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly)
        && file.write(text.data(), qint64(text.size())) == qint64(text.size());
}

bool loadOnce(const QString& path, const QString& added, bench::Timing& timing)
{
    return bench::inChild(
        [&]() -> long long {
            LoadControl control;
            if (!added.isEmpty())
                control.additions.push_back(ProfileAddition{added.toStdString(), std::nullopt});
            const LoadResult r = ProfileLoader::load(path, control);
            if (!r.ok()) {
                std::fprintf(stderr, "bench_enso: %s: %s\n", qPrintable(path), r.error.toString().c_str());
                return -1;
            }
            return static_cast<long long>(r.profile->intervalCount() + r.profile->marks().size());
        },
        timing);
}

void report(const char* what, const bench::Timing& t)
{
    std::printf("%-22s %9zu intervals + marks  cpu %6.3f s  wall %6.3f s  peak %6.1f MiB\n", what, t.intervals,
                bench::median(t.cpu), bench::median(t.wall), bench::median(t.peakMiB));
}

} // namespace

int main(int argc, char** argv)
{
    std::uint64_t events = 1'000'000;
    std::uint64_t messages = 100'000;
    bench::FileOptions options;
    options.repeat = 3;
    if (!bench::parseOptions(argc, argv, options, [&](const std::string& name, const char* value) {
            if (name == "--events")
                events = std::strtoull(value, nullptr, 10);
            else if (name == "--messages")
                messages = std::strtoull(value, nullptr, 10);
            else
                return false;
            return true;
        })
        || messages >= events || options.repeat < 1) {
        std::fprintf(stderr, "Usage: bench_enso [--events N] [--messages M < N] [--repeat K] [--keep DIR]\n");
        return 2;
    }
    // Events and messages per task, from a small profile: a message is one
    // event, the rest grow with the tasks; the request chance sets the
    // messages' share.
    test::EnsoGenOptions gen;
    gen.tasks = 4000;
    gen.requestChance = 0.5;
    test::EnsoGenTruth truth;
    const std::string sample = test::EnsoGenerator::profile(gen, &truth);
    const double messagesPerTask = double(truth.messages.size()) / gen.tasks;
    const double otherPerTask = (double(countEvents(sample)) - double(truth.messages.size())) / gen.tasks;
    gen.tasks = int(double(events - messages) / otherPerTask);
    gen.requestChance = std::min(1.0, gen.requestChance * double(messages) / (messagesPerTask * gen.tasks));

    const std::string both = test::EnsoGenerator::profile(gen, &truth);
    const std::string one = oneProcess(both, gen.ideOffset);
    gen.languageServer = false;
    const std::string ide = test::EnsoGenerator::profile(gen);
    QTemporaryDir tmp;
    const QString dir = options.keep.empty() ? tmp.path() : QString::fromStdString(options.keep);
    QDir().mkpath(dir);
    const QString multiPath = dir + QStringLiteral("/enso-multi.json");
    const QString onePath = dir + QStringLiteral("/enso-one.json");
    const QString idePath = dir + QStringLiteral("/enso-ide.json");
    const QString logPath = dir + QStringLiteral("/enso-ls.csv");
    if (!write(multiPath, both) || !write(onePath, one) || !write(idePath, ide) || !write(logPath, truth.messageLog)) {
        std::fprintf(stderr, "bench_enso: cannot write in %s\n", qPrintable(dir));
        return 1;
    }
    std::printf("%llu events (%llu in one process), %zu messages, %d IDE tasks, request chance %.3f\n",
                static_cast<unsigned long long>(countEvents(both)), static_cast<unsigned long long>(countEvents(one)),
                truth.messages.size(), gen.tasks, gen.requestChance);
    bench::Timing multi, single, added;
    for (int k = 0; k < options.repeat; ++k) {
        if (!loadOnce(multiPath, {}, multi) || !loadOnce(onePath, {}, single) || !loadOnce(idePath, logPath, added))
            return 1;
    }
    report("two processes", multi);
    report("one process", single);
    report("IDE + LS log added", added);
    std::printf("cpu ratio: two processes / one %.3f, IDE + log added / one %.3f (median of %d each)\n",
                bench::median(multi.cpu) / bench::median(single.cpu), bench::median(added.cpu) / bench::median(single.cpu),
                options.repeat);
    return 0;
}
