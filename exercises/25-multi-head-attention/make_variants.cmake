# Writes the starter with exactly one planted mistake left (bug_1.cpp ..
# bug_3.cpp) and with none (fixed.cpp), from STARTER into OUT_DIR.
# If the starter no longer holds a mistake's text (a reader has edited
# it), writes OUT_DIR/status.txt saying so and copies the starter
# unchanged, so that the build still succeeds and the check reports it.
include(${BUGS})
file(READ ${STARTER} starter)
set(status "ok")
foreach(i RANGE 1 ${BUG_COUNT})
  string(FIND "${starter}" "${BUG_${i}_WRONG}" at)
  if(at EQUAL -1)
    set(status "starter.cpp does not hold planted mistake ${i} (${BUG_${i}_NAME}): it has been edited; the check applies to the starter as shipped")
  endif()
endforeach()
file(WRITE ${OUT_DIR}/status.txt "${status}\n")

foreach(keep RANGE 0 ${BUG_COUNT})  # keep = 0: every mistake fixed
  set(text "${starter}")
  if(status STREQUAL "ok")
    foreach(i RANGE 1 ${BUG_COUNT})
      if(NOT i EQUAL keep)
        string(REPLACE "${BUG_${i}_WRONG}" "${BUG_${i}_RIGHT}" text "${text}")
      endif()
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
