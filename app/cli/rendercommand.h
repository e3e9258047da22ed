#pragma once

#include "chunkedfilereader.h"
#include "inputformat.h"
#include "profileview.h"
#include "ranktable.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <iosfwd>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace runlane {

// `runlane-cli render`: the viewer's widgets drawn offscreen into a PNG.
// It runs in its own program, runlane-cli-render (rendermain.cpp), which
// runlane-cli starts in its place for this command (renderlauncher.cpp):
// only this command needs the widgets, and loading them cost every other
// command 20 ms before it began.
class RenderCommand
{
public:
    // What is drawn: the whole window, the rank panel, or one of the
    // ProfileView's parts (icicle, lanes, usage) drawn alone.
    enum class Panel { Window, Rank };
    using View = std::variant<Panel, ProfileView::Part>;
    struct Request {
        QString input;
        const InputFormat* format = nullptr; // null: recognised from the content
        std::vector<ProfileAddition> additions; // --add, --add-thread
        QString output;
        View view = Panel::Window;
        QSize size{1600, 1000};
        double scale = 1.0;
        std::optional<std::string> range; // "A..B", read against the profile
        bool aggregated = false;
        // Select the longest-running measurement with this label name that
        // is alive in the visible range (details pane, lanes highlight).
        std::optional<std::string> select;
        // Compare mode: the input is the new side, compared with these
        // base runs (or a baseline report): the rank is the compare rank,
        // the icicle the differential flame graph.
        QStringList base;
    };

    // `runlane-cli render ...` (argv[1] is "render"): reads the options
    // into a Request and runs it. Exit code as CliCommands.
    static int fromArguments(int argc, char** argv, std::ostream& out, std::ostream& err);
    // Exit code as CliCommands; creates the QApplication itself.
    static int run(const Request& request, std::ostream& out, std::ostream& err);
};

} // namespace runlane
