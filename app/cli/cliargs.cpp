#include "cliargs.h"

namespace runlane {

bool CliArgs::parse(const Spec& spec, int argc, char** argv, int first)
{
    std::string error;
    auto fail = [&error](std::string message) {
        if (error.empty())
            error = std::move(message);
    };
    bool onlyPositional = false;
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (onlyPositional || arg.size() < 2 || arg[0] != '-') {
            m_positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyPositional = true;
            continue;
        }
        if (arg == "-h")
            arg = "--help";
        std::string value;
        bool inlineValue = false;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            inlineValue = true;
        }
        if (spec.flags.count(arg)) {
            if (inlineValue)
                fail("option " + arg + " takes no value");
            else
                m_flags.insert(arg);
        } else if (spec.listOptions.count(arg)) {
            std::vector<std::string>& list = m_lists[arg];
            if (inlineValue)
                list.push_back(value);
            while (i + 1 < argc && !(argv[i + 1][0] == '-' && argv[i + 1][1] != '\0'))
                list.emplace_back(argv[++i]);
            if (list.empty())
                fail("option " + arg + " needs at least one value");
        } else if (spec.valueOptions.count(arg) || spec.repeatOptions.count(arg)) {
            if (!inlineValue) {
                if (i + 1 >= argc) {
                    fail("option " + arg + " needs a value");
                    continue;
                }
                value = argv[++i];
            }
            if (spec.repeatOptions.count(arg)) {
                m_lists[arg].push_back(value);
                continue;
            }
            if (m_values.count(arg))
                fail("option " + arg + " is given twice");
            m_values[arg] = value;
        } else {
            fail("unknown option " + arg);
        }
    }
    if (m_flags.count("--help"))
        return true;
    if (m_positional.size() < spec.minPositional)
        fail(spec.minPositional == 1 ? "missing the profile file" : "missing arguments");
    else if (m_positional.size() > spec.maxPositional)
        fail("unexpected argument '" + m_positional[spec.maxPositional] + "'");
    m_error = error;
    return error.empty();
}

std::vector<std::string> CliArgs::values(const std::string& option) const
{
    const auto it = m_lists.find(option);
    return it == m_lists.end() ? std::vector<std::string>() : it->second;
}

std::optional<std::string> CliArgs::value(const std::string& option) const
{
    const auto it = m_values.find(option);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

} // namespace runlane
