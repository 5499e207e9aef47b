# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "a document of exactly T ids counted: length - T - 1 wraps around below zero")
set(BUG_1_WRONG [=[if (length < t) return 0;]=])
set(BUG_1_RIGHT [=[if (length <= t) return 0;]=])

set(BUG_2_NAME "windows of T ids, not T + 1: the last window has no target for its last input")
set(BUG_2_WRONG [=[return (length - t) / s + 1;]=])
set(BUG_2_RIGHT [=[return (length - t - 1) / s + 1;]=])

set(BUG_3_NAME "the window's number used as its start: the stride forgotten")
set(BUG_3_WRONG [=[if (left < n) return {d, left};]=])
set(BUG_3_RIGHT [=[if (left < n) return {d, left * config.stride};]=])
