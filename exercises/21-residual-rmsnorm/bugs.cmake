# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the mean of the numbers instead of the mean of their squares")
set(BUG_1_WRONG [=[total += row[j];]=])
set(BUG_1_RIGHT [=[total += row[j] * row[j];]=])

set(BUG_2_NAME "epsilon added outside the square root")
set(BUG_2_WRONG [=[std::sqrt(mean_square) + eps;]=])
set(BUG_2_RIGHT [=[std::sqrt(mean_square + eps);]=])

set(BUG_3_NAME "the gain indexed by the row instead of the feature")
set(BUG_3_WRONG [=[gain.at({i});]=])
set(BUG_3_RIGHT [=[gain.at({j});]=])
