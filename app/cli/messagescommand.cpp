#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "messagesformatter.h"
#include "processmessages.h"
#include "profile.h"
#include "timeformat.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kMessagesHelp = R"HELP(Usage: runlane-cli messages FILE [--format F] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

The messages between processes, in time order, and the round trips of
requests per endpoint. Enso: the IDE's RpcRequest (IDE to LanguageServer)
and RpcEvent (LanguageServer to IDE), the Language Server's BackendMessage
(Request: LanguageServer to Engine; Response: Engine to LanguageServer).
Chrome and Perfetto: the flows whose two ends are in different processes.
A response is paired with the request of the same request_id; one with no
request waiting is a warning. Times in ms from the profile's start.

  --format F     table (default); csv: a row per message
                 (time_ms,arrival_ms,from,to,kind,name,request_id,
                 round_trip_ms); json: processes, messages, round_trips and
                 warnings; svg: a beanpole diagram (poles side by side, time
                 down the page at 1 ms per unit, a grid line every 100 ms),
                 for messages within 10 min of the profile's start
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseProfileArgs(args, {{"--format"}, {"--help"}, 1, 1}, argc, argv, kMessagesHelp,
                                                      out, err);
        code >= 0)
        return code;
    const std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json" && format != "svg")
        return CliSupport::usageError(err, "unknown --format '" + format + "' (table, csv, json, svg)");
    LoadResult loaded;
    if (const int code = CliSupport::load(args, loaded, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;
    const ProcessMessages messages = ProcessMessages::of(p);
    if (format == "csv")
        out << MessagesFormatter::csv(messages, p.startTime());
    else if (format == "json")
        out << MessagesFormatter::json(messages, p.startTime());
    else if (format == "svg") {
        // 1 ms per unit: an hour of messages would be a page 3.6 million units tall.
        if (const Time span = MessagesFormatter::svgSpan(messages, p.startTime()); span > MessagesFormatter::kMaxSvgSpan) {
            err << "runlane-cli: the messages span " << TimeFormat::duration(span)
                << " from the profile's start: a beanpole diagram at 1 ms per unit is drawn for up to "
                << TimeFormat::duration(MessagesFormatter::kMaxSvgSpan) << " (use --format csv or json)\n";
            return CliCommands::InputError;
        }
        out << MessagesFormatter::svg(messages, p.startTime());
    }
    else
        out << MessagesFormatter::table(messages, p.startTime());
    // The diagram and the data stay clean; the warnings go to stderr too.
    if (format != "table") {
        for (const std::string& warning : messages.warnings())
            err << "runlane-cli: warning: " << warning << "\n";
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand messagesCommand()
{
    return {"messages", "messages between processes and their round trips (table, CSV, JSON, SVG beanpoles)", &run};
}

} // namespace runlane
