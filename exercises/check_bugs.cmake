# An exercise's own test (PREFIX is exercise_NN): the exercise tests
# must fail on the starter with each planted mistake alone (naming the
# tests that catch it), and pass with every mistake fixed and on the
# book's implementation.
include(${BUGS})
file(READ ${VARIANTS}/status.txt status)
string(STRIP "${status}" status)
if(NOT status STREQUAL "ok")
  message(FATAL_ERROR "${status}")
endif()

# Catch2 reads a test name as a filter: ',' separates names, '[' starts
# a tag, '*' is a wildcard, a leading '~' excludes. A backslash makes
# each of them literal.
function(catch_filter name out)
  foreach(c "\\" "," "[" "]" "*" "~")
    string(REPLACE "${c}" "\\${c}" name "${name}")
  endforeach()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

# The names of the exercise tests that fail on `exe`, each run alone. A
# name that selects no test (-w NoTests) stops the check: without it a
# mistake could go unnoticed.
function(failing_tests exe out)
  execute_process(COMMAND ${exe} --list-test-names-only
                  OUTPUT_VARIABLE names RESULT_VARIABLE rc)
  string(REPLACE "\n" ";" names "${names}")
  set(failed "")
  foreach(name IN LISTS names)
    string(STRIP "${name}" name)
    if(name STREQUAL "")
      continue()
    endif()
    catch_filter("${name}" filter)
    execute_process(COMMAND ${exe} -w NoTests "${filter}"
                    OUTPUT_VARIABLE log ERROR_VARIABLE log
                    RESULT_VARIABLE rc)
    string(FIND "${log}" "No tests ran" none)
    if(NOT none EQUAL -1)
      message(FATAL_ERROR "${exe}: the test name '${name}' selects no test")
    endif()
    if(NOT rc EQUAL 0)
      list(APPEND failed "${name}")
    endif()
  endforeach()
  set(${out} "${failed}" PARENT_SCOPE)
endfunction()

set(ok TRUE)
foreach(i RANGE 1 ${BUG_COUNT})
  failing_tests(${BIN_DIR}/${PREFIX}_bug_${i} failed)
  if(failed)
    string(REPLACE ";" "', '" list "${failed}")
    message(STATUS "mistake ${i} alone (${BUG_${i}_NAME}) fails: '${list}'")
  else()
    message(STATUS "mistake ${i} alone (${BUG_${i}_NAME}) fails no test")
    set(ok FALSE)
  endif()
endforeach()
foreach(exe ${PREFIX}_fixed ${PREFIX}_book)
  execute_process(COMMAND ${BIN_DIR}/${exe} OUTPUT_VARIABLE out
                  ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    message(STATUS "${exe}: every exercise test passes")
  else()
    message(STATUS "${exe}: exercise tests fail\n${out}")
    set(ok FALSE)
  endif()
endforeach()
if(NOT ok)
  message(FATAL_ERROR "the exercise does not separate its planted mistakes")
endif()
