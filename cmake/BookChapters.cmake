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

# Sets `out_var` to the stem of the chapter a unit test file belongs to:
# the one [chNN] tag its test cases carry.
function(book_test_chapter file stems out_var)
  file(STRINGS ${file} tagged REGEX "\\[ch[0-9][0-9]r?\\]")
  set(numbers "")
  foreach(line IN LISTS tagged)
    string(REGEX MATCHALL "\\[ch[0-9][0-9]r?\\]" tags "${line}")
    foreach(tag IN LISTS tags)
      string(REGEX REPLACE "^\\[ch(.*)\\]$" "\\1" n ${tag})
      list(APPEND numbers ${n})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES numbers)
  list(LENGTH numbers count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${file}: its test cases must carry one chapter tag "
            "[chNN] (found ${count}: ${numbers})")
  endif()
  foreach(stem IN LISTS stems)
    if(stem MATCHES "^${numbers}-")
      set(${out_var} ${stem} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${file}: tag [ch${numbers}] names no chapter of "
          "book/book.yaml")
endfunction()
