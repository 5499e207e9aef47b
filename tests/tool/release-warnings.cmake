# Compiles the book tool, the demos' support library, the tangled library
# llm, the chapters' demos and the readers' programs (snippets/) as a
# Release build does (-O3 -DNDEBUG) with the project's warnings as errors.
# GCC 12 gives false-positive -Wrestrict and -Wmaybe-uninitialized warnings
# only when it optimises and inlines that much, so the default
# RelWithDebInfo (-O2) build never sees them; this test does, in a few
# seconds when ccache already holds the objects.
# The flags are the build's own (BOOK_CODE_FLAGS, cmake/SnippetBuild.cmake),
# with C++20 as book_code_rules sets it.
#   cmake -DCXX=... -DLAUNCHER=... -DSOURCE=... -DOUT=... -P release-warnings.cmake
cmake_minimum_required(VERSION 3.25)
include(${SOURCE}/cmake/SnippetBuild.cmake)
if(NOT "-Werror" IN_LIST BOOK_CODE_FLAGS)
  message(FATAL_ERROR "BOOK_CODE_FLAGS (${BOOK_CODE_FLAGS}) has no -Werror: "
                      "this test would pass whatever the warnings")
endif()
file(GLOB sources ${SOURCE}/src/litbook/*.cpp ${SOURCE}/src/bookio/*.cpp
     ${SOURCE}/snippets/llm/*.cpp ${SOURCE}/snippets/demos/*.cpp
     ${SOURCE}/snippets/programs/*.cpp)
set(failed "")
foreach(src IN LISTS sources)
  get_filename_component(name ${src} NAME_WE)
  execute_process(
    COMMAND ${LAUNCHER} ${CXX} -std=c++20 -O3 -DNDEBUG ${BOOK_CODE_FLAGS}
            -I${SOURCE}/src/litbook -I${SOURCE}/src -I${SOURCE}/snippets
            -c ${src} -o ${OUT}/release-${name}.o
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(APPEND failed ${src})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "fails to compile at -O3 -Werror: ${failed}")
endif()
