# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "shapes aligned at their first axes instead of their last")
set(BUG_1_WRONG [=[
    const std::size_t ak = k < a.size() ? a[k] : 1;
    const std::size_t bk = k < b.size() ? b[k] : 1;
]=])
set(BUG_1_RIGHT [=[
    const std::size_t ak = k + a.size() >= rank ? a[k + a.size() - rank] : 1;
    const std::size_t bk = k + b.size() >= rank ? b[k + b.size() - rank] : 1;
]=])

set(BUG_2_NAME "only a's extent 1 may stretch, not b's")
set(BUG_2_WRONG [=[if (ak != bk && ak != 1) return std::nullopt;]=])
set(BUG_2_RIGHT [=[if (ak != bk && ak != 1 && bk != 1) return std::nullopt;]=])

set(BUG_3_NAME "the larger extent taken, so 1 does not stretch to 0")
set(BUG_3_WRONG [=[shape[k] = std::max(ak, bk);]=])
set(BUG_3_RIGHT [=[shape[k] = ak == 1 ? bk : ak;]=])
