# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "ties ranked by the higher id")
set(BUG_1_WRONG [=[(prob[a] == prob[b] && a > b)]=])
set(BUG_1_RIGHT [=[(prob[a] == prob[b] && a < b)]=])

set(BUG_2_NAME "stops when the mass exceeds p instead of reaching it")
set(BUG_2_WRONG [=[if (running > p) {]=])
set(BUG_2_RIGHT [=[if (running >= p) {]=])

set(BUG_3_NAME "divides by the mass of every token (renormalising before the cut)")
set(BUG_3_WRONG [=[for (std::size_t i = 0; i < n; ++i) mass += prob[order[i]];]=])
set(BUG_3_RIGHT [=[for (std::size_t i = 0; i < keep; ++i) mass += prob[order[i]];]=])
