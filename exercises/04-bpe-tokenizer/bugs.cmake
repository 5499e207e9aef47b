# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the leftmost pair with a merge wins instead of the merge learned first")
set(BUG_1_WRONG [=[if (it != rank.end() && best == none) {]=])
set(BUG_1_RIGHT [=[if (it != rank.end() && it->second < best) {]=])

set(BUG_2_NAME "merge i makes id i, not 256 + i: merged tokens collide with bytes")
set(BUG_2_WRONG [=[static_cast<llm::TokenId>(best);]=])
set(BUG_2_RIGHT [=[static_cast<llm::TokenId>(llm::byte_token_count + best);]=])

set(BUG_3_NAME "bytes read through a signed char: bytes >= 0x80 become huge ids")
set(BUG_3_WRONG [=[for (char b : word)]=])
set(BUG_3_RIGHT [=[for (unsigned char b : word)]=])
