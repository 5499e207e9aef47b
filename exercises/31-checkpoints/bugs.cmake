# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "a newer version is read as if it were version 1")
set(BUG_1_WRONG [=[if (version < 1) fail("unknown version");]=])
set(BUG_1_RIGHT [=[if (version != 1) fail("unknown version");]=])

set(BUG_2_NAME "each offset points at the section's head, not its payload")
set(BUG_2_WRONG [=[sections.push_back({std::string(tag), at, size});]=])
set(BUG_2_RIGHT [=[sections.push_back({std::string(tag), at + head_bytes, size});]=])

set(BUG_3_NAME "bytes between the last section and the checksum are accepted")
set(BUG_3_WRONG [=[if (at > end) fail("sections overlap the checksum");]=])
set(BUG_3_RIGHT [=[if (at != end) fail("bytes before the checksum");]=])
