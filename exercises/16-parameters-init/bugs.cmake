# The two mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 2)

set(BUG_1_NAME "one uniform used for both the radius and the angle")
set(BUG_1_WRONG [=[const double u2 = u1;]=])
set(BUG_1_RIGHT [=[const double u2 = rng.uniform();]=])

set(BUG_2_NAME "the radius without the factor 2: variance 1/2")
set(BUG_2_WRONG [=[std::sqrt(-std::log(1.0 - u1));]=])
set(BUG_2_RIGHT [=[std::sqrt(-2.0 * std::log(1.0 - u1));]=])
