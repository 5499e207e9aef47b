# cmake/BookChapters.cmake, run in script mode: the chapter list it reads
# from book.yaml, and the configure error (with book.yaml's line) for each
# form it cannot read; what it derives from the list (labels, exercises,
# the check of tests= commands) in a tiny book written in two orders; and
# that no CMake file of the build names a chapter by number. Each case
# runs in its own `cmake -P`, since a FATAL_ERROR ends the script.
#
# usage: cmake -DSOURCE=ROOT -DOUT=DIR -P tests/tool/book-chapters.cmake
set(work ${OUT}/book-chapters-test)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(failures 0)

# Runs ${work}/${name}.cmake and compares what it says, spaces folded,
# with `expected`; a miss counts a failure. A macro, so that it runs in
# the calling function and its PARENT_SCOPE reaches the top level.
macro(run_and_expect)
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
endmacro()

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
  run_and_expect()
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

# ---- a renumbering is book.yaml and the file names ----------------------
# A tiny book, alpha and beta, beta with an exercise, is written in one
# order and then the other (book.yaml swapped, the files renamed, the
# chapters' text unchanged but for its tests= command). What CMake derives
# from the list follows: the labels, the exercise and its target, and the
# check of each chapter's tests= command.
set(alpha_text "# Alpha\n\n::: {.implement tests=\"ctest -L ch@A@\"}\n:::\n")
set(beta_text "# Beta\n\n::: {.implement tests=\"cmake --build build --target run_exercise_@B@\"}\n:::\n")

# Writes the book NAME with chapters ALPHA-alpha and BETA-beta (in number
# order) and exercises/EXERCISE/; the chapters' tests= name the numbers A
# and B.
function(tiny_book name alpha beta exercise a b)
  set(root ${work}/${name})
  if(alpha LESS beta)
    set(order "      - ${alpha}-alpha\n      - ${beta}-beta\n")
  else()
    set(order "      - ${beta}-beta\n      - ${alpha}-alpha\n")
  endif()
  file(WRITE ${root}/book/book.yaml "${head}    chapters:\n${order}")
  string(REPLACE "@A@" ${a} text "${alpha_text}")
  file(WRITE ${root}/chapters/${alpha}-alpha.md "${text}")
  string(REPLACE "@B@" ${b} text "${beta_text}")
  file(WRITE ${root}/chapters/${beta}-beta.md "${text}")
  file(WRITE ${root}/exercises/${exercise}/starter.cpp "")
endfunction()

# Runs what CMake derives from the tiny book NAME and compares what it
# prints (or the error) with `expected`.
function(derive name expected)
  set(root ${work}/${name})
  file(WRITE ${work}/${name}.cmake
       "cmake_minimum_required(VERSION 3.25)\n"
       "include(${SOURCE}/cmake/BookChapters.cmake)\n"
       "book_read_chapters(${root}/book/book.yaml stems)\n"
       "book_chapter_label(alpha \"\${stems}\" alpha)\n"
       "book_chapter_label(beta \"\${stems}\" beta)\n"
       "book_exercise_stems(${root}/exercises \"\${stems}\" exercises)\n"
       "set(targets \"\")\n"
       "foreach(stem IN LISTS exercises)\n"
       "  book_chapter_number(\${stem} nn)\n"
       "  list(APPEND targets run_exercise_\${nn})\n"
       "endforeach()\n"
       "foreach(stem IN LISTS stems)\n"
       "  book_check_tests_attributes(${root} \${stem} \"\${targets}\")\n"
       "endforeach()\n"
       "message(\"alpha=\${alpha} beta=\${beta} exercises=\${exercises} \"\n"
       "        \"targets=\${targets}\")\n")
  run_and_expect()
endfunction()

tiny_book(alpha-first 01 02 02-beta 01 02)
derive(alpha-first
  "alpha=ch01 beta=ch02 exercises=02-beta targets=run_exercise_02")
tiny_book(beta-first 02 01 01-beta 02 01)
derive(beta-first
  "alpha=ch02 beta=ch01 exercises=01-beta targets=run_exercise_01")

# What a renumbering that forgot a file reports.
tiny_book(stale-exercise 02 01 02-beta 02 01)
derive(stale-exercise
  "exercises/02-beta: book/book.yaml lists no chapter 02-beta; its chapter is 01-beta: rename it exercises/01-beta")
tiny_book(stale-target 02 01 01-beta 02 02)
derive(stale-target
  "chapters/01-beta.md:3: tests=\"cmake --build build --target run_exercise_02\" names the target 'run_exercise_02', which no exercise defines (known targets: run_exercise_01)")
tiny_book(stale-label 02 01 01-beta 01 01)
derive(stale-label
  "chapters/02-alpha.md:3: tests=\"ctest -L ch01\" names the label 'ch01', not this chapter's 'ch02'")
tiny_book(other-target 01 02 02-beta 01 02)
file(WRITE ${work}/other-target/exercises/01-alpha/starter.cpp "")
file(WRITE ${work}/other-target/chapters/02-beta.md
     "::: {.implement tests=\"cmake --build build --target run_exercise_01\"}\n")
derive(other-target
  "chapters/02-beta.md:1: tests=\"cmake --build build --target run_exercise_01\" names the target 'run_exercise_01', not this chapter's 'run_exercise_02' (known targets: run_exercise_01, run_exercise_02)")
tiny_book(own-cmakelists 01 02 02-beta 01 02)
file(WRITE ${work}/own-cmakelists/exercises/02-beta/CMakeLists.txt
     "add_book_exercise(02)\n")
derive(own-cmakelists
  "exercises/02-beta/CMakeLists.txt: an exercise has no CMakeLists.txt")
# A cut-down book without beta (and without its exercise).
tiny_book(unknown-slug 01 02 02-beta 01 02)
file(WRITE ${work}/unknown-slug/book/book.yaml
     "${head}    chapters:\n      - 01-alpha\n")
file(REMOVE_RECURSE ${work}/unknown-slug/exercises/02-beta)
derive(unknown-slug "alpha=ch01 beta= exercises=")

# ---- a unit test file names its chapter by slug -------------------------
# The same test file, tagged [beta], belongs to 03-beta in one book and to
# 05-beta after a renumbering; a tag that names no chapter of book.yaml
# (the old [chNN] form, a renamed chapter), a file whose tags name two
# chapters, and a file without tags stop the configure, naming the file.
set(unit_text [=[
TEST_CASE("beta's first case", "[beta]") {
  CHECK(to_string(v) == "[0]");
}
TEST_CASE("beta's second case, whose name is long enough to wrap",
          "[beta][topic]") {
  REQUIRE(shape == "[2,3]");
}
]=])

# Writes TEXT as the test file ${work}/NAME/test_beta.cpp, runs
# book_test_chapter on it with the stems of the tiny book BOOK and
# compares what it prints (the stem, or the error) with `expected`.
function(test_chapter name book text expected)
  set(root ${work}/${book})
  set(file ${work}/${name}/tests/unit/test_beta.cpp)
  file(WRITE ${file} "${text}")
  file(WRITE ${work}/${name}.cmake
       "cmake_minimum_required(VERSION 3.25)\n"
       "include(${SOURCE}/cmake/BookChapters.cmake)\n"
       "book_read_chapters(${root}/book/book.yaml stems)\n"
       "book_test_chapter(${file} \"\${stems}\" stem)\n"
       "message(\"chapter: \${stem}\")\n")
  run_and_expect()
endfunction()

tiny_book(unit-03 01 03 03-beta 01 03)
test_chapter(unit-03 unit-03 "${unit_text}" "chapter: 03-beta")
tiny_book(unit-05 01 05 05-beta 01 05)
test_chapter(unit-05 unit-05 "${unit_text}" "chapter: 05-beta")
string(REPLACE "[beta]\")" "[ch03]\")" numbered "${unit_text}")
test_chapter(unit-numbered unit-03 "${numbered}"
  "test_beta.cpp: a test case's first tag must be its chapter's slug, [slug] for a chapter NN-slug of book/book.yaml; [ch03] is no chapter's slug (in 'TEST_CASE(\"beta's first case\", \"[ch03]\") {')")
tiny_book(unit-renamed 01 05 05-gamma 01 05)
file(RENAME ${work}/unit-renamed/chapters/05-beta.md
     ${work}/unit-renamed/chapters/05-gamma.md)
file(WRITE ${work}/unit-renamed/book/book.yaml
     "${head}    chapters:\n      - 01-alpha\n      - 05-gamma\n")
test_chapter(unit-renamed unit-renamed "${unit_text}"
  "test_beta.cpp: a test case's first tag must be its chapter's slug, [slug] for a chapter NN-slug of book/book.yaml; [beta] is no chapter's slug")
string(REPLACE "[beta][topic]" "[alpha]" two "${unit_text}")
test_chapter(unit-two unit-03 "${two}"
  "test_beta.cpp: its test cases must carry one chapter's slug as their first tag, [slug] for a chapter NN-slug of book/book.yaml (found 2 chapters' tags: [beta][alpha])")
string(REPLACE "[beta][topic]" "[beta][alpha]" extra "${unit_text}")
test_chapter(unit-extra unit-03 "${extra}"
  "(found 2 chapters' tags: [beta][alpha])")
test_chapter(unit-untagged unit-03 "int main() {}\n"
  "test_beta.cpp: its test cases must carry one chapter's slug as their first tag, [slug] for a chapter NN-slug of book/book.yaml (found no test case with tags \"[...]\") {)")

# ---- no chapter number written into the build ---------------------------
# The build's CMake files name chapters through the list (above); a
# chapter number or stem written into one of them again, or a slug that
# is no chapter of book/book.yaml, is reported here with its file and
# line.
include(${SOURCE}/cmake/BookChapters.cmake)
book_read_chapters(${SOURCE}/book/book.yaml book_stems)
file(GLOB cmake_files RELATIVE ${SOURCE}
     ${SOURCE}/CMakeLists.txt ${SOURCE}/cmake/*.cmake
     ${SOURCE}/exercises/*.cmake ${SOURCE}/exercises/CMakeLists.txt
     ${SOURCE}/src/CMakeLists.txt ${SOURCE}/tools/CMakeLists.txt
     ${SOURCE}/tests/CMakeLists.txt ${SOURCE}/tests/*/CMakeLists.txt)
set(numbered "(ch|exercise_|add_book_exercise\\()[0-9][0-9]|[0-9][0-9]r?-[a-z]")
foreach(file IN LISTS cmake_files)
  file(STRINGS ${SOURCE}/${file} lines)
  set(at 0)
  foreach(line IN LISTS lines)
    math(EXPR at "${at} + 1")
    string(REGEX REPLACE "#.*$" "" code "${line}")
    if(code MATCHES "${numbered}")
      message(SEND_ERROR "${file}:${at}: '${CMAKE_MATCH_0}' names a chapter "
              "by number; name it by slug (book_chapter_label, "
              "cmake/BookChapters.cmake)")
      math(EXPR failures "${failures} + 1")
    endif()
    if(code MATCHES "book_chapter_label\\(([a-z0-9-]+)")
      set(slug ${CMAKE_MATCH_1})
      book_chapter_label(${slug} "${book_stems}" label)
      if(label STREQUAL "")
        message(SEND_ERROR "${file}:${at}: '${slug}' is the slug "
                "of no chapter of book/book.yaml")
        math(EXPR failures "${failures} + 1")
      endif()
    endif()
  endforeach()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} case(s) of cmake/BookChapters.cmake failed")
endif()
message(STATUS "cmake/BookChapters.cmake: every case as expected")
