# Writes the starter with exactly one planted mistake left (bug_1.cpp,
# bug_2.cpp, ...) and with none (fixed.cpp), from STARTER into OUT_DIR.
# A mistake that sits in two or three places also has BUG_i_WRONG_2 and
# BUG_i_RIGHT_2 (and _3). If the starter no longer holds a mistake's text (a
# reader has edited it), writes OUT_DIR/status.txt saying so and copies
# the starter unchanged, so that the build still succeeds and the check
# reports it.
include(${BUGS})
file(READ ${STARTER} starter)
set(status "ok")
foreach(i RANGE 1 ${BUG_COUNT})
  foreach(part "" _2 _3)
    if(NOT DEFINED BUG_${i}_WRONG${part})
      continue()
    endif()
    string(FIND "${starter}" "${BUG_${i}_WRONG${part}}" at)
    if(at EQUAL -1)
      set(status "starter.cpp does not hold planted mistake ${i} (${BUG_${i}_NAME}): it has been edited; the check applies to the starter as shipped")
    endif()
  endforeach()
endforeach()
file(WRITE ${OUT_DIR}/status.txt "${status}\n")

foreach(keep RANGE 0 ${BUG_COUNT})  # keep = 0: every mistake fixed
  set(text "${starter}")
  if(status STREQUAL "ok")
    foreach(i RANGE 1 ${BUG_COUNT})
      if(i EQUAL keep)
        continue()
      endif()
      foreach(part "" _2 _3)
        if(DEFINED BUG_${i}_WRONG${part})
          string(REPLACE "${BUG_${i}_WRONG${part}}" "${BUG_${i}_RIGHT${part}}"
                 text "${text}")
        endif()
      endforeach()
    endforeach()
  endif()
  if(keep EQUAL 0)
    set(name fixed)
  else()
    set(name bug_${keep})
  endif()
  # Write only on change, so that an unchanged starter recompiles nothing.
  set(path ${OUT_DIR}/${name}.cpp)
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${path} "${text}")
  endif()
endforeach()
