# A build of the tangled snippets: the library `llm`, one executable per
# demo and one per reader's program, with the rules every build of the
# book's code shares. The book's build (cmake/Book.cmake) and every
# snapshot (tests/snapshot/CMakeLists.txt) make their targets here, so
# that a snapshot, comparing a demo's outputs with the book's, compares
# two builds of one definition in which only the optimisation differs.

# C++20 without extensions, every warning an error, and no fused
# multiply-add: the book prints what the code computes, and -O0 must agree
# with -O2 bit for bit. BOOK_CODE_FLAGS is also what
# tests/tool/release-warnings.cmake compiles with at -O3.
set(BOOK_CODE_FLAGS -Wall -Wextra -Wpedantic -Werror -ffp-contract=off)
macro(book_code_rules)
  set(CMAKE_CXX_STANDARD 20)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CXX_EXTENSIONS OFF)
  add_compile_options(${BOOK_CODE_FLAGS})
endmacro()

# bookio, the support library demos publish values, tables and figures
# through (src/bookio under `source`).
function(book_bookio source)
  add_library(bookio STATIC ${source}/src/bookio/bookio.cpp
                            ${source}/src/bookio/format.cpp
                            ${source}/src/bookio/plot.cpp
                            ${source}/src/bookio/diagram.cpp
                            ${source}/src/bookio/diagram_layouts.cpp)
  target_include_directories(bookio PUBLIC ${source}/src)
endfunction()

# The demo of chapter STEM is the target chNN ("ch07", "ch26r").
function(book_demo_target stem out_var)
  string(REGEX MATCH "^[0-9]+r?" number ${stem})
  set(${out_var} ch${number} PARENT_SCOPE)
endfunction()

# The vectoriser's cost model (-fvect-cost-model) for TARGET's sources in
# SNIPPETS. At -O2, GCC 12's model is "very-cheap": it vectorises a loop
# only when vector code replaces the scalar loop entirely (no scalar
# remainder, no check at run time), which leaves most of the library's
# elementwise loops scalar; "cheap" vectorises those too. The matrix
# product's tile keeps "very-cheap" in every build type: under "cheap"
# (and -O3's "dynamic") GCC also vectorises the tile's loop over the
# inner extent, and a training step runs several times slower. A
# vectorised loop over independent elements rounds each element as the
# scalar loop does, and a sum it vectorises is still added in order: GCC
# reorders a sum of doubles only when allowed to (-fassociative-math with
# -fno-signed-zeros and -fno-trapping-math, as -ffast-math implies, or an
# OpenMP simd reduction), and the build allows neither; so the bits are
# the same. -fno-math-errno lets a square root be one instruction (sqrtsd
# rounds as libm's sqrt does) with no test and call beside it for errno,
# which nothing after the library's math calls reads, so a loop with one
# can be vectorised.
# Emscripten's build of the workbenches does not come here.
function(book_vectorise target snippets)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -fvect-cost-model=cheap
      -fno-math-errno)
    set_property(SOURCE ${snippets}/llm/matmul.cpp APPEND PROPERTY
      COMPILE_OPTIONS -fvect-cost-model=very-cheap)
  endif()
endfunction()

# book_snippet_build(SNIPPETS DIR [DEMOS STEM...] [LAUNCHER COMMAND...])
# makes llm from DIR's library sources, the demo of each STEM (default:
# every demo) and every program, as DIR/snippets.cmake lists them (it is
# included here). LAUNCHER wraps each of their compiles (the book's
# `litbook compile`, which maps diagnostics back to chapter lines).
function(book_snippet_build)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SNIPPETS" "DEMOS;LAUNCHER")
  include(${arg_SNIPPETS}/snippets.cmake)
  if(NOT DEFINED arg_DEMOS AND NOT "DEMOS" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    set(arg_DEMOS ${LITBOOK_DEMOS})
  endif()
  set(sources "")
  foreach(src IN LISTS LITBOOK_LIBRARY_SOURCES)
    list(APPEND sources ${arg_SNIPPETS}/${src})
  endforeach()
  set(targets "")
  if(sources)
    add_library(llm STATIC ${sources})
    target_include_directories(llm PUBLIC ${arg_SNIPPETS})
    book_vectorise(llm ${arg_SNIPPETS})
    # A call into a shared library (libm's exp and log, malloc, memset)
    # loads the callee's address from the GOT where it is made, instead
    # of jumping to a PLT stub that jumps again; every such symbol is then
    # bound when the program loads. The arithmetic does not change.
    target_compile_options(llm PRIVATE -fno-plt)
    list(APPEND targets llm)
  else()
    add_library(llm INTERFACE)
    target_include_directories(llm INTERFACE ${arg_SNIPPETS})
  endif()
  foreach(stem IN LISTS arg_DEMOS)
    if(NOT stem IN_LIST LITBOOK_DEMOS)
      message(FATAL_ERROR "book_snippet_build: ${stem} has no demo in "
              "${arg_SNIPPETS}")
    endif()
    book_demo_target(${stem} exe)
    add_executable(${exe} ${arg_SNIPPETS}/demos/${stem}.cpp)
    target_link_libraries(${exe} PRIVATE llm bookio)
    list(APPEND targets ${exe})
  endforeach()
  foreach(program IN LISTS LITBOOK_PROGRAMS)
    add_executable(${program} ${arg_SNIPPETS}/programs/${program}.cpp)
    target_link_libraries(${program} PRIVATE llm)
    list(APPEND targets ${program})
  endforeach()
  if(arg_LAUNCHER AND targets)
    set_target_properties(${targets} PROPERTIES
                          CXX_COMPILER_LAUNCHER "${arg_LAUNCHER}")
  endif()
endfunction()
