#include "clicommand.h"

#include "clicommands.h"
#include "clisupport.h"
#include "profile.h"
#include "valueformat.h"

#include <ostream>

namespace runlane {

namespace {

constexpr const char* kTreeHelp = R"HELP(Usage: runlane-cli tree FILE [--max-depth N] [--input-format ID] [--variant NAME] [--add PROFILE [--add-thread PID:TID]]

Prints, per track, the measurements nested by creation (who created whom),
each with its creation time, its active intervals and its final state.
Times are relative to the profile start.

  --max-depth N  do not print measurements nested deeper than N
)HELP";

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CliArgs args;
    if (const int code = CliSupport::parseProfileArgs(args, {{"--max-depth"}, {"--help"}, 1, 1}, argc, argv, kTreeHelp, out, err);
        code >= 0)
        return code;
    std::size_t maxDepth = std::size_t(-1);
    if (const auto d = args.value("--max-depth")) {
        if (*d == "0")
            maxDepth = 0;
        else if (!CliSupport::parseCount(*d, maxDepth))
            return CliSupport::usageError(err, "--max-depth takes a whole number");
    }
    LoadResult loaded;
    if (const int code = CliSupport::load(args, loaded, err); code >= 0)
        return code;
    const Profile& p = *loaded.profile;

    // Creation children, in creation order (ids are creation-ordered).
    std::vector<std::uint32_t> first(p.measurementCount() + 1, 0);
    for (const Measurement& m : p.measurements()) {
        if (m.creator != kNone)
            ++first[m.creator + 1];
    }
    for (std::size_t i = 0; i < p.measurementCount(); ++i)
        first[i + 1] += first[i];
    std::vector<MeasurementId> children(first.back());
    std::vector<std::uint32_t> cursor(first.begin(), first.end() - 1);
    for (MeasurementId id = 0; id < p.measurementCount(); ++id) {
        if (p.measurement(id).creator != kNone)
            children[cursor[p.measurement(id).creator]++] = id;
    }
    auto rel = [&p](Time t) { return ValueFormat::text(t - p.startTime(), p.unit()); };
    std::string line;
    for (TrackId t = 0; t < p.trackCount(); ++t) {
        out << "== " << p.string(p.track(t).name) << "\n";
        std::vector<std::pair<MeasurementId, std::size_t>> stack;
        for (MeasurementId root = p.measurementCount(); root-- > 0;) {
            const Measurement& m = p.measurement(root);
            if (m.track == t && (m.creator == kNone || p.measurement(m.creator).track != t))
                stack.emplace_back(root, 0);
        }
        while (!stack.empty()) {
            const auto [id, depth] = stack.back();
            stack.pop_back();
            const Measurement& m = p.measurement(id);
            line.assign(2 * depth, ' ');
            line += p.labelText(m.label);
            line += "  created " + rel(m.created);
            const auto ivs = p.intervalsOf(id);
            if (!ivs.empty()) {
                line += "  active";
                for (const IntervalId iv : ivs)
                    line += " [" + rel(p.interval(iv).start) + ", " + rel(p.interval(iv).end) + ")";
            }
            line += "  ";
            line += finalStateName(m.finalState());
            out << line << "\n";
            if (depth >= maxDepth)
                continue;
            for (std::uint32_t k = first[id + 1]; k-- > first[id];) {
                if (p.measurement(children[k]).track == t)
                    stack.emplace_back(children[k], depth + 1);
            }
        }
    }
    return CliCommands::Ok;
}

} // namespace

CliCommand treeCommand()
{
    return {"tree", "the measurement tree by creation, with active intervals and states", &run};
}

} // namespace runlane
