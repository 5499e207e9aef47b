// The exercise tests of the text-units chapter. They call
// exercise::decode_utf8 (starter.cpp, once fixed) on the chapter's text
// and on malformed bytes. Each expected code point is worked out by hand
// in a comment: the lead byte's payload bits, then 6 bits per
// continuation byte.
#include <catch2/catch.hpp>

#include <string>

#include "exercise.hpp"

TEST_CASE("ASCII bytes are their own code points") {
  CHECK(exercise::decode_utf8("Cafe") == U"Cafe");
  CHECK(exercise::decode_utf8("").empty());
}

TEST_CASE("two, three and four bytes: 6 bits per continuation byte") {
  // C3 A9 = 110 00011, 10 101001: 00011 101001 = 0xE9, e with acute.
  CHECK(exercise::decode_utf8("\xC3\xA9") == std::u32string{0xE9});
  // E8 A8 80 = 1110 1000, 10 101000, 10 000000:
  // 1000 101000 000000 = 0x8A00.
  CHECK(exercise::decode_utf8("\xE8\xA8\x80") == std::u32string{0x8A00});
  // F0 9F 99 82 = 11110 000, 10 011111, 10 011001, 10 000010:
  // 000 011111 011001 000010 = 0x1F642, a slightly smiling face.
  CHECK(exercise::decode_utf8("\xF0\x9F\x99\x82") == std::u32string{0x1F642});
}

TEST_CASE("the chapter's text: 17 bytes, 9 code points") {
  // "Caf" e-acute " " U+8A00 U+8449 " " U+1F642 (葉 = E8 91 89:
  // 1000 010001 001001 = 0x8449).
  const std::u32string want = {'C', 'a', 'f', 0xE9, ' ', 0x8A00, 0x8449, ' ',
                               0x1F642};
  const std::string text = "Caf\xC3\xA9 \xE8\xA8\x80\xE8\x91\x89 \xF0\x9F\x99\x82";
  REQUIRE(text.size() == 17);
  CHECK(exercise::decode_utf8(text) == want);
}

TEST_CASE("a lead byte followed by something that is no continuation byte") {
  // C3 must be followed by 10xxxxxx; '(' = 0x28 = 00101000 is not one.
  // Taken as one, it would silently make U+00E8 out of "\xC3(".
  CHECK_THROWS_AS(exercise::decode_utf8("\xC3("), llm::EncodingError);
  CHECK_THROWS_AS(exercise::decode_utf8("\xE8\xA8" "A"), llm::EncodingError);
}

TEST_CASE("an overlong form is rejected") {
  // C0 AF = 110 00000, 10 101111 encodes 0x2F, '/', in two bytes; its
  // shortest form is one byte. Decoders that accept it let "/" slip past
  // filters that look for the byte 2F.
  CHECK_THROWS_AS(exercise::decode_utf8("\xC0\xAF"), llm::EncodingError);
  // E0 80 80 is U+0000 in three bytes.
  CHECK_THROWS_AS(exercise::decode_utf8("\xE0\x80\x80"), llm::EncodingError);
}

TEST_CASE("invalid lead bytes and a text that ends inside a sequence") {
  CHECK_THROWS_AS(exercise::decode_utf8("\x80"), llm::EncodingError);
  CHECK_THROWS_AS(exercise::decode_utf8("\xFF"), llm::EncodingError);
  CHECK_THROWS_AS(exercise::decode_utf8("\xE8\xA8"), llm::EncodingError);
}
