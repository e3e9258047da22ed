#include "clicommands.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    const int code = runlane::CliCommands::run(argc, argv, std::cout, std::cerr);
    std::cout.flush();
    return code;
}
