# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "each index times its axis's extent instead of its stride")
set(BUG_1_WRONG [=[at += index[i] * layout.shape[i];]=])
set(BUG_1_RIGHT [=[at += index[i] * layout.strides[i];]=])

set(BUG_2_NAME "transpose swaps the extents but not the strides")
set(BUG_2_WRONG [=[
  std::swap(view.shape[a], view.shape[b]);
]=])
set(BUG_2_RIGHT [=[
  std::swap(view.shape[a], view.shape[b]);
  std::swap(view.strides[a], view.strides[b]);
]=])

set(BUG_3_NAME "slice keeps the old offset: the view starts at coordinate 0, not begin")
set(BUG_3_WRONG [=[
  view.shape[axis] = end - begin;
]=])
set(BUG_3_RIGHT [=[
  view.shape[axis] = end - begin;
  view.offset += begin * layout.strides[axis];
]=])
