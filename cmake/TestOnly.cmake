# Programs only the tests run (the exercise variants, the unit and tool
# test programs, the outside references, the workbenches' native builds)
# are left out of the book's build, `cmake --build build`, which
# tools/build-book.sh runs: a reader needs none of them, and building the
# four or more variants of every exercise was most of a fresh clone's
# compiles. book_test_program(TARGET...) marks such targets. The target
# test_programs builds them all (tools/test.sh builds it after the book),
# and the CTest test build-test-programs builds it first for every test
# that runs one of them (fixture test_programs), so that `ctest` alone,
# or `ctest -L exercise`, still finds them built and up to date.
set_property(GLOBAL PROPERTY BOOK_TEST_PROGRAMS "")
function(book_test_program)
  set_target_properties(${ARGN} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  set_property(GLOBAL APPEND PROPERTY BOOK_TEST_PROGRAMS ${ARGN})
endfunction()

# book_tests_need_programs(TEST...): each TEST runs after
# build-test-programs (tests/CMakeLists.txt). CMake 3.25 sets a test's
# properties only from the directory that added it, so each directory
# calls this for its own tests.
function(book_tests_need_programs)
  set_tests_properties(${ARGN} PROPERTIES FIXTURES_REQUIRED test_programs)
endfunction()
