# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "scores divided by d_k instead of sqrt(d_k)")
set(BUG_1_WRONG [=[dot / static_cast<double>(dk);]=])
set(BUG_1_RIGHT [=[dot / std::sqrt(static_cast<double>(dk));]=])

set(BUG_2_NAME "the softmax taken down each column (over queries)")
set(BUG_2_WRONG [=[
  for (std::size_t j = 0; j < t; ++j) {
    double m = s[j];
    for (std::size_t i = 1; i < t; ++i) m = std::max(m, s[i * t + j]);
    double total = 0.0;
    for (std::size_t i = 0; i < t; ++i) {
      s[i * t + j] = std::exp(s[i * t + j] - m);
      total += s[i * t + j];
    }
    for (std::size_t i = 0; i < t; ++i) s[i * t + j] /= total;
  }
]=])
set(BUG_2_RIGHT [=[
  for (std::size_t i = 0; i < t; ++i) {
    double m = s[i * t];
    for (std::size_t j = 1; j < t; ++j) m = std::max(m, s[i * t + j]);
    double total = 0.0;
    for (std::size_t j = 0; j < t; ++j) {
      s[i * t + j] = std::exp(s[i * t + j] - m);
      total += s[i * t + j];
    }
    for (std::size_t j = 0; j < t; ++j) s[i * t + j] /= total;
  }
]=])

set(BUG_3_NAME "the weights read transposed, p[j][i] instead of p[i][j]")
set(BUG_3_WRONG [=[+= s[j * t + i] * v.at({j, c});]=])
set(BUG_3_RIGHT [=[+= s[i * t + j] * v.at({j, c});]=])
