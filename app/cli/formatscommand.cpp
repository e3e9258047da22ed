#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "formatregistry.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace runlane {

namespace {

constexpr const char* kFormatsHelp = R"HELP(Usage: runlane-cli formats

Lists the formats Runlane reads: the id that --input-format takes, the
name, the file names they usually have (files are recognised by their
content, never by name), and the most memory a load takes per byte of file.
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseArgs(args, {{}, {"--help"}, 0, 0}, argc, argv, kFormatsHelp, out, err);
        code >= 0)
        return code;
    // The id and name columns as wide as the longest and two blanks.
    int idWidth = 12;
    int nameWidth = 28;
    for (const InputFormat* format : FormatRegistry::formats()) {
        idWidth = std::max(idWidth, int(format->id().size()) + 2);
        nameWidth = std::max(nameWidth, int(format->name().size()) + 2);
    }
    out << std::left << std::setw(idWidth) << "id" << std::setw(nameWidth) << "name" << std::setw(34) << "files"
        << "memory\n";
    for (const InputFormat* format : FormatRegistry::formats()) {
        std::string patterns;
        for (const std::string_view pattern : format->fileNamePatterns()) {
            if (!patterns.empty())
                patterns += ' '; // not `"" + std::string`: see mainHelp in clicommands.cpp
            patterns += pattern;
        }
        std::ostringstream memory;
        memory << format->memoryPerInputByte() << " x file";
        out << std::setw(idWidth) << format->id() << std::setw(nameWidth) << format->name() << std::setw(34) << patterns
            << memory.str() << "\n";
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand formatsCommand()
{
    return {"formats", "the formats it reads, with the ids --input-format takes", &run};
}

} // namespace runlane
