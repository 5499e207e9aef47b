# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the exponent -2k/d computed in integers: 0 for every pair")
set(BUG_1_WRONG [=[std::pow(base, -double(2 * k / d));]=])
set(BUG_1_RIGHT [=[std::pow(base, -2.0 * double(k) / double(d));]=])

set(BUG_2_NAME "feature k paired with k + d/2 instead of 2k with 2k + 1")
set(BUG_2_WRONG [=[first = k, second = k + pairs;]=])
set(BUG_2_RIGHT [=[first = 2 * k, second = 2 * k + 1;]=])

set(BUG_3_NAME "the angle's sign: rotated clockwise")
set(BUG_3_WRONG [=[
      out[at + first] = a * c + b * s;
      out[at + second] = b * c - a * s;
]=])
set(BUG_3_RIGHT [=[
      out[at + first] = a * c - b * s;
      out[at + second] = a * s + b * c;
]=])
