# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the warm-up counts from 0: step 0 has a rate of zero")
set(BUG_1_WRONG [=[const double n = static_cast<double>(step);]=])
set(BUG_1_RIGHT [=[const double n = static_cast<double>(step + 1);]=])

set(BUG_2_NAME "the decay's progress does not subtract the warm-up")
set(BUG_2_WRONG [=[const double p = (static_cast<double>(step + 1)) /]=])
set(BUG_2_RIGHT [=[const double p = (static_cast<double>(step + 1 - s.warmup)) /]=])

set(BUG_3_NAME "each vector clipped by its own norm, not the global one")
set(BUG_3_WRONG [=[
  for (std::vector<double>& g : grads) {
    double own = 0.0;
    for (double x : g) own += x * x;
    const double scale = max_norm / std::sqrt(own);
    if (scale < 1.0) {
      for (double& x : g) x *= scale;
    }
  }
]=])
set(BUG_3_RIGHT [=[
  if (norm > max_norm) {
    const double scale = max_norm / norm;
    for (std::vector<double>& g : grads) {
      for (double& x : g) x *= scale;
    }
  }
]=])
