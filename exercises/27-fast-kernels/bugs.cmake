# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the last rows skipped when m is not a multiple of 4")
set(BUG_1_WRONG [=[for (std::size_t i0 = 0; i0 + 4 <= m; i0 += 4) {]=])
set(BUG_1_RIGHT [=[for (std::size_t i0 = 0; i0 < m; i0 += 4) {]=])

set(BUG_2_NAME "the tile's sums set to zero once per row of tiles, not once per tile")
set(BUG_2_WRONG [=[
    double acc[4][8] = {};  // the tile's sums, C[i0 + r][j0 + q]
    double rest[4][8] = {};
    for (std::size_t j0 = 0; j0 < n; j0 += 8) {
]=])
set(BUG_2_RIGHT [=[
    for (std::size_t j0 = 0; j0 < n; j0 += 8) {
      double acc[4][8] = {};  // the tile's sums, C[i0 + r][j0 + q]
      double rest[4][8] = {};
]=])

set(BUG_3_NAME "the sum over p split in two halves added at the end: other roundings")
set(BUG_3_WRONG [=[for (std::size_t p = 0; p < half; ++p) {]=])
set(BUG_3_RIGHT [=[for (std::size_t p = 0; p < k; ++p) {]=])
set(BUG_3_WRONG_2 [=[for (std::size_t p = half; p < k; ++p) {]=])
set(BUG_3_RIGHT_2 [=[for (std::size_t p = k; p < k; ++p) {]=])
# Fixed, the split point is no longer used: it goes too.
set(BUG_3_WRONG_3 [=[
  const std::size_t half = k / 2;
]=])
set(BUG_3_RIGHT_3 [=[
]=])
