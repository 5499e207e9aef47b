# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the 8 bytes read little-endian: another number, other splits")
set(BUG_1_WRONG [=[h = h << 8 | digest[7 - j];]=])
set(BUG_1_RIGHT [=[h = h << 8 | digest[j];]=])

set(BUG_2_NAME "bucket 80 kept in train: 81 train buckets, 9 validation")
set(BUG_2_WRONG [=[if (bucket <= llm::train_buckets)]=])
set(BUG_2_RIGHT [=[if (bucket < llm::train_buckets)]=])

set(BUG_3_NAME "the split chosen from the text, so editing a document moves it")
set(BUG_3_WRONG [=[switch (split_of(d.text)) {]=])
set(BUG_3_RIGHT [=[switch (split_of(d.name)) {]=])
