# The multi-head attention workbench of chapter 25: the chapter's own C++
# compiled to WebAssembly with Emscripten (Debian's emscripten package),
# published with the book, and a native build of the same entry point for
# the test that compares the two.
#
#   book/workbench/workbench.cpp + the llm sources it needs --emcc-->
#       site/workbench/attention.js   (the .wasm embedded: loads from file://)
#   book/workbench/workbench.{js,css} --copy--> site/workbench/
#   book/workbench/workbench.cpp + libllm --g++--> workbench_native
#
# Included from Book.cmake once the library's sources are known. Built only
# when the book has chapter 25's code (llm/multi_head_attention.hpp), so
# that a copy of the book cut down to earlier chapters still builds.
#
# Debian's Emscripten ships its system libraries prebuilt and frozen in
# /usr/share/emscripten/cache, so nothing is built or downloaded on first
# use. Its JavaScript optimiser needs Debian's node-acorn, found through
# NODE_PATH.

set(WORKBENCH_DIR ${BOOK_SOURCE}/book/workbench)
set(WORKBENCH_SITE_DIR ${SITE_DIR}/workbench)
set(WORKBENCH_SITE_FILES "")

if(NOT "llm/multi_head_attention.hpp" IN_LIST LITBOOK_HEADERS)
  message(STATUS "Workbench: no llm/multi_head_attention.hpp yet; not built")
  return()
endif()

find_program(EMCC emcc)
if(NOT EMCC)
  message(FATAL_ERROR "Workbench: emcc not found; install Debian's emscripten "
                      "package (tools/setup.sh does)")
endif()
set(WORKBENCH_NODE_PATH /usr/share/nodejs CACHE PATH
    "Where Emscripten's JavaScript tools find node-acorn")
set(EMCC_RUN ${CMAKE_COMMAND} -E env NODE_PATH=${WORKBENCH_NODE_PATH} ${EMCC})

# The library sources the entry point needs: follow the "llm/NAME.hpp"
# includes from workbench.cpp through the headers and sources they reach,
# keeping the NAME.cpp files the tangle produced (snippets.cmake). Re-read
# whenever CMake runs; a changed set of tangled files re-runs it.
function(workbench_llm_sources out)
  set(todo ${WORKBENCH_DIR}/workbench.cpp)
  set(seen "")
  set(sources "")
  while(todo)
    list(POP_FRONT todo file)
    file(STRINGS ${file} lines
         REGEX "^[ \t]*#[ \t]*include[ \t]*\"llm/[A-Za-z0-9_]+\\.hpp\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE ".*\"llm/([A-Za-z0-9_]+)\\.hpp\".*" "\\1" name
             "${line}")
      if(name IN_LIST seen)
        continue()
      endif()
      list(APPEND seen ${name})
      if(EXISTS ${SNIPPETS_DIR}/llm/${name}.hpp)
        list(APPEND todo ${SNIPPETS_DIR}/llm/${name}.hpp)
      endif()
      if("llm/${name}.cpp" IN_LIST LITBOOK_LIBRARY_SOURCES)
        list(APPEND sources llm/${name}.cpp)
        list(APPEND todo ${SNIPPETS_DIR}/llm/${name}.cpp)
      endif()
    endforeach()
  endwhile()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()
workbench_llm_sources(WORKBENCH_LLM_SOURCES)
string(REPLACE ";" " " shown "${WORKBENCH_LLM_SOURCES}")
message(STATUS "Workbench: WebAssembly from ${shown}")

# The main build's language and floating-point rules, for clang's wasm32
# target. Warnings fail the entry point; in the library they are reported
# (clang warns about things g++ does not, and the book's own build with
# g++ is the one that rejects warnings).
set(EMCC_FLAGS -std=c++20 -O2 -fexceptions -ffp-contract=off
    -Wall -Wextra -Wpedantic)
set(WASM_OBJ_DIR ${BOOK_BUILD}/wasm)
file(MAKE_DIRECTORY ${WASM_OBJ_DIR} ${WORKBENCH_SITE_DIR})

set(wasm_objects "")
foreach(src IN LISTS WORKBENCH_LLM_SOURCES ITEMS workbench.cpp)
  if(src STREQUAL "workbench.cpp")
    set(input ${WORKBENCH_DIR}/workbench.cpp)
    set(extra -Werror)
  else()
    set(input ${SNIPPETS_DIR}/${src})
    set(extra "")
  endif()
  string(REPLACE "/" "_" obj ${src})
  set(obj ${WASM_OBJ_DIR}/${obj}.o)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${EMCC_RUN} ${EMCC_FLAGS} ${extra} -I${SNIPPETS_DIR}
            -MD -MF ${obj}.d -c ${input} -o ${obj}
    DEPENDS ${input}
    DEPFILE ${obj}.d
    COMMENT "Compiling ${src} to WebAssembly"
    VERBATIM)
  list(APPEND wasm_objects ${obj})
endforeach()

# One script, the module embedded (SINGLE_FILE: no fetch, so it loads from
# file://), a factory createWorkbenchModule() for the page and for Node.js.
# Linked in the build directory and then copied, so that a failed link
# leaves nothing half-written in the site.
set(WORKBENCH_MODULE ${WORKBENCH_SITE_DIR}/attention.js)
add_custom_command(
  OUTPUT ${STAMP_DIR}/workbench-module.stamp
  BYPRODUCTS ${WORKBENCH_MODULE}
  COMMAND ${EMCC_RUN} -O2 -fexceptions ${wasm_objects}
          -o ${WASM_OBJ_DIR}/attention.js
          -sSINGLE_FILE=1 -sMODULARIZE=1
          -sEXPORT_NAME=createWorkbenchModule
          -sENVIRONMENT=web,node -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1
          "-sEXPORTED_FUNCTIONS=_workbench_attention,_workbench_error,_malloc,_free"
          "-sEXPORTED_RUNTIME_METHODS=UTF8ToString"
  COMMAND ${CMAKE_COMMAND} -E copy ${WASM_OBJ_DIR}/attention.js
          ${WORKBENCH_MODULE}
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-module.stamp
  DEPENDS ${wasm_objects}
  COMMENT "Linking the workbench's WebAssembly module"
  VERBATIM)
list(APPEND WORKBENCH_SITE_FILES ${WORKBENCH_MODULE})
set(stamps ${STAMP_DIR}/workbench-module.stamp)

foreach(asset workbench.js workbench.css)
  add_custom_command(
    OUTPUT ${STAMP_DIR}/workbench-${asset}.stamp
    BYPRODUCTS ${WORKBENCH_SITE_DIR}/${asset}
    COMMAND ${CMAKE_COMMAND} -E copy ${WORKBENCH_DIR}/${asset}
            ${WORKBENCH_SITE_DIR}/${asset}
    COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-${asset}.stamp
    DEPENDS ${WORKBENCH_DIR}/${asset}
    COMMENT "Copying the workbench's ${asset}"
    VERBATIM)
  list(APPEND WORKBENCH_SITE_FILES ${WORKBENCH_SITE_DIR}/${asset})
  list(APPEND stamps ${STAMP_DIR}/workbench-${asset}.stamp)
endforeach()

# Later stages (publish) depend on the files in WORKBENCH_SITE_FILES and on
# this target, as elsewhere in Book.cmake.
add_custom_target(workbench DEPENDS ${stamps})
add_dependencies(workbench tangle)

# The same entry point, native, for the comparison test
# (tests/workbench/wasm-equals-native.test.js).
add_executable(workbench_native ${BOOK_SOURCE}/tests/workbench/workbench_native.cpp
                                ${WORKBENCH_DIR}/workbench.cpp)
target_include_directories(workbench_native PRIVATE ${WORKBENCH_DIR})
target_link_libraries(workbench_native PRIVATE llm)
