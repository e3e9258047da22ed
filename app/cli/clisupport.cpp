#include "clisupport.h"

#include "baselinereport.h"
#include "clicommands.h"
#include "formatregistry.h"
#include "profile.h"
#include "ranktable.h"
#include "timeformat.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <utility>

namespace runlane {

int CliSupport::usageError(std::ostream& err, const std::string& message)
{
    err << "runlane-cli: " << message << " (see --help)\n";
    return CliCommands::UsageError;
}

namespace {

// "19372:19372"; nothing for anything else.
std::optional<ProfileAddition::Thread> parseThread(const std::string& text)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return std::nullopt;
    ProfileAddition::Thread thread;
    for (const auto& [part, value] : {std::pair{text.substr(0, colon), &thread.pid}, std::pair{text.substr(colon + 1), &thread.tid}}) {
        bool ok = false;
        *value = QString::fromStdString(part).toLongLong(&ok);
        if (!ok || part.empty() || part.front() == '+' || part.front() == ' ')
            return std::nullopt;
    }
    return thread;
}

} // namespace

CliArgs::Spec CliSupport::withAdditions(CliArgs::Spec spec)
{
    spec.valueOptions.insert(kAddThreadOption);
    spec.repeatOptions.insert(kAddOption);
    return spec;
}

std::vector<ProfileAddition> CliSupport::additions(const CliArgs& args)
{
    std::optional<ProfileAddition::Thread> thread;
    if (const auto text = args.value(kAddThreadOption))
        thread = parseThread(*text);
    std::vector<ProfileAddition> additions;
    for (const std::string& path : args.values(kAddOption))
        additions.push_back(ProfileAddition{QString::fromLocal8Bit(path.c_str()).toStdString(), thread});
    return additions;
}

int CliSupport::parseArgs(CliArgs& args, const CliArgs::Spec& spec, int argc, char** argv, const char* help,
                          std::ostream& out, std::ostream& err)
{
    if (!args.parse(spec, argc, argv, 2))
        return usageError(err, args.error());
    if (args.has("--help")) {
        out << help;
        return CliCommands::Ok;
    }
    if (const auto id = args.value(kInputFormatOption); id && !FormatRegistry::find(*id))
        return usageError(err, "unknown --input-format '" + *id + "' (" + FormatRegistry::ids() + ")");
    if (const auto thread = args.value(kAddThreadOption)) {
        if (!parseThread(*thread))
            return usageError(err, "bad --add-thread '" + *thread + "': give PID:TID, e.g. 19372:19372");
        if (args.values(kAddOption).empty())
            return usageError(err, "--add-thread says where --add PROFILE goes; no --add is given");
    }
    return -1;
}

int CliSupport::parseProfileArgs(CliArgs& args, CliArgs::Spec spec, int argc, char** argv, const char* help,
                                 std::ostream& out, std::ostream& err)
{
    spec.valueOptions.insert(kInputFormatOption);
    spec.valueOptions.insert(kVariantOption);
    return parseArgs(args, withAdditions(std::move(spec)), argc, argv,
                     (std::string(help) + kProfileHelp + kAddHelp).c_str(), out, err);
}

const InputFormat* CliSupport::inputFormat(const CliArgs& args)
{
    const auto id = args.value(kInputFormatOption);
    return id ? FormatRegistry::find(*id) : nullptr;
}

int CliSupport::load(const CliArgs& args, LoadResult& loaded, std::ostream& err)
{
    LoadControl control;
    const std::optional<std::string> variant = args.value(kVariantOption);
    if (variant && variant->empty())
        return usageError(err, "--variant needs a name ('runlane-cli summary FILE' lists a file's variants)");
    if (variant)
        control.variant = *variant;
    control.additions = additions(args);
    const std::string& path = args.positional()[0];
    loaded = ProfileLoader::load(QString::fromLocal8Bit(path.c_str()), control, inputFormat(args));
    // The variants are the file's: known only once it is read, but a name
    // it lacks is what was asked, not what the file holds.
    auto list = [](const std::vector<std::string>& names) {
        std::string text;
        for (const std::string& name : names)
            text += (text.empty() ? "" : ", ") + name;
        return text;
    };
    auto noVariants = [&] {
        return usageError(err, "--variant '" + *variant + "': " + path
                                   + " has no variants (pprof sample types and perf events are)");
    };
    if (!loaded.ok() && loaded.error.unknownVariant) {
        if (loaded.error.variants.empty())
            return noVariants();
        return usageError(err, "unknown --variant '" + *variant + "': " + path + " has " + list(loaded.error.variants));
    }
    if (!loaded.ok()) {
        err << "runlane-cli: " << loaded.error.toString() << "\n";
        return CliCommands::InputError;
    }
    if (variant && loaded.profile->variants().empty())
        return noVariants();
    return -1;
}

int CliSupport::loadRuns(const std::vector<std::string>& files, const InputFormat* format, bool keepCalls,
                         RunSet& runs, std::ostream& err)
{
    for (const std::string& path : files) {
        bool report = false;
        std::string error;
        if (!BaselineReport::readIfReport(path, runs, report, error)) {
            err << "runlane-cli: " << path << ": " << error << "\n";
            return CliCommands::InputError;
        }
        if (report)
            continue;
        const QString name = QString::fromLocal8Bit(path.c_str());
        // One profile in memory at a time: each is reduced to its rank.
        const LoadResult loaded = ProfileLoader::load(name, {}, format);
        if (!loaded.ok()) {
            err << "runlane-cli: " << loaded.error.toString() << "\n";
            return CliCommands::InputError;
        }
        runs.add(*loaded.profile, path, keepCalls);
    }
    return -1;
}

bool CliSupport::parsePercent(std::string text, double& out)
{
    if (!text.empty() && text.back() == '%')
        text.pop_back();
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value < 0 || value >= 1000)
        return false;
    out = value / 100;
    return true;
}

bool CliSupport::parseLevel(const std::string& text, double& out)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(value > 0 && value < 1))
        return false;
    out = value;
    return true;
}

bool CliSupport::parseCount(const std::string& text, std::size_t& out)
{
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoul(text);
    return out > 0;
}

ParseStatus CliSupport::parseValue(const std::string& text, ValueUnit unit, Time& out)
{
    if (unit == ValueUnit::Nanoseconds)
        return TimeFormat::parseDuration(text, out);
    return parseScaledDecimal(text, 3, out);
}

std::string CliSupport::valueProblem(ParseStatus status, ValueUnit unit)
{
    if (status == ParseStatus::Range)
        return unit == ValueUnit::Nanoseconds ? "longer than any profile can be (about 292 years at most)"
                                              : "too large a number";
    return unit == ValueUnit::Nanoseconds ? "times need a unit (ns, us, ms, s), e.g. 10ms..20ms"
                                          : "give two numbers of " + std::string(ValueFormat::key(unit));
}

int CliSupport::loadWithRange(const CliArgs& args, LoadResult& loaded, std::optional<TimeRange>& range,
                              std::ostream& err)
{
    const auto text = args.value("--range");
    if (text && text->find("..") == std::string::npos)
        return usageError(err, "--range takes A..B, e.g. 10ms..20ms");
    if (const int code = load(args, loaded, err); code >= 0)
        return code;
    // A pprof profile's intervals lie in call path order, not in time: a
    // range of them would look meaningful and mean nothing. The option
    // does not apply to the file, as a range past its end does not.
    if (text && !loaded.profile->hasTimestamps())
        return usageError(err, loaded.profile->sourcePath()
                                   + " has no timestamps (only totals per call stack): --range needs a timeline");
    if (text) {
        TimeRange parsed;
        std::string error;
        if (!parseRange(*text, *loaded.profile, parsed, error))
            return usageError(err, error);
        range = parsed;
    }
    return -1;
}

int CliSupport::loadTimeline(const CliArgs& args, LoadResult& loaded, std::optional<TimeRange>& range,
                             const std::string& without, std::ostream& err)
{
    if (const int code = loadWithRange(args, loaded, range, err); code >= 0)
        return code;
    if (!loaded.profile->hasTimestamps()) {
        err << "runlane-cli: " << loaded.profile->sourcePath() << " has no timestamps (only totals per call stack), "
            << without << "\n";
        return CliCommands::InputError;
    }
    return -1;
}

// "A..B": times from the profile start; an end left out is the profile's.
bool CliSupport::parseRange(const std::string& text, const Profile& profile, TimeRange& range, std::string& error)
{
    const auto dots = text.find("..");
    if (dots == std::string::npos) {
        error = "--range takes A..B, e.g. 10ms..20ms";
        return false;
    }
    Time from = 0;
    Time to = profile.duration();
    const std::string a = text.substr(0, dots);
    const std::string b = text.substr(dots + 2);
    const std::string bad = "bad --range '" + text + "': ";
    for (const auto& [part, value] : {std::pair{&a, &from}, std::pair{&b, &to}}) {
        if (part->empty())
            continue;
        if (const ParseStatus status = parseValue(*part, profile.unit(), *value); status != ParseStatus::Ok) {
            error = bad + valueProblem(status, profile.unit());
            return false;
        }
        if (*value < 0) {
            error = bad + "times count from the profile start and cannot be negative";
            return false;
        }
    }
    if (!a.empty() && from >= profile.duration() && profile.duration() > 0) {
        error = bad + "it starts after the profile ends (at " + ValueFormat::text(profile.duration(), profile.unit()) + ")";
        return false;
    }
    if (to < from) {
        error = bad + "the end is before the start";
        return false;
    }
    range = TimeRange{profile.startTime() + from, profile.startTime() + to};
    return true;
}

} // namespace runlane
