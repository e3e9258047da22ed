# The structure of the code, checked: every `#include "…"` of the product code
# (core/, widgets/, app/) must name a header of its own folder or of a folder
# it may use (the rules below; docs/ARCHITECTURE.md explains them), and no
# source file anywhere is over 800 lines.
#
#   cmake -DROOT=<source dir> -P tests/architecture/checkincludes.cmake
#
# A new folder needs a rule here: a folder without one fails the check.
cmake_minimum_required(VERSION 3.25)

# Folder -> the folders whose headers it may include besides its own. `*`
# stands for one folder name.
set(core_below_formats core/base core/model core/io core/analysis core/text)
set(rules
    "core/base:"
    "core/model:core/base"
    "core/io:core/base core/model"
    "core/analysis:core/base core/model"
    "core/compare:core/base core/model core/analysis"
    "core/text:core/base core/model core/analysis core/compare"
    # The history stores what compare computes and judges it the same way.
    "core/history:core/base core/model core/analysis core/compare core/text"
    # What formats share (InputFormat, helpers two formats need) uses only
    # the model and io: no format, no text (first: core/formats/* matches it).
    "core/formats/common:core/base core/model core/io"
    # A format uses the model, io and common (and text, to write values in
    # its warnings); never the analyses nor another format.
    "core/formats/*:core/base core/model core/io core/formats/common core/text"
    "core/loader:core/base core/model core/io core/formats/*"
    # Live sources fetch Prometheus data and write recordings: they read
    # and write formats like the loader does.
    "core/live:core/base core/model core/io core/analysis core/text core/formats/*"
    # The views see the model, the analyses and the loader, never a file
    # format or how files are read.
    # The style (theme, colours) colours what the core holds and knows no
    # view nor the document: every view and the document may use it.
    "widgets/style:core/base core/model core/analysis core/compare"
    "widgets/document:core/base core/model core/analysis core/compare core/text core/loader widgets/style"
    "widgets/timeline:core/base core/model core/analysis core/compare core/text widgets/style widgets/document"
    "widgets/charts:core/base core/model core/analysis core/compare core/text core/history widgets/style widgets/document widgets/timeline"
    "widgets/panels:core/base core/model core/analysis core/compare core/text widgets/style widgets/document widgets/timeline"
    # The views on one time axis, together: the timeline's and the usage chart.
    "widgets/profileview:core/base core/model core/analysis core/compare core/text widgets/style widgets/document widgets/timeline widgets/charts"
    "widgets/export:core/base core/model core/analysis core/compare core/text widgets/style widgets/document widgets/timeline widgets/charts widgets/profileview"
    "app/gui:core/base core/model core/analysis core/compare core/text core/history core/loader core/live widgets/*"
    "app/cli:core/* core/formats/* widgets/* app/gui")
set(max_lines 800)

if(NOT ROOT)
    message(FATAL_ERROR "checkincludes.cmake: pass -DROOT=<source dir>")
endif()

# "core/formats/*" -> "^core/formats/[^/]+$"
function(folder_regex pattern out)
    string(REPLACE "*" "[^/]+" regex "${pattern}")
    set(${out} "^${regex}$" PARENT_SCOPE)
endfunction()

# The rule of a folder: the allowed list in ${out}, or "NONE".
function(rule_of folder out)
    foreach(rule IN LISTS rules)
        string(FIND "${rule}" ":" colon)
        string(SUBSTRING "${rule}" 0 ${colon} pattern)
        math(EXPR start "${colon} + 1")
        string(SUBSTRING "${rule}" ${start} -1 allowed)
        folder_regex("${pattern}" regex)
        if(folder MATCHES "${regex}")
            separate_arguments(allowed UNIX_COMMAND "${allowed}")
            set(${out} "${allowed}" PARENT_SCOPE)
            return()
        endif()
    endforeach()
    set(${out} "NONE" PARENT_SCOPE)
endfunction()

set(errors "")
file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/core/*.h" "${ROOT}/core/*.cpp" "${ROOT}/widgets/*.h"
     "${ROOT}/widgets/*.cpp" "${ROOT}/app/*.h" "${ROOT}/app/*.cpp")
list(SORT sources)

# Where each header is: its file name is unique in the product code.
foreach(source IN LISTS sources)
    if(source MATCHES "\\.h$")
        get_filename_component(name "${source}" NAME)
        get_filename_component(folder "${source}" DIRECTORY)
        if(DEFINED header_${name})
            list(APPEND errors "${source}: a header named ${name} is also in ${header_${name}}")
        endif()
        set(header_${name} "${folder}")
    endif()
endforeach()

set(included 0)
foreach(source IN LISTS sources)
    get_filename_component(folder "${source}" DIRECTORY)
    rule_of("${folder}" allowed)
    if(allowed STREQUAL "NONE")
        list(APPEND errors "${source}: the folder ${folder} has no rule in tests/architecture/checkincludes.cmake")
        continue()
    endif()
    file(STRINGS "${ROOT}/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" name "${line}")
        if(name MATCHES "/")
            list(APPEND errors "${source}: #include \"${name}\": include headers by their file name")
            continue()
        endif()
        if(NOT DEFINED header_${name})
            list(APPEND errors "${source}: #include \"${name}\": no such header in core/, widgets/ or app/")
            continue()
        endif()
        set(target "${header_${name}}")
        math(EXPR included "${included} + 1")
        if(target STREQUAL folder)
            continue()
        endif()
        set(ok FALSE)
        foreach(pattern IN LISTS allowed)
            folder_regex("${pattern}" regex)
            if(target MATCHES "${regex}")
                set(ok TRUE)
                break()
            endif()
        endforeach()
        if(NOT ok)
            list(APPEND errors "${source}: #include \"${name}\": ${folder} may not include ${target}")
        endif()
    endforeach()
endforeach()

# The number of lines of a file (its newlines: file(STRINGS) skips blank lines).
function(count_lines path out)
    file(READ "${path}" text)
    string(REGEX MATCHALL "\n" newlines "${text}")
    list(LENGTH newlines count)
    set(${out} ${count} PARENT_SCOPE)
endfunction()

# No file over max_lines: split it along its seams instead.
file(GLOB_RECURSE all_sources RELATIVE "${ROOT}" "${ROOT}/core/*" "${ROOT}/widgets/*" "${ROOT}/app/*" "${ROOT}/tests/*.h"
     "${ROOT}/tests/*.cpp")
foreach(source IN LISTS all_sources)
    if(NOT source MATCHES "\\.(h|cpp)$")
        continue()
    endif()
    count_lines("${ROOT}/${source}" count)
    if(count GREATER max_lines)
        list(APPEND errors "${source}: ${count} lines, more than ${max_lines}")
    endif()
endforeach()

# The README fits on a screen or two: what Runlane is, install, a tour, the
# formats and an index of docs/ (issue 44); the rest belongs in docs/.
set(max_readme_lines 200)
if(EXISTS "${ROOT}/README.md")
    count_lines("${ROOT}/README.md" count)
    if(count GREATER max_readme_lines)
        list(APPEND errors "README.md: ${count} lines, more than ${max_readme_lines}: move the detail to docs/")
    endif()
endif()

# Scripts the README, CI and the docs run by their path stay executable: a
# commit that rewrote packaging/quickstart.sh without its mode stopped
# .ci/run at its first line (Permission denied).
file(GLOB_RECURSE scripts RELATIVE "${ROOT}" "${ROOT}/.ci/*" "${ROOT}/packaging/*" "${ROOT}/tests/tools/*"
     "${ROOT}/tests/fuzz/*.sh" "${ROOT}/tests/benchmarks/*.py")
foreach(script IN LISTS scripts)
    file(READ "${ROOT}/${script}" head LIMIT 2)
    if(NOT head MATCHES "^#!")
        continue()
    endif()
    execute_process(COMMAND test -x "${ROOT}/${script}" RESULT_VARIABLE notExecutable)
    if(notExecutable)
        list(APPEND errors "${script}: a script (#!) that is not executable: git update-index --chmod=+x ${script}")
    endif()
endforeach()

list(LENGTH sources files)
if(errors)
    list(LENGTH errors count)
    list(JOIN errors "\n  " text)
    message(FATAL_ERROR "architecture: ${count} problem(s):\n  ${text}")
endif()
message(STATUS "architecture: ${files} files, ${included} includes of Runlane headers, all allowed")
