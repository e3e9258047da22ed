#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace runlane {

// Arguments of one runlane-cli subcommand, checked against what it accepts:
// an unknown option, a missing value or a wrong number of files is a usage
// error (exit code 2) with a one-line message.
class CliArgs
{
public:
    struct Spec {
        std::set<std::string> valueOptions; // "--sort" takes a value
        std::set<std::string> flags; // "--help" takes none
        std::size_t minPositional = 0;
        std::size_t maxPositional = 0;
        // "--base A.json B.json": every argument up to the next option (or
        // "--base=A.json"); may be given again to add more.
        std::set<std::string> listOptions = {};
        // "--add A --add B": a value option that may be given again; its
        // values in order through values().
        std::set<std::string> repeatOptions = {};
    };

    // Parses argv[first..argc). False with error() set on a usage error;
    // a --help anywhere wins over every other error.
    bool parse(const Spec& spec, int argc, char** argv, int first);

    const std::string& error() const { return m_error; }
    bool has(const std::string& flag) const { return m_flags.count(flag) != 0; }
    std::optional<std::string> value(const std::string& option) const;
    // A list or repeated option's values, in order; empty if it is not given.
    std::vector<std::string> values(const std::string& option) const;
    bool hasList(const std::string& option) const { return m_lists.count(option) != 0; }
    const std::vector<std::string>& positional() const { return m_positional; }

private:
    std::string m_error;
    std::set<std::string> m_flags;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_lists;
    std::vector<std::string> m_positional;
};

} // namespace runlane
