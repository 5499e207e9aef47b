# add_book_exercise(NN): the targets and the test of the exercise in the
# calling directory, exercises/NN-slug/, which holds exercise.hpp,
# starter.cpp, tests.cpp, book_solution.cpp and bugs.cmake. The exercise
# tests (tests.cpp) are compiled once and linked with several
# implementations:
#   exercise_NN        starter.cpp, the file the reader fixes
#   exercise_NN_bug_I  the starter with only planted mistake I left
#   exercise_NN_fixed  the starter with every mistake fixed
#   exercise_NN_book   the book's implementation (book_solution.cpp)
# `cmake --build build --target run_exercise_NN` builds and runs the
# reader's tests; the CTest test exercise-NN-planted-mistakes (labels
# exercise, chNN) checks the starter as shipped. None of these is part of
# the book's build (cmake/TestOnly.cmake): the reader's command builds
# the starter, the test command builds every variant.
set(EXERCISE_TOOLS ${CMAKE_CURRENT_LIST_DIR})

# One precompiled Catch2 header shared by every exercise's tests.
add_library(exercise_catch_pch OBJECT ${EXERCISE_TOOLS}/catch_pch.cpp)
target_link_libraries(exercise_catch_pch PRIVATE llm Catch2::Catch2)
target_precompile_headers(exercise_catch_pch PRIVATE <catch2/catch.hpp>)
book_test_program(exercise_catch_pch)

function(add_book_exercise nn)
  set(here ${CMAKE_CURRENT_SOURCE_DIR})
  set(variants ${CMAKE_CURRENT_BINARY_DIR}/variants)
  file(MAKE_DIRECTORY ${variants})
  include(${here}/bugs.cmake)  # BUG_COUNT, in this function's scope
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${here}/bugs.cmake)
  get_filename_component(slug ${here} NAME)

  set(tests exercise_${nn}_tests)
  add_library(${tests} OBJECT tests.cpp)
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
    USES_TERMINAL
    COMMENT "The exercise tests on exercises/${slug}/starter.cpp")

  add_test(NAME exercise-${nn}-planted-mistakes
           COMMAND ${CMAKE_COMMAND} -DBUGS=${here}/bugs.cmake
                   -DVARIANTS=${variants}
                   -DBIN_DIR=${CMAKE_CURRENT_BINARY_DIR}
                   -DPREFIX=exercise_${nn}
                   -P ${EXERCISE_TOOLS}/check_bugs.cmake)
  set_tests_properties(exercise-${nn}-planted-mistakes PROPERTIES
                       LABELS "exercise;ch${nn}")
  book_tests_need_programs(exercise-${nn}-planted-mistakes)
endfunction()
