// `runlane-cli render`: runs runlane-cli-render in this process's place
// (rendercommand.h says why it is a program of its own). Its output, exit
// code and settings are what they were when it ran here: it gets the same
// arguments (argv[0] too, which names the settings) and the same streams.

#include "clicommand.h"
#include "clicommands.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <system_error>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace runlane {

namespace {

namespace fs = std::filesystem;

// Beside runlane-cli in a build tree; in the install tree, where
// RUNLANE_RENDER_FROM_BIN leads from its bin folder (app/cli/CMakeLists.txt).
fs::path helperPath()
{
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    const fs::path besides = self.parent_path() / "runlane-cli-render";
    if (fs::exists(besides, error))
        return besides;
    return (self.parent_path() / RUNLANE_RENDER_FROM_BIN).lexically_normal();
}

int launch(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    (void)argc;
    const fs::path helper = helperPath();
#if defined(__unix__)
    // Whatever was written so far comes before the helper's output.
    out.flush();
    err.flush();
    if (!helper.empty())
        ::execv(helper.c_str(), argv);
    const int code = errno;
#else
    (void)out;
    const int code = ENOSYS;
#endif
    err << "runlane-cli: cannot run " << (helper.empty() ? std::string("runlane-cli-render") : helper.string()) << " for render: "
        << std::strerror(code) << "\n";
    return CliCommands::OutputError;
}

} // namespace

CliCommand renderCommand()
{
    return {"render", "draw the viewer (or its icicle or task lanes) into a PNG, no display needed", &launch};
}

} // namespace runlane
