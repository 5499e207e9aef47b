# The two mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 2)

set(BUG_1_NAME "a repeated id's gradient overwritten instead of added up")
set(BUG_1_WRONG [=[table[id * d + j] = ]=])
set(BUG_1_RIGHT [=[table[id * d + j] += ]=])

set(BUG_2_NAME "the gradient read from row id of grad_out instead of row r")
set(BUG_2_WRONG [=[grad_out.at({id, j});]=])
set(BUG_2_RIGHT [=[grad_out.at({r, j});]=])
