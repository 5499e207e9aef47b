# The two mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 2)

set(BUG_1_NAME "silu written as the bare sigmoid")
set(BUG_1_WRONG [=[return 1.0 / (1.0 + std::exp(-z));]=])
set(BUG_1_RIGHT [=[return z / (1.0 + std::exp(-z));]=])

set(BUG_2_NAME "silu applied to the up projection instead of the gate")
set(BUG_2_WRONG [=[llm::mul(gate, llm::map(up, silu));]=])
set(BUG_2_RIGHT [=[llm::mul(llm::map(gate, silu), up);]=])
