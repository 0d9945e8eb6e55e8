# What the CTest scripts (cmake -P) of the package tests share: required variables and a step
# that runs a command and fails the test with its output.

# Fails the script naming the first of the variables that is not set.
function(require_variables)
  foreach(variable ${ARGN})
    if(NOT ${variable})
      message(FATAL_ERROR "${variable} is not set")
    endif()
  endforeach()
endfunction()

# Runs the command, fails the script with its output when it fails; its output is in step_output.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${output}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${output}" PARENT_SCOPE)
endfunction()
