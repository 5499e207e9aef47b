# The two mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 2)

set(BUG_1_NAME "the probe left at x - h: later coordinates are measured elsewhere")
set(BUG_1_WRONG [=[
    const double down = f(point);
    gradient[i]]=])
set(BUG_1_RIGHT [=[
    const double down = f(point);
    point[i] = x[i];  // back to x before the next coordinate
    gradient[i]]=])

set(BUG_2_NAME "the difference divided by h instead of 2h")
set(BUG_2_WRONG [=[(up - down) / h;]=])
set(BUG_2_RIGHT [=[(up - down) / (2.0 * h);]=])
