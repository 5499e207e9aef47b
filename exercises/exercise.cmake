# add_book_exercise(STEM): the targets and the test of chapter STEM's
# exercise, exercises/STEM/, which holds exercise.hpp, starter.cpp,
# tests.cpp, book_solution.cpp and bugs.cmake (exercises/CMakeLists.txt
# calls it for every chapter of book/book.yaml that has one). NN below is
# the chapter's number, taken from STEM. The exercise tests (tests.cpp)
# are compiled once and linked with several implementations:
#   exercise_NN        starter.cpp, the file the reader fixes
#   exercise_NN_bug_I  the starter with only planted mistake I left
#   exercise_NN_fixed  the starter with every mistake fixed
#   exercise_NN_book   the book's implementation (book_solution.cpp)
# `cmake --build build --target run_exercise_NN` builds and runs the
# reader's tests; the CTest test exercise-NN-planted-mistakes (labels
# exercise, chNN) checks the starter as shipped. None of these is part of
# the book's build (cmake/TestOnly.cmake): the reader's command builds
# the starter, the test command builds every variant. The global property
# BOOK_EXERCISE_TARGETS lists the run_exercise_NN targets.
set(EXERCISE_TOOLS ${CMAKE_CURRENT_LIST_DIR})

# One precompiled Catch2 header shared by every exercise's tests.
add_library(exercise_catch_pch OBJECT ${EXERCISE_TOOLS}/catch_pch.cpp)
target_link_libraries(exercise_catch_pch PRIVATE llm Catch2::Catch2)
target_precompile_headers(exercise_catch_pch PRIVATE <catch2/catch.hpp>)
book_test_program(exercise_catch_pch)

set_property(GLOBAL PROPERTY BOOK_EXERCISE_TARGETS "")

function(add_book_exercise stem)
  book_chapter_number(${stem} nn)
  set(here ${EXERCISE_TOOLS}/${stem})
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/${stem})
  set(variants ${bin}/variants)
  file(MAKE_DIRECTORY ${variants})
  include(${here}/bugs.cmake)  # BUG_COUNT, in this function's scope
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${here}/bugs.cmake)

  set(tests exercise_${nn}_tests)
  add_library(${tests} OBJECT ${here}/tests.cpp)
  # The exercise tests may share the unit tests' reference helpers.
  target_include_directories(${tests} PRIVATE ${here}
                             ${PROJECT_SOURCE_DIR}/tests/unit)
  target_link_libraries(${tests} PRIVATE llm Catch2::Catch2)
  target_precompile_headers(${tests} REUSE_FROM exercise_catch_pch)
  book_test_program(${tests})

  set(bug_sources "")
  set(bug_names "")
  foreach(i RANGE 1 ${BUG_COUNT})
    list(APPEND bug_sources ${variants}/bug_${i}.cpp)
    list(APPEND bug_names bug_${i})
  endforeach()
  add_custom_command(
    OUTPUT ${bug_sources} ${variants}/fixed.cpp ${variants}/status.txt
    COMMAND ${CMAKE_COMMAND} -DSTARTER=${here}/starter.cpp
            -DBUGS=${here}/bugs.cmake -DOUT_DIR=${variants}
            -P ${EXERCISE_TOOLS}/make_variants.cmake
    DEPENDS ${here}/starter.cpp ${here}/bugs.cmake
            ${EXERCISE_TOOLS}/make_variants.cmake
    COMMENT "Exercise ${nn}: starter variants with one planted mistake each")

  set(binaries exercise_${nn}:${here}/starter.cpp
               exercise_${nn}_book:${here}/book_solution.cpp
               exercise_${nn}_fixed:${variants}/fixed.cpp)
  foreach(name IN LISTS bug_names)
    list(APPEND binaries exercise_${nn}_${name}:${variants}/${name}.cpp)
  endforeach()
  # A planted mistake is often a value computed and then never used (the
  # decoder's smallest code point, never compared), and a reader's half
  # edited starter leaves such values too. Finding them is the exercise,
  # by its tests: the starter and its one-mistake variants are compiled
  # without the unused-value warnings (before, they were warnings but not
  # errors, and every build printed about fifty). The fixed starter and
  # the book's implementation keep every warning as an error.
  foreach(pair IN LISTS binaries)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 name)
    list(GET pair 1 source)
    add_executable(${name} ${source} $<TARGET_OBJECTS:${tests}>)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${bin})
    target_include_directories(${name} PRIVATE ${here})
    target_link_libraries(${name} PRIVATE llm Catch2::Catch2WithMain)
    if(NOT name MATCHES "_(book|fixed)$")
      target_compile_options(${name} PRIVATE -Wno-unused-variable
                             -Wno-unused-but-set-variable
                             -Wno-unused-parameter)
    endif()
    book_test_program(${name})
  endforeach()

  add_custom_target(run_exercise_${nn}
    COMMAND exercise_${nn}
    DEPENDS exercise_${nn}
    WORKING_DIRECTORY ${bin}
    USES_TERMINAL
    COMMENT "The exercise tests on exercises/${stem}/starter.cpp")
  set_property(GLOBAL APPEND PROPERTY BOOK_EXERCISE_TARGETS
               run_exercise_${nn})

  add_test(NAME exercise-${nn}-planted-mistakes
           COMMAND ${CMAKE_COMMAND} -DBUGS=${here}/bugs.cmake
                   -DVARIANTS=${variants}
                   -DBIN_DIR=${bin}
                   -DPREFIX=exercise_${nn}
                   -P ${EXERCISE_TOOLS}/check_bugs.cmake
           WORKING_DIRECTORY ${bin})
  set_tests_properties(exercise-${nn}-planted-mistakes PROPERTIES
                       LABELS "exercise;ch${nn}")
  book_tests_need_programs(exercise-${nn}-planted-mistakes)
endfunction()
