// What the text-units chapter's exercise asks for: a UTF-8 decoder. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <string>
#include <string_view>

#include "llm/error.hpp"

namespace exercise {

/// The code points of UTF-8 `bytes`, as llm::decode_utf8: a lead byte
/// 0xxxxxxx, 110xxxxx, 1110xxxx or 11110xxx announces 1 to 4 bytes, each
/// following byte is a continuation 10xxxxxx carrying 6 more bits, and a
/// code point must use its shortest form. Throws llm::EncodingError for
/// an invalid lead byte, a missing continuation byte (or the text ending
/// inside a sequence) and an overlong form. (Surrogates and values above
/// U+10FFFF are rejected by the book too; the tests do not ask for it.)
std::u32string decode_utf8(std::string_view bytes);

}  // namespace exercise
