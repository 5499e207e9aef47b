# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the running maximum starts at 0 instead of the first logit")
set(BUG_1_WRONG [=[double m = 0.0;]=])
set(BUG_1_RIGHT [=[double m = row[0];]=])

set(BUG_2_NAME "the max shift forgotten")
set(BUG_2_WRONG [=[p[i * n + j] = std::exp(row[j]);]=])
set(BUG_2_RIGHT [=[p[i * n + j] = std::exp(row[j] - m);]=])

set(BUG_3_NAME "normalised down each column instead of along each row")
set(BUG_3_WRONG [=[
  for (std::size_t j = 0; j < n; ++j) {
    double total = 0.0;
    for (std::size_t i = 0; i < r; ++i) total += p[i * n + j];
    for (std::size_t i = 0; i < r; ++i) p[i * n + j] /= total;
  }
]=])
set(BUG_3_RIGHT [=[
  for (std::size_t i = 0; i < r; ++i) {
    double total = 0.0;
    for (std::size_t j = 0; j < n; ++j) total += p[i * n + j];
    for (std::size_t j = 0; j < n; ++j) p[i * n + j] /= total;
  }
]=])
