#pragma once

#include <iosfwd>
#include <string_view>

namespace runlane {

// One subcommand of runlane-cli: its name, its line in the main help, and
// what runs it (argv[1] is the name; the exit code as CliCommands::ExitCode).
struct CliCommand {
    std::string_view name;
    std::string_view summary;
    int (*run)(int argc, char** argv, std::ostream& out, std::ostream& err) = nullptr;
};

// One per file of this folder (summarycommand.cpp gives summaryCommand());
// CliCommands::table() lists them.
CliCommand summaryCommand();
CliCommand rankCommand();
CliCommand treeCommand();
CliCommand usageCommand();
CliCommand criticalPathCommand();
CliCommand processesCommand();
CliCommand messagesCommand();
CliCommand framesCommand();
CliCommand convertCommand();
CliCommand renderCommand();
CliCommand compareCommand();
CliCommand reportCommand();
CliCommand historyCommand();
CliCommand recordCommand();
CliCommand formatsCommand();

} // namespace runlane
