# Writes bash completion for runlane-cli or runlane from the built program,
# at build time:
#   cmake -DPROGRAM=<built program> -DNAME=runlane|runlane-cli -DOUTPUT=<file> -P completion.cmake
# runlane-cli: its commands (the command table, through its main help), each
# command's options and words ("history record", from its help) and the
# format ids --input-format takes (runlane-cli formats); runlane: its
# options. Files complete everywhere else.
include(${CMAKE_CURRENT_LIST_DIR}/helptext.cmake)

foreach(var PROGRAM NAME OUTPUT)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "completion.cmake needs -D${var}=...")
    endif()
endforeach()

string(MAKE_C_IDENTIFIER "_${NAME}" function)
help_text(main "${PROGRAM}" --help)
help_lines(main_lines "${main}")
help_options(main_options ${main_lines})
list(APPEND main_options --help)
list(REMOVE_DUPLICATES main_options)
list(JOIN main_options " " main_options)

set(script "# bash completion for ${NAME}: generated from its --help by packaging/completion.cmake.\n")

if(NAME STREQUAL "runlane-cli")
    help_commands(commands ${main_lines})
    if(NOT commands)
        message(FATAL_ERROR "no commands in `${PROGRAM} --help`")
    endif()
    # The first column of `runlane-cli formats`, under its "id" heading.
    help_text(formats "${PROGRAM}" formats)
    help_lines(format_lines "${formats}")
    list(POP_FRONT format_lines)
    set(ids "")
    foreach(line IN LISTS format_lines)
        if(line MATCHES "^([a-z0-9_-]+) ")
            list(APPEND ids ${CMAKE_MATCH_1})
        endif()
    endforeach()
    list(JOIN ids " " ids)
    set(cases "")
    foreach(command IN LISTS commands)
        help_text(help "${PROGRAM}" ${command} --help)
        help_lines(lines "${help}")
        help_options(options ${lines})
        list(APPEND options --help)
        list(REMOVE_DUPLICATES options)
        # A command's own words: "runlane-cli history record ...",
        # "history export|import ...".
        set(words "")
        foreach(line IN LISTS lines)
            if(line MATCHES "^(Usage:|      ) +${NAME} ${command} ([a-z|]+)( |$)")
                string(REPLACE "|" ";" found "${CMAKE_MATCH_2}")
                list(APPEND words ${found})
            endif()
        endforeach()
        list(JOIN options " " options)
        list(JOIN words " " words)
        string(APPEND cases "        ${command}) options=\"${options}\" subwords=\"${words}\" ;;\n")
    endforeach()
    list(JOIN commands " " commands)
    string(APPEND script "${function}()
{
    local cur prev words cword
    _init_completion || return
    if [[ \$cword -eq 1 ]]; then
        COMPREPLY=(\$(compgen -W \"${commands} ${main_options}\" -- \"\$cur\"))
        return
    fi
    local options= subwords=
    case \${words[1]} in
${cases}    esac
    case \$prev in
        --input-format)
            COMPREPLY=(\$(compgen -W \"${ids}\" -- \"\$cur\"))
            return
            ;;
    esac
    if [[ \$cur == -* ]]; then
        COMPREPLY=(\$(compgen -W \"\$options\" -- \"\$cur\"))
    elif [[ \$cword -eq 2 && -n \$subwords ]]; then
        COMPREPLY=(\$(compgen -W \"\$subwords\" -- \"\$cur\"))
    else
        _filedir
    fi
}
complete -F ${function} ${NAME}
")
else()
    string(APPEND script "${function}()
{
    local cur prev words cword
    _init_completion || return
    if [[ \$cur == -* ]]; then
        COMPREPLY=(\$(compgen -W \"${main_options}\" -- \"\$cur\"))
    else
        _filedir
    fi
}
complete -F ${function} ${NAME}
")
endif()
help_unquote(script "${script}")
file(WRITE "${OUTPUT}" "${script}")
