# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "documents appended to one stream: windows cross documents")
set(BUG_1_WRONG [=[ids.insert(ids.end(), doc.begin(), doc.end());]=])
set(BUG_1_RIGHT [=[ids = doc;]=])

set(BUG_2_NAME "the first target is n, not n - 1: each document's first window is lost")
set(BUG_2_WRONG [=[for (std::size_t t = order; t < ids.size(); ++t) {]=])
set(BUG_2_RIGHT [=[for (std::size_t t = order - 1; t < ids.size(); ++t) {]=])

set(BUG_3_NAME "the context is shifted by one: it holds the target itself")
set(BUG_3_WRONG [=[for (std::size_t k = t + 2 - order; k <= t; ++k) {]=])
set(BUG_3_RIGHT [=[for (std::size_t k = t + 1 - order; k < t; ++k) {]=])
