# cmake/BookChapters.cmake, run in script mode: the chapter list it reads
# from book.yaml, and the configure error (with book.yaml's line) for each
# form it cannot read. Each case runs in its own `cmake -P`, since a
# FATAL_ERROR ends the script.
#
# usage: cmake -DSOURCE=ROOT -DOUT=DIR -P tests/tool/book-chapters.cmake
set(work ${OUT}/book-chapters-test)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(failures 0)

# Runs book_read_chapters on `yaml` and compares what it prints (the stems
# joined by commas, or the error) with `expected`.
function(expect name yaml expected)
  file(WRITE ${work}/${name}/book.yaml "${yaml}")
  file(WRITE ${work}/${name}.cmake
       "cmake_minimum_required(VERSION 3.25)\n"
       "include(${SOURCE}/cmake/BookChapters.cmake)\n"
       "book_read_chapters(${work}/${name}/book.yaml stems)\n"
       "string(REPLACE \";\" \",\" joined \"\${stems}\")\n"
       "message(\"stems: \${joined}\")\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P ${work}/${name}.cmake
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REGEX REPLACE "[ \n]+" " " said "${out}${err}")
  string(REGEX REPLACE "[ \n]+" " " expected "${expected}")
  string(FIND "${said}" "${expected}" at)
  if(at EQUAL -1)
    message(SEND_ERROR "${name}: expected '${expected}', got (status ${rc}): ${said}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  endif()
endfunction()

set(head "title: \"T\"\nparts:\n  - number: 1\n    title: One\n")
expect(two-parts
  "${head}    chapters:\n      - 01-alpha\n      # a comment\n\n      - 01r-alpha-review\n  - number: 2\n    title: Two\n    chapters:\n      - 02-beta\n"
  "stems: 01-alpha,01r-alpha-review,02-beta")
expect(flow-list "${head}    chapters: [01-alpha, 02-beta]\n"
  "book.yaml:5: write a part's chapters one per line (\"- STEM\"), not as '[01-alpha, 02-beta]'")
expect(empty-list "${head}    chapters:\n  - number: 2\n"
  "book.yaml:5: chapters: is followed by '  - number: 2', not by a chapter item")
expect(last-empty "${head}    chapters:\n"
  "book.yaml:5: chapters: lists no chapter")
expect(stray-item "${head}      - 01-alpha\n"
  "book.yaml:5: a chapter item outside a part's chapters: list")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} case(s) of cmake/BookChapters.cmake failed")
endif()
message(STATUS "cmake/BookChapters.cmake: every case as expected")
