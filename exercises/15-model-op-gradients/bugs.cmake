# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the one-hot put at column i instead of the row's target")
set(BUG_1_WRONG [=[g[i * v + i]]=])
set(BUG_1_RIGHT [=[g[i * v + targets[i]]]=])

set(BUG_2_NAME "the one-hot added instead of subtracted")
set(BUG_2_WRONG [=[ += 1.0;  // the one-hot]=])
set(BUG_2_RIGHT [=[ -= 1.0;  // the one-hot]=])

set(BUG_3_NAME "not divided by N: the gradient of the sum, not the mean")
set(BUG_3_WRONG [=[
  return Tensor({n, v}, std::move(g));
]=])
set(BUG_3_RIGHT [=[
  for (double& x : g) x /= static_cast<double>(n);  // the loss is a mean
  return Tensor({n, v}, std::move(g));
]=])
