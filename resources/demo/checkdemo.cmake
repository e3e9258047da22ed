# Regenerates the demo profile and fails if it differs from the committed one.
execute_process(COMMAND ${GENERATOR} -o ${OUTPUT} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "runlane-demo-generator failed: ${result}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTPUT} ${EXPECTED} RESULT_VARIABLE same)
if(NOT same EQUAL 0)
    message(FATAL_ERROR "resources/demo/chronos-demo.json is not what the generator writes; regenerate it with\n"
                        "  runlane-demo-generator -o resources/demo/chronos-demo.json")
endif()
