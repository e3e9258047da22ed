#pragma once

#include "cliargs.h"
#include "numberparse.h"
#include "profileloader.h"
#include "runset.h"
#include "valueformat.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace runlane {

class Profile;
struct TimeRange;

// What the subcommands share: parsing their arguments, loading the profile
// (with --input-format and --range), and the wording of usage errors.
class CliSupport
{
public:
    // Every command that reads a file offers it (FormatRegistry's ids).
    static constexpr const char* kInputFormatOption = "--input-format";
    // Which of a file's variants to load (a pprof sample type, a perf
    // event); `summary` lists them.
    static constexpr const char* kVariantOption = "--variant";
    // A V8 CPU profile of the same run read into the trace (repeatable),
    // and the thread of the trace its samples go to (PID:TID; default: the
    // trace's main thread).
    static constexpr const char* kAddOption = "--add";
    static constexpr const char* kAddThreadOption = "--add-thread";
    // The lines of --help that say so, for every command that loads one profile.
    static constexpr const char* kAddHelp = R"HELP(  --add PROFILE  add a V8 CPU profile (.cpuprofile) recorded in the same run
                 to FILE, a trace: its samples become a band of their own
                 under the trace's main thread; may be given again
  --add-thread PID:TID
                 put the added samples under this thread of the trace
)HELP";

    // The lines of --help for --input-format and --variant.
    static constexpr const char* kProfileHelp = R"HELP(  --input-format ID
                 read FILE as this format instead of recognising it from
                 its content (the ids: 'runlane-cli formats')
  --variant NAME
                 load this variant of the file: a pprof sample type
                 ("alloc_space"), a perf event ("cycles"); 'summary' lists
                 a file's variants
)HELP";

    // "runlane-cli: MESSAGE (see --help)"; returns the usage error's code.
    static int usageError(std::ostream& err, const std::string& message);
    // `spec` with --add and --add-thread, for a command that loads one profile.
    static CliArgs::Spec withAdditions(CliArgs::Spec spec);
    // Parses argv[2..] against `spec` and checks --input-format and
    // --add-thread; returns -1
    // to go on, or the exit code (after printing `help` for --help).
    static int parseArgs(CliArgs& args, const CliArgs::Spec& spec, int argc, char** argv, const char* help,
                         std::ostream& out, std::ostream& err);
    // parseArgs for a command that loads one profile (load, loadWithRange):
    // `spec` and `help` are the command's own, to which this adds
    // --input-format, --variant, --add and --add-thread and their lines.
    static int parseProfileArgs(CliArgs& args, CliArgs::Spec spec, int argc, char** argv, const char* help,
                                std::ostream& out, std::ostream& err);
    // The format --input-format names; null if it is not given.
    static const InputFormat* inputFormat(const CliArgs& args);
    // Loads the first positional argument (with its --variant and --add
    // files). Returns -1 to go on, or the exit code (the error printed): a
    // --variant the file does not have, or given for a file without
    // variants, is a usage error that lists the file's.
    static int load(const CliArgs& args, LoadResult& loaded, std::ostream& err);
    // The --add files and --add-thread of the arguments, as a load takes them.
    static std::vector<ProfileAddition> additions(const CliArgs& args);
    // load(), and the --range inside the profile if given. Returns -1 to go
    // on, or the exit code.
    static int loadWithRange(const CliArgs& args, LoadResult& loaded, std::optional<TimeRange>& range,
                             std::ostream& err);
    // loadWithRange() for a command that needs a timeline: a profile
    // without timestamps (only totals per call stack) is an input error,
    // "FILE has no timestamps (only totals per call stack), " + `without`.
    static int loadTimeline(const CliArgs& args, LoadResult& loaded, std::optional<TimeRange>& range,
                            const std::string& without, std::ostream& err);
    // Adds each file to `runs`: a profile is one run (its calls kept with
    // `keepCalls`), a baseline report (runlane-cli report) all of its runs.
    // Returns -1 to go on, or the exit code (the error printed).
    static int loadRuns(const std::vector<std::string>& files, const InputFormat* format, bool keepCalls, RunSet& runs,
                        std::ostream& err);
    // "A..B" from the profile's start, in its unit; false with a message.
    static bool parseRange(const std::string& text, const Profile& profile, TimeRange& range, std::string& error);
    // "5%", "5 %" or "5": a percentage (under 1000), as a fraction.
    static bool parsePercent(std::string text, double& out);
    // A significance level: a number strictly between 0 and 1.
    static bool parseLevel(const std::string& text, double& out);
    // A whole number from 1 to 999999999.
    static bool parseCount(const std::string& text, std::size_t& out);
    // A time with a unit ("5ms") for time profiles; a plain number of
    // samples, bytes or units otherwise.
    static ParseStatus parseValue(const std::string& text, ValueUnit unit, Time& out);
    // What is wrong with a value that did not parse, for a usage message.
    static std::string valueProblem(ParseStatus status, ValueUnit unit);
};

} // namespace runlane
