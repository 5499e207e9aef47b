# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the query rotated as if the new token sat at position 0")
set(BUG_1_WRONG [=[rotate(q, rope, 0);]=])
set(BUG_1_RIGHT [=[rotate(q, rope, t);]=])

set(BUG_2_NAME "the key cache overwritten instead of appended to")
set(BUG_2_WRONG [=[cache.keys.assign(1, k);]=])
set(BUG_2_RIGHT [=[cache.keys.push_back(k);]=])

set(BUG_3_NAME "the new token attended twice: it is in the cache already")
set(BUG_3_WRONG [=[  scores.push_back(dot(q, k) * scale);
  rows.push_back(&v);
]=])
set(BUG_3_RIGHT "")
