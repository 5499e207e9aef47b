# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "windows T + 1 apart: the id between two windows is never a target")
set(BUG_1_WRONG [=[start += context + 1) {]=])
set(BUG_1_RIGHT [=[start += context) {]=])

set(BUG_2_NAME "the shorter last window dropped: the document's last targets are never scored")
set(BUG_2_WRONG [=[
    if (length < context) break;
]=])
set(BUG_2_RIGHT [=[
]=])

set(BUG_3_NAME "each target is its own input: the model is asked to copy, not to predict")
set(BUG_3_WRONG [=[w.targets.push_back(doc[start + t]);]=])
set(BUG_3_RIGHT [=[w.targets.push_back(doc[start + t + 1]);]=])
