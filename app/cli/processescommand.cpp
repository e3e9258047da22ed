#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "jsontext.h"
#include "processlatency.h"
#include "profile.h"
#include "timeformat.h"

#include <QFileInfo>

#include <ostream>
#include <set>

namespace runlane {

namespace {

constexpr const char* kProcessesHelp = R"HELP(Usage: runlane-cli processes LABELS PROFILE... [--format F] [--input-format ID]

Latency by process, as Enso's `processes` tool: how much of the region of
interest each "foreign process" (work named by a label) takes, and how much
the main process works in it. LABELS is a comma-separated list of label
names, e.g. compile_new_shaders,backend_execution.

Each profile must hold exactly one measurement labelled @highlight: the
region runs from its creation to the end of its last interval. A
measurement whose label name is in LABELS belongs to that process (it
alone, not what it creates). Per process: the latest end of its work
created in the region, in ms from the region's start (0 if none). main: the
sum of the top-level intervals of work of no foreign process, clipped to the
region, in ms.

  --format F      csv (default): a header 'profile,main,LABEL...' and a row
                  per profile (its file name without the extension); or json
  --input-format ID
                 read every PROFILE as this format instead of recognising it
                 from its content (the ids: 'runlane-cli formats')
)HELP";

// A CSV field, quoted when it holds a comma, quote or line break.
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

struct Row {
    std::string profile; // the file's name without its extension
    std::string path;
    ProcessLatency::Result result;
};

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    const CliArgs::Spec spec{{"--format", CliSupport::kInputFormatOption}, {"--help"}, 2, ~std::size_t(0) - 1};
    if (const int code = CliSupport::parseArgs(args, spec, argc, argv, kProcessesHelp, out, err); code >= 0)
        return code;
    const std::string format = args.value("--format").value_or("csv");
    if (format != "csv" && format != "json")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (csv, json)");
    const std::string& labelList = args.positional()[0];
    std::vector<std::string> labels;
    std::set<std::string> seen;
    for (std::size_t pos = 0; !labelList.empty() && pos <= labelList.size();) {
        const std::size_t comma = std::min(labelList.find(',', pos), labelList.size());
        const std::string label = labelList.substr(pos, comma - pos);
        if (label.empty())
            return CliSupport::usageError(err, "LABELS '" + labelList + "' has an empty label name");
        if (!seen.insert(label).second)
            return CliSupport::usageError(err, "LABELS '" + labelList + "' names '" + label + "' twice");
        labels.push_back(label);
        pos = comma + 1;
    }

    std::vector<Row> rows;
    const InputFormat* inputFormat = CliSupport::inputFormat(args);
    for (std::size_t k = 1; k < args.positional().size(); ++k) {
        const std::string& path = args.positional()[k];
        const QString name = QString::fromLocal8Bit(path.c_str());
        // One profile in memory at a time: each is reduced to its row.
        const LoadResult loaded = ProfileLoader::load(name, {}, inputFormat);
        if (!loaded.ok()) {
            err << "runlane-cli: " << loaded.error.toString() << "\n";
            return CliCommands::InputError;
        }
        Row row{QFileInfo(name).completeBaseName().toStdString(), path, ProcessLatency::compute(*loaded.profile, labels)};
        if (!row.result.error.empty()) {
            err << "runlane-cli: " << path << ": " << row.result.error << "\n";
            return CliCommands::InputError;
        }
        rows.push_back(std::move(row));
    }

    std::string text;
    if (format == "csv") {
        text = "profile,main";
        for (const std::string& label : labels)
            text += "," + csvField(label);
        text += "\n";
        for (const Row& row : rows) {
            text += csvField(row.profile) + "," + TimeFormat::milliseconds(row.result.main);
            for (const Time latency : row.result.latencies)
                text += "," + TimeFormat::milliseconds(latency);
            text += "\n";
        }
    } else {
        text = "{\"labels\":[";
        for (std::size_t k = 0; k < labels.size(); ++k) {
            text += k ? "," : "";
            JsonText::appendString(text, labels[k]);
        }
        text += "],\"profiles\":[";
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const Row& row = rows[r];
            text += r ? ",\n" : "\n";
            text += "{\"profile\":";
            JsonText::appendString(text, row.profile);
            text += ",\"file\":";
            JsonText::appendString(text, row.path);
            text += ",\"region_ms\":" + TimeFormat::milliseconds(row.result.regionEnd - row.result.regionStart);
            text += ",\"main_ms\":" + TimeFormat::milliseconds(row.result.main) + ",\"latency_ms\":{";
            for (std::size_t k = 0; k < labels.size(); ++k) {
                text += k ? "," : "";
                JsonText::appendString(text, labels[k]);
                text += ":" + TimeFormat::milliseconds(row.result.latencies[k]);
            }
            text += "}}";
        }
        text += "\n]}\n";
    }
    out << text;
    return CliCommands::Ok;
}

} // namespace

CliCommand processesCommand()
{
    return {"processes", "latency by process in a @highlight region, as Enso's processes tool", &run};
}

} // namespace runlane
