# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "attention's output added to the normalised copy, not the stream")
set(BUG_1_WRONG [=[const Var h = llm::add(norm1, attention.out);]=])
set(BUG_1_RIGHT [=[const Var h = llm::add(x, attention.out);]=])

set(BUG_2_NAME "the second norm reads the block's input instead of h")
set(BUG_2_WRONG [=[llm::rms_norm(x, w.norm2_gain, config.eps);]=])
set(BUG_2_RIGHT [=[llm::rms_norm(h, w.norm2_gain, config.eps);]=])

set(BUG_3_NAME "the feed-forward output added to the normalised h")
set(BUG_3_WRONG [=[llm::add(norm2, ffn)};]=])
set(BUG_3_RIGHT [=[llm::add(h, ffn)};]=])
