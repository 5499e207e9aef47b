# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the sum carried over from the previous element")
set(BUG_1_WRONG [=[
  double sum = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      for]=])
set(BUG_1_RIGHT [=[
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for]=])

set(BUG_2_NAME "a read with its indices transposed")
set(BUG_2_WRONG [=[sum += av[p * m + i] *]=])
set(BUG_2_RIGHT [=[sum += av[i * k + p] *]=])

set(BUG_3_NAME "b's row stride k instead of n")
set(BUG_3_WRONG [=[* bv[p * k + j];]=])
set(BUG_3_RIGHT [=[* bv[p * n + j];]=])
