# The workbenches: each the book's own C++ compiled to WebAssembly with
# Emscripten (Debian's emscripten package), published with the book, and a
# native build of the same entry point for the test that compares the two.
# For each directory book/workbench/NAME/ (book.yaml's workbenches):
#
#   NAME/NAME.cpp + the llm sources it needs --emcc-->
#       site/workbench/NAME-module.js   (the .wasm embedded: loads from file://;
#                                        defines createNAMEWorkbench, NAME
#                                        capitalised)
#   NAME/NAME.js, common.js, workbench.css --copy--> site/workbench/
#   NAME/NAME.cpp + tests/workbench/NAME_native.cpp + libllm --g++-->
#       workbench_NAME_native
#
# Each NAME.cpp includes what the entry points share from book/workbench/:
# entry.hpp (the error message, the guard around a call, the checks on
# the doubles) and, for those that read the trained checkpoint, model.hpp.
# Their dependencies come from the compilers' depfiles.
#
# A workbench that needs more in the site (data the page loads) adds it in
# its own NAME/NAME.cmake, included here after its targets are made,
# appending to WORKBENCH_SITE_FILES and workbench_stamps; it may also add
# to its native program (the training workbench: musl's math).
#
# The module exports every function NAME.hpp declares whose name starts
# with wb_ (each module its own: the names repeat across workbenches).
# A workbench is built only when the book has the library headers its
# sources include, so that a copy of the book cut down to earlier chapters
# still builds (BOOK_WORKBENCHES lists those built, for tests/).
#
# Debian's Emscripten ships its system libraries prebuilt and frozen in
# /usr/share/emscripten/cache, so nothing is built or downloaded on first
# use. Its JavaScript optimiser needs Debian's node-acorn, found through
# NODE_PATH.

set(WORKBENCH_ROOT ${BOOK_SOURCE}/book/workbench)
set(WORKBENCH_SITE_DIR ${SITE_DIR}/workbench)
set(WORKBENCH_SITE_FILES "")
set(BOOK_WORKBENCHES "")
set_property(GLOBAL PROPERTY BOOK_WORKBENCHES "")

file(GLOB workbench_entries LIST_DIRECTORIES true CONFIGURE_DEPENDS
     ${WORKBENCH_ROOT}/*)
set(workbench_names "")
foreach(dir IN LISTS workbench_entries)
  get_filename_component(name ${dir} NAME)
  if(IS_DIRECTORY ${dir} AND EXISTS ${dir}/${name}.cpp)
    list(APPEND workbench_names ${name})
  endif()
endforeach()
if(NOT workbench_names)
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

# The library sources an entry point needs: follow the "llm/NAME.hpp"
# includes from ENTRY through the headers and sources they reach, keeping
# the NAME.cpp files the tangle produced (snippets.cmake). MISSING gets
# the headers the book does not have (yet). Re-read whenever CMake runs; a
# changed set of tangled files re-runs it.
function(workbench_llm_sources entry out missing_out)
  set(todo ${entry})
  set(seen "")
  set(sources "")
  set(missing "")
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
      if(NOT "llm/${name}.hpp" IN_LIST LITBOOK_HEADERS)
        list(APPEND missing llm/${name}.hpp)
      elseif(EXISTS ${SNIPPETS_DIR}/llm/${name}.hpp)
        list(APPEND todo ${SNIPPETS_DIR}/llm/${name}.hpp)
      endif()
      if("llm/${name}.cpp" IN_LIST LITBOOK_LIBRARY_SOURCES)
        list(APPEND sources llm/${name}.cpp)
        list(APPEND todo ${SNIPPETS_DIR}/llm/${name}.cpp)
      endif()
    endforeach()
  endwhile()
  set(${out} ${sources} PARENT_SCOPE)
  set(${missing_out} ${missing} PARENT_SCOPE)
endfunction()

# The main build's language and floating-point rules, for clang's wasm32
# target. Warnings fail the entry points; in the library they are reported
# (clang warns about things g++ does not, and the book's own build with
# g++ is the one that rejects warnings).
# compat.hpp supplies what Emscripten's older libc++ lacks (std::bit_cast).
set(EMCC_FLAGS -std=c++20 -O2 -fexceptions -ffp-contract=off
    -Wall -Wextra -Wpedantic -include ${WORKBENCH_ROOT}/compat.hpp)
set(WASM_OBJ_DIR ${BOOK_BUILD}/wasm)
file(MAKE_DIRECTORY ${WASM_OBJ_DIR} ${WORKBENCH_SITE_DIR})

# One WebAssembly object per source, shared by every module that needs it.
set(wasm_compiled "")
function(workbench_wasm_object input obj extra)
  if(obj IN_LIST wasm_compiled)
    return()
  endif()
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${EMCC_RUN} ${EMCC_FLAGS} ${extra} -I${SNIPPETS_DIR}
            -MD -MF ${obj}.d -c ${input} -o ${obj}
    DEPENDS ${input} ${WORKBENCH_ROOT}/compat.hpp
    DEPFILE ${obj}.d
    COMMENT "Compiling ${input} to WebAssembly"
    VERBATIM)
  set(wasm_compiled ${wasm_compiled} ${obj} PARENT_SCOPE)
endfunction()

# Copies a file of book/workbench/ into the site, behind a stamp.
function(workbench_copy input)
  get_filename_component(file ${input} NAME)
  add_custom_command(
    OUTPUT ${STAMP_DIR}/workbench-${file}.stamp
    BYPRODUCTS ${WORKBENCH_SITE_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E copy ${input} ${WORKBENCH_SITE_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-${file}.stamp
    DEPENDS ${input}
    COMMENT "Copying the workbench file ${file}"
    VERBATIM)
  set(WORKBENCH_SITE_FILES ${WORKBENCH_SITE_FILES}
      ${WORKBENCH_SITE_DIR}/${file} PARENT_SCOPE)
  set(workbench_stamps ${workbench_stamps}
      ${STAMP_DIR}/workbench-${file}.stamp PARENT_SCOPE)
endfunction()

set(workbench_stamps "")
foreach(name IN LISTS workbench_names)
  set(dir ${WORKBENCH_ROOT}/${name})
  workbench_llm_sources(${dir}/${name}.cpp sources missing)
  if(missing)
    string(REPLACE ";" " " shown "${missing}")
    message(STATUS "Workbench ${name}: the book has no ${shown} yet; not built")
    continue()
  endif()
  string(REPLACE ";" " " shown "${sources}")
  message(STATUS "Workbench ${name}: WebAssembly, entry point reaching ${shown}")

  # Every library source, not only those named like the headers reached: a
  # header's functions may be defined in another file (attention.hpp's in
  # attention_params.cpp), and the linker keeps only what is called.
  set(objects "")
  foreach(src IN LISTS LITBOOK_LIBRARY_SOURCES)
    string(REPLACE "/" "_" obj ${src})
    workbench_wasm_object(${SNIPPETS_DIR}/${src} ${WASM_OBJ_DIR}/${obj}.o "")
    list(APPEND objects ${WASM_OBJ_DIR}/${obj}.o)
  endforeach()
  workbench_wasm_object(${dir}/${name}.cpp ${WASM_OBJ_DIR}/wb_${name}.o -Werror)
  list(APPEND objects ${WASM_OBJ_DIR}/wb_${name}.o)

  # The C functions to export: NAME.hpp's wb_ declarations.
  file(STRINGS ${dir}/${name}.hpp decls REGEX "[ *]wb_[a-z0-9_]+\\(")
  set(exports _malloc _free)
  foreach(decl IN LISTS decls)
    string(REGEX MATCH "wb_[a-z0-9_]+\\(" fn "${decl}")
    string(REPLACE "(" "" fn "${fn}")
    list(APPEND exports _${fn})
  endforeach()
  list(REMOVE_DUPLICATES exports)
  string(REPLACE ";" "," exports "${exports}")
  string(SUBSTRING ${name} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${name} 1 -1 rest)

  # One script, the module embedded (SINGLE_FILE: no fetch, so it loads
  # from file://), a factory for the page and for Node.js. Linked in the
  # build directory and then copied, so that a failed link leaves nothing
  # half-written in the site.
  set(module ${WORKBENCH_SITE_DIR}/${name}-module.js)
  add_custom_command(
    OUTPUT ${STAMP_DIR}/workbench-${name}-module.stamp
    BYPRODUCTS ${module}
    COMMAND ${EMCC_RUN} -O2 -fexceptions ${objects}
            -o ${WASM_OBJ_DIR}/${name}-module.js
            -sSINGLE_FILE=1 -sMODULARIZE=1
            -sEXPORT_NAME=create${first}${rest}Workbench
            -sENVIRONMENT=web,node -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1
            "-sEXPORTED_FUNCTIONS=${exports}"
            "-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8"
    COMMAND ${CMAKE_COMMAND} -E copy ${WASM_OBJ_DIR}/${name}-module.js ${module}
    COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-${name}-module.stamp
    DEPENDS ${objects} ${dir}/${name}.hpp
    COMMENT "Linking the ${name} workbench's WebAssembly module"
    VERBATIM)
  list(APPEND WORKBENCH_SITE_FILES ${module})
  list(APPEND workbench_stamps ${STAMP_DIR}/workbench-${name}-module.stamp)
  workbench_copy(${dir}/${name}.js)

  # The same entry point, native, for the comparison test
  # (tests/workbench/NAME.test.js).
  add_executable(workbench_${name}_native
                 ${BOOK_SOURCE}/tests/workbench/${name}_native.cpp
                 ${dir}/${name}.cpp)
  target_include_directories(workbench_${name}_native PRIVATE ${dir})
  target_link_libraries(workbench_${name}_native PRIVATE llm)
  book_test_program(workbench_${name}_native)

  # What else a workbench needs in the site (the generating one: the
  # trained checkpoint) or in its native program, from its own NAME.cmake.
  if(EXISTS ${dir}/${name}.cmake)
    include(${dir}/${name}.cmake)
  endif()
  list(APPEND BOOK_WORKBENCHES ${name})
endforeach()

if(NOT BOOK_WORKBENCHES)
  return()
endif()
workbench_copy(${WORKBENCH_ROOT}/common.js)
workbench_copy(${WORKBENCH_ROOT}/workbench.css)
set_property(GLOBAL PROPERTY BOOK_WORKBENCHES ${BOOK_WORKBENCHES})

# Later stages (publish) depend on the files in WORKBENCH_SITE_FILES and on
# this target, as elsewhere in Book.cmake.
add_custom_target(workbench DEPENDS ${workbench_stamps})
add_dependencies(workbench tangle)
