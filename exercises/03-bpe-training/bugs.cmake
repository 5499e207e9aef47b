# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the right token of a replaced pair is not skipped, so it is used twice")
set(BUG_1_WRONG [=[
      tokens[out++] = merged;
      ++replaced;]=])
set(BUG_1_RIGHT [=[
      tokens[out++] = merged;
      ++i;  // the right token is consumed too
      ++replaced;]=])

set(BUG_2_NAME "a pair counted once per distinct word, not once per occurrence of the word")
set(BUG_2_WRONG [=[counts[{w.tokens[i], w.tokens[i + 1]}] += 1;]=])
set(BUG_2_RIGHT [=[counts[{w.tokens[i], w.tokens[i + 1]}] += w.count;]=])

set(BUG_3_NAME "ties go to the largest pair: >= keeps the last of equal counts")
set(BUG_3_WRONG [=[if (count >= best_count) {]=])
set(BUG_3_RIGHT [=[if (count > best_count) {]=])
