# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the mask that hides the diagonal")
set(BUG_1_WRONG [=[return j >= i;]=])
set(BUG_1_RIGHT [=[return j > i;]=])

set(BUG_2_NAME "the future keys zeroed after the softmax")
set(BUG_2_WRONG [=[
      p[i * t + j] = std::exp(row[j] - m);
      total += p[i * t + j];
    }
    for (std::size_t j = 0; j < t; ++j) {
      p[i * t + j] = hidden(i, j) ? 0.0 : p[i * t + j] / total;
    }
]=])
set(BUG_2_RIGHT [=[
      p[i * t + j] = hidden(i, j) ? 0.0 : std::exp(row[j] - m);
      total += p[i * t + j];
    }
    for (std::size_t j = 0; j < t; ++j) p[i * t + j] /= total;
]=])

set(BUG_3_NAME "the shift taken over the future keys too")
set(BUG_3_WRONG [=[for (std::size_t j = 1; j < t; ++j) m = std::max(m, row[j]);]=])
set(BUG_3_RIGHT [=[for (std::size_t j = 1; j <= i; ++j) m = std::max(m, row[j]);]=])
