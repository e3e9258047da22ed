#pragma once

#include "clicommand.h"

#include <iosfwd>
#include <vector>

namespace runlane {

// runlane-cli: finds the subcommand in the table and runs it. Each returns
// the process exit code: 0 ok, 1 the output could not be written, 2 usage
// error, 3 the input is unreadable or not a valid profile, 4 a regression
// (compare and history check --fail-on-regression).
class CliCommands
{
public:
    enum ExitCode { Ok = 0, OutputError = 1, UsageError = 2, InputError = 3, RegressionFound = 4 };

    static int run(int argc, char** argv, std::ostream& out, std::ostream& err);
    // Every subcommand, in the main help's order.
    static const std::vector<CliCommand>& table();
};

} // namespace runlane
