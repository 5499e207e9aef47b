# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "each continuation byte shifted by 8 bits, though it carries 6")
set(BUG_1_WRONG [=[c = (c << 8) | (b & 0x3F);]=])
set(BUG_1_RIGHT [=[c = (c << 6) | (b & 0x3F);]=])

set(BUG_2_NAME "continuation bytes never checked: any byte is taken as one")
set(BUG_2_WRONG [=[
      const auto b = static_cast<unsigned char>(bytes[i + k]);
]=])
set(BUG_2_RIGHT [=[
      const auto b = static_cast<unsigned char>(bytes[i + k]);
      if ((b & 0xC0) != 0x80) {
        throw llm::EncodingError("decode_utf8: byte " + std::to_string(i + k) +
                                 " is not a continuation byte");
      }
]=])

set(BUG_3_NAME "overlong forms accepted: the shortest-form check is missing")
set(BUG_3_WRONG [=[(void)smallest;]=])
set(BUG_3_RIGHT [=[if (c < smallest) {
      throw llm::EncodingError("decode_utf8: overlong form at " + std::to_string(i));
    }]=])
