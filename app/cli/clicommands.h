#pragma once

#include <iosfwd>
#include <string>

namespace runlane {

class Profile;
struct TimeRange;

// The subcommands of runlane-cli. Each returns the process exit code:
// 0 ok, 1 the output could not be written, 2 usage error, 3 the input is
// unreadable or not a valid profile.
class CliCommands
{
public:
    enum ExitCode { Ok = 0, OutputError = 1, UsageError = 2, InputError = 3 };

    static int run(int argc, char** argv, std::ostream& out, std::ostream& err);
    // "A..B" from the profile's start, in its unit; false with a message.
    static bool parseRange(const std::string& text, const Profile& profile, TimeRange& range, std::string& error);

private:
    static int summary(int argc, char** argv, std::ostream& out, std::ostream& err);
    static int rank(int argc, char** argv, std::ostream& out, std::ostream& err);
    static int tree(int argc, char** argv, std::ostream& out, std::ostream& err);
    static int usage(int argc, char** argv, std::ostream& out, std::ostream& err);
    static int convert(int argc, char** argv, std::ostream& out, std::ostream& err);
    static int render(int argc, char** argv, std::ostream& out, std::ostream& err);
};

} // namespace runlane
