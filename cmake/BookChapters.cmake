# The book's chapters, in order, from the one place that lists them:
# book/book.yaml. The build, the snapshots and the unit tests' chapters
# all derive from BOOK_STEMS.
#
# book.yaml lists each part's chapters as a block sequence, one "- STEM"
# per line under "chapters:" (litbook reads the whole file and checks the
# rest of it). A chapters: key whose items this reading cannot see, or a
# listed chapter without its file, stops the configure here, naming the
# line, so that CMake and litbook never disagree about the chapters.

# Sets `out_var` to the stems book.yaml lists, in order.
function(book_read_chapters yaml out_var)
  file(STRINGS ${yaml} lines)
  set(stems "")
  set(number 0)
  set(in_list FALSE)  # inside a part's chapters: sequence
  set(open "")        # the line of a chapters: key that has no item yet
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "^[ ]*chapters:[ ]*(.*)$")
      if(NOT "${CMAKE_MATCH_1}" STREQUAL "")
        message(FATAL_ERROR "${yaml}:${number}: write a part's chapters one "
                "per line (\"- STEM\"), not as '${CMAKE_MATCH_1}'")
      endif()
      set(in_list TRUE)
      set(open ${number})
    elseif(line MATCHES "^[ ]*- ([0-9][0-9]r?-[a-z0-9-]+)[ ]*$")
      if(NOT in_list)
        message(FATAL_ERROR "${yaml}:${number}: a chapter item outside a "
                "part's chapters: list")
      endif()
      list(APPEND stems ${CMAKE_MATCH_1})
      set(open "")
    elseif(NOT line MATCHES "^[ ]*(#.*)?$")
      if(NOT open STREQUAL "")
        message(FATAL_ERROR "${yaml}:${open}: chapters: is followed by "
                "'${line}', not by a chapter item (\"- NN-slug\")")
      endif()
      set(in_list FALSE)
    endif()
  endforeach()
  if(NOT open STREQUAL "")
    message(FATAL_ERROR "${yaml}:${open}: chapters: lists no chapter")
  endif()
  set(${out_var} ${stems} PARENT_SCOPE)
endfunction()

# Sets `out_var` to the stem of the chapter a unit test file belongs to.
# Every test case's tags begin with its chapter's slug, the stem without
# its number ("[batches-adamw]" while book.yaml lists 19-batches-adamw),
# and may go on with tags of its own ("[batches-adamw][adamw]"); so a
# renumbering leaves the test files alone. A test case's tags are the
# string before its body: `"[...]...") {`. A first tag that is no chapter's
# slug (a renamed chapter, a missing tag), or a file whose tags name two
# chapters or none, stops the configure, naming the file.
function(book_test_chapter file stems out_var)
  set(tag_string "\"(\\[[^]\"]+\\])+\"\\)[ ]*\\{")
  file(STRINGS ${file} lines REGEX "${tag_string}")
  set(slugs "")
  foreach(stem IN LISTS stems)
    string(REGEX REPLACE "^[0-9][0-9]r?-" "" slug ${stem})
    list(APPEND slugs ${slug})
  endforeach()
  set(found "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "${tag_string}" tags "${line}")
    string(REGEX MATCHALL "\\[[^]\"]+\\]" tags "${tags}")
    list(GET tags 0 first)
    string(REGEX REPLACE "^\\[(.*)\\]$" "\\1" first "${first}")
    if(NOT first IN_LIST slugs)
      message(FATAL_ERROR "${file}: a test case's first tag must be its "
              "chapter's slug, [slug] for a chapter NN-slug of "
              "book/book.yaml; [${first}] is no chapter's slug (in '${line}')")
    endif()
    foreach(tag IN LISTS tags)
      string(REGEX REPLACE "^\\[(.*)\\]$" "\\1" tag "${tag}")
      if(tag IN_LIST slugs)
        list(APPEND found ${tag})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES found)
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    string(REPLACE ";" "][" named "${count} chapters' tags: [${found}]")
    if(count EQUAL 0)
      set(named "no test case with tags \"[...]\") {")
    endif()
    message(FATAL_ERROR "${file}: its test cases must carry one chapter's "
            "slug as their first tag, [slug] for a chapter NN-slug of "
            "book/book.yaml (found ${named})")
  endif()
  foreach(stem IN LISTS stems)
    if(stem MATCHES "^[0-9][0-9]r?-${found}$")
      set(${out_var} ${stem} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# ---- names derived from the list ----------------------------------------
# A chapter's number lives in its stem only. Labels (chNN), demo targets
# and exercise targets (run_exercise_NN) are computed from the stem, and a
# test names its chapter by slug, so renumbering a chapter is book.yaml and
# the file names.

# Sets `out_var` to chapter STEM's number as labels and targets spell it:
# "07" for 07-tensor-storage, "26r" for 26r-attention-review.
function(book_chapter_number stem out_var)
  string(REGEX MATCH "^[0-9][0-9]r?" number ${stem})
  set(${out_var} ${number} PARENT_SCOPE)
endfunction()

# Sets `out_var` to the CTest label of the chapter whose slug (its stem
# without the number) is SLUG: "ch19" for batches-adamw while book.yaml
# lists 19-batches-adamw. Empty when book.yaml lists no such chapter, as
# in a cut-down copy of the book (tools/failure-keeps-book-test.sh); the
# tool test tool-book-chapters requires every slug the build's CMake
# files name to be a chapter of the book.
function(book_chapter_label slug stems out_var)
  set(${out_var} "" PARENT_SCOPE)
  foreach(stem IN LISTS stems)
    if(stem MATCHES "^([0-9][0-9]r?)-${slug}$")
      set(${out_var} ch${CMAKE_MATCH_1} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# Sets `out_var` to the stems, in book order, that have an exercise:
# a directory DIR/STEM/ (DIR is exercises/). A directory there that is no
# chapter book.yaml lists stops the configure, naming the chapter that has
# its slug; so does an exercise's own CMakeLists.txt, since
# exercises/CMakeLists.txt adds every exercise from this list.
function(book_exercise_stems dir stems out_var)
  set(watch CONFIGURE_DEPENDS)  # a new directory reconfigures
  if(CMAKE_SCRIPT_MODE_FILE)
    set(watch "")
  endif()
  file(GLOB entries LIST_DIRECTORIES true RELATIVE ${dir} ${watch} ${dir}/*)
  foreach(name IN LISTS entries)
    if(NOT IS_DIRECTORY ${dir}/${name})
      continue()
    endif()
    if(NOT name IN_LIST stems)
      string(REGEX REPLACE "^[0-9][0-9]r?-" "" slug ${name})
      set(hint "")
      foreach(stem IN LISTS stems)
        if(stem MATCHES "^[0-9][0-9]r?-${slug}$")
          set(hint "; its chapter is ${stem}: rename it exercises/${stem}")
        endif()
      endforeach()
      message(FATAL_ERROR "exercises/${name}: book/book.yaml lists no "
              "chapter ${name}${hint}")
    endif()
    if(EXISTS ${dir}/${name}/CMakeLists.txt)
      message(FATAL_ERROR "exercises/${name}/CMakeLists.txt: an exercise "
              "has no CMakeLists.txt; exercises/CMakeLists.txt adds "
              "exercises/STEM/ for every chapter book/book.yaml lists")
    endif()
  endforeach()
  set(found "")
  foreach(stem IN LISTS stems)
    if(IS_DIRECTORY ${dir}/${stem})
      list(APPEND found ${stem})
    endif()
  endforeach()
  set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# Checks the `tests="COMMAND"` attributes of chapters/STEM.md (SOURCE is
# the book's root). A command that names a build target
# (`--target NAME`) must name the chapter's own exercise target, one of
# `targets`; one that names a CTest label (`-L NAME`) must name the
# chapter's own label. Anything else is left alone.
function(book_check_tests_attributes source stem targets)
  book_chapter_number(${stem} number)
  set(file chapters/${stem}.md)
  file(STRINGS ${source}/${file} lines REGEX "tests=\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "tests=\"[^\"]*\"" attributes "${line}")
    foreach(attribute IN LISTS attributes)
      set(problem "")
      if(attribute MATCHES "--target[ =]([^ \"]+)")
        set(name ${CMAKE_MATCH_1})
        set(own run_exercise_${number})
        string(REPLACE ";" ", " known "${targets}")
        if(NOT name IN_LIST targets)
          string(CONCAT problem "names the target '${name}', which no "
                 "exercise defines (known targets: ${known})")
        elseif(NOT name STREQUAL own)
          string(CONCAT problem "names the target '${name}', not this "
                 "chapter's '${own}' (known targets: ${known})")
        endif()
      elseif(attribute MATCHES "-L[ =]([^ \"]+)")
        if(NOT CMAKE_MATCH_1 STREQUAL "ch${number}")
          string(CONCAT problem "names the label '${CMAKE_MATCH_1}', not "
                 "this chapter's 'ch${number}'")
        endif()
      endif()
      if(NOT problem STREQUAL "")
        _book_line_of(${source}/${file} "${attribute}" at)
        message(FATAL_ERROR "${file}:${at}: ${attribute} ${problem}")
      endif()
    endforeach()
  endforeach()
endfunction()

# Sets `out_var` to the line of FILE that first holds TEXT.
function(_book_line_of file text out_var)
  file(READ ${file} content)
  string(FIND "${content}" "${text}" at)
  string(SUBSTRING "${content}" 0 ${at} before)
  string(REGEX MATCHALL "\n" breaks "${before}")
  list(LENGTH breaks count)
  math(EXPR line "${count} + 1")
  set(${out_var} ${line} PARENT_SCOPE)
endfunction()
