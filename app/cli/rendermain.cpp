// runlane-cli-render: `runlane-cli render`, in a program of its own so that
// runlane-cli does not load the widgets (rendercommand.h). runlane-cli
// starts it with its own arguments, argv[1] "render".
#include "rendercommand.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    const int code = runlane::RenderCommand::fromArguments(argc, argv, std::cout, std::cerr);
    std::cout.flush();
    return code;
}
