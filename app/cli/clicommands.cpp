#include "clicommands.h"

#include "clisupport.h"
#include "formatregistry.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>

namespace runlane {

namespace {

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> words;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t end = std::min(text.find(' ', pos), text.size());
        if (end > pos)
            words.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return words;
}

// "runlane-cli 0.1.0": the project's version (CMake's PROJECT_VERSION).
std::string versionLine()
{
    return "runlane-cli " RUNLANE_VERSION "\n";
}

// The formats and the commands come from their tables, so that the help
// never forgets one.
std::string mainHelp()
{
    std::string formats;
    for (const InputFormat* format : FormatRegistry::formats())
        formats += (formats.empty() ? "" : ", ") + std::string(format->name());
    std::string help = "Usage: runlane-cli COMMAND [OPTIONS] FILE\n"
                       "       runlane-cli --version\n\n";
    // Wrapped at 78 columns, as the rest of the help.
    std::string line;
    const std::string intro = "Reads a profile (" + formats + ") and prints what it holds. Commands:";
    for (const std::string_view word : words(intro)) {
        if (!line.empty() && line.size() + 1 + word.size() > 78) {
            help += line + "\n";
            line.clear();
        }
        // Appended in two steps: `"literal" + std::string` makes g++ 12 at
        // -O3 (the package's Release build) warn -Wrestrict falsely (GCC bug 105329).
        if (!line.empty())
            line += ' ';
        line += word;
    }
    help += line + "\n";
    // The summaries start in one column, two spaces after the longest name.
    std::size_t width = 0;
    for (const CliCommand& command : CliCommands::table())
        width = std::max(width, command.name.size() + 2);
    for (const CliCommand& command : CliCommands::table()) {
        std::string name(command.name);
        name.resize(width, ' ');
        help += "  " + name + std::string(command.summary) + "\n";
    }
    help += "\nRun 'runlane-cli COMMAND --help' for a command's options.\n"
            "Exit codes: 0 ok, 1 output not written, 2 usage error, 3 unreadable or invalid input,\n"
            "4 a regression (compare and history check --fail-on-regression).\n"
            "\n" + versionLine();
    return help;
}

} // namespace

const std::vector<CliCommand>& CliCommands::table()
{
    // One line per command; each is a file of this folder (clicommand.h).
    static const std::vector<CliCommand> commands{
        summaryCommand(),
        rankCommand(),
        treeCommand(),
        usageCommand(),
        criticalPathCommand(),
        processesCommand(),
        messagesCommand(),
        framesCommand(),
        convertCommand(),
        renderCommand(),
        compareCommand(),
        reportCommand(),
        historyCommand(),
        recordCommand(),
        formatsCommand(),
    };
    return commands;
}

int CliCommands::run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    if (argc < 2) {
        err << mainHelp();
        return UsageError;
    }
    const std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        out << mainHelp();
        return Ok;
    }
    if (name == "--version") {
        out << versionLine();
        return Ok;
    }
    for (const CliCommand& command : table()) {
        if (command.name == name)
            return command.run(argc, argv, out, err);
    }
    return CliSupport::usageError(err, "unknown command '" + std::string(name) + "'");
}

} // namespace runlane
