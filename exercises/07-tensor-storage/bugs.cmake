# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "each stride includes its own axis's extent (off by one axis)")
set(BUG_1_WRONG [=[
    step *= shape[axis];
    strides[axis] = step;
]=])
set(BUG_1_RIGHT [=[
    strides[axis] = step;
    step *= shape[axis];
]=])

set(BUG_2_NAME "the offset ignored")
set(BUG_2_WRONG [=[std::size_t position = 0;]=])
set(BUG_2_RIGHT [=[std::size_t position = layout.offset;]=])

set(BUG_3_NAME "a coordinate equal to the extent accepted")
set(BUG_3_WRONG [=[if (index[axis] > shape[axis]) {]=])
set(BUG_3_RIGHT [=[if (index[axis] >= shape[axis]) {]=])
