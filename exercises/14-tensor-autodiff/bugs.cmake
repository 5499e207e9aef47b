# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the gradients averaged over a broadcast axis instead of summed")
set(BUG_1_WRONG [=[const Tensor s = llm::mean(]=])
set(BUG_1_RIGHT [=[const Tensor s = llm::sum(]=])

set(BUG_2_NAME "the added axes taken from the end instead of the front")
set(BUG_2_WRONG [=[(out, out.rank() - 1);
    out = s.reshape(Shape(s.shape().begin(), s.shape().end() - 1));]=])
set(BUG_2_RIGHT [=[(out, 0);  // [1, ...]
    out = s.reshape(Shape(s.shape().begin() + 1, s.shape().end()));]=])

set(BUG_3_NAME "axis 0 skipped when summing stretched extent-1 axes")
set(BUG_3_WRONG [=[for (std::size_t axis = 1; axis < shape.size(); ++axis) {]=])
set(BUG_3_RIGHT [=[for (std::size_t axis = 0; axis < shape.size(); ++axis) {]=])
