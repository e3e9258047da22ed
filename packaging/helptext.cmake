# What manpage.cmake and completion.cmake share: running a built program for
# its --help, and that help's lines as a CMake list. Both are generated from
# the help the programs print (runlane-cli's command table and each command's
# options, runlane's QCommandLineParser), so that neither can forget an option.

# help_text(<var> <program> <args>...): the program's standard output. With
# no display on purpose: `runlane --help` must answer without one (a
# package's build has none), and the texts are the same with one.
function(help_text var program)
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM
                ${program} ${ARGN}
        OUTPUT_VARIABLE out
        ERROR_VARIABLE err
        RESULT_VARIABLE code)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "${program} ${ARGN} failed (${code}): ${err}")
    endif()
    set(${var} "${out}" PARENT_SCOPE)
endfunction()

# help_lines(<var> <text>): the text's lines as a list. A CMake list cannot
# hold ';' and pairs up '[' and ']', which help texts have ("[OPTIONS]"):
# they are stood in for by @SC@, @LB@ and @RB@ (help_unquote puts them back).
function(help_lines var text)
    string(REPLACE ";" "@SC@" text "${text}")
    string(REPLACE "[" "@LB@" text "${text}")
    string(REPLACE "]" "@RB@" text "${text}")
    string(REGEX REPLACE "\n$" "" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(${var} "${lines}" PARENT_SCOPE)
endfunction()

function(help_unquote var text)
    string(REPLACE "@SC@" ";" text "${text}")
    string(REPLACE "@LB@" "[" text "${text}")
    string(REPLACE "@RB@" "]" text "${text}")
    set(${var} "${text}" PARENT_SCOPE)
endfunction()

# help_split(<line> <term var> <description var>): a list's line,
# "  TERM  DESCRIPTION": the term ends at the first two spaces after it; a term alone
# on its line (a long one) has an empty description.
function(help_split line term_var description_var)
    string(SUBSTRING "${line}" 2 -1 rest)
    string(FIND "${rest}" "  " gap)
    if(gap EQUAL -1)
        set(term "${rest}")
        set(description "")
    else()
        string(SUBSTRING "${rest}" 0 ${gap} term)
        string(SUBSTRING "${rest}" ${gap} -1 description)
        string(STRIP "${description}" description)
    endif()
    set(${term_var} "${term}" PARENT_SCOPE)
    set(${description_var} "${description}" PARENT_SCOPE)
endfunction()

# help_commands(<var> <lines>): runlane-cli's commands, the lines of its main
# help indented by two ("  summary   format, tracks, ...").
function(help_commands var)
    set(commands "")
    foreach(line IN LISTS ARGN)
        if(line MATCHES "^  ([a-z][a-z-]*)  +")
            list(APPEND commands ${CMAKE_MATCH_1})
        endif()
    endforeach()
    set(${var} "${commands}" PARENT_SCOPE)
endfunction()

# help_options(<var> <lines>): the options a help lists, each where a line of
# its list names it ("  --metric M  ...", "  -h, --help  ...") or its usage
# does ("Usage: runlane-cli tree FILE [--max-depth N]").
function(help_options var)
    set(options "")
    foreach(line IN LISTS ARGN)
        if(line MATCHES "^  -" OR line MATCHES "^Usage: " OR line MATCHES "^       [a-z]")
            if(line MATCHES "^  -")
                # The term only, not what its description mentions.
                help_split("${line}" line description)
            endif()
            string(REGEX MATCHALL "(^|[ ,@|])--?[a-zA-Z][a-zA-Z0-9-]*" found "${line}")
            foreach(option IN LISTS found)
                string(REGEX REPLACE "^[ ,@|]" "" option "${option}")
                list(APPEND options ${option})
            endforeach()
        endif()
    endforeach()
    list(REMOVE_DUPLICATES options)
    set(${var} "${options}" PARENT_SCOPE)
endfunction()
