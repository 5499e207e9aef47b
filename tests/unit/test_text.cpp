// Tests for chapter text-units: UTF-8 decoding of bytes encoded by hand
// from the table of byte patterns, encoding back, every malformed case
// with its own message, and the code-point vocabulary with its unknown
// id. Uses only what chapters up to it define.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "llm/error.hpp"
#include "llm/text.hpp"

namespace {

// Bytes written as numbers, so that each test shows exactly which bytes
// it feeds the decoder.
std::string bytes(std::initializer_list<unsigned> values) {
  std::string s;
  for (unsigned v : values) s.push_back(static_cast<char>(v));
  return s;
}

}  // namespace

TEST_CASE("decode_utf8 reads one code point of each length",
          "[text-units]") {
  // 'A' = 0x41 fits 0xxxxxxx.
  CHECK(llm::decode_utf8(bytes({0x41})) == U"A");
  // U+00E9 = 00011 101001 -> 110 00011, 10 101001 = 0xC3 0xA9.
  CHECK(llm::decode_utf8(bytes({0xC3, 0xA9})) == std::u32string(1, 0xE9));
  // U+8A00 = 1000 101000 000000 -> 0xE8 0xA8 0x80.
  CHECK(llm::decode_utf8(bytes({0xE8, 0xA8, 0x80})) ==
        std::u32string(1, 0x8A00));
  // U+1F642 = 000 011111 011001 000010 -> 0xF0 0x9F 0x99 0x82.
  CHECK(llm::decode_utf8(bytes({0xF0, 0x9F, 0x99, 0x82})) ==
        std::u32string(1, 0x1F642));
  // The extremes of each length: U+007F, U+0080, U+07FF, U+0800, U+FFFF,
  // U+10000 and U+10FFFF, each from its bit pattern.
  CHECK(llm::decode_utf8(bytes({0x7F})) == std::u32string(1, 0x7F));
  CHECK(llm::decode_utf8(bytes({0xC2, 0x80})) == std::u32string(1, 0x80));
  CHECK(llm::decode_utf8(bytes({0xDF, 0xBF})) == std::u32string(1, 0x7FF));
  CHECK(llm::decode_utf8(bytes({0xE0, 0xA0, 0x80})) ==
        std::u32string(1, 0x800));
  CHECK(llm::decode_utf8(bytes({0xEF, 0xBF, 0xBF})) ==
        std::u32string(1, 0xFFFF));
  CHECK(llm::decode_utf8(bytes({0xF0, 0x90, 0x80, 0x80})) ==
        std::u32string(1, 0x10000));
  CHECK(llm::decode_utf8(bytes({0xF4, 0x8F, 0xBF, 0xBF})) ==
        std::u32string(1, 0x10FFFF));
  CHECK(llm::decode_utf8("").empty());
}

TEST_CASE("decode_one reports each sequence's length",
          "[text-units]") {
  // "aé言🙂": lengths 1, 2, 3, 4 at offsets 0, 1, 3, 6.
  const std::string s = bytes({0x61, 0xC3, 0xA9, 0xE8, 0xA8, 0x80, 0xF0,
                               0x9F, 0x99, 0x82});
  CHECK(llm::decode_one(s, 0).length == 1);
  CHECK(llm::decode_one(s, 1).length == 2);
  CHECK(llm::decode_one(s, 3).length == 3);
  CHECK(llm::decode_one(s, 6).length == 4);
  CHECK(llm::decode_one(s, 6).code_point == 0x1F642);
  CHECK(llm::count_code_points(s) == 4);
}

TEST_CASE("encode_utf8 inverts decode_utf8", "[text-units]") {
  const std::u32string cps = {0x41, 0xE9, 0x8A00, 0x1F642, 0x7F, 0x80,
                              0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF};
  const std::string utf8 = llm::encode_utf8(cps);
  // Byte count from the length table: 1 + 2 + 3 + 4 + 1 + 2 + 2 + 3 + 3
  // + 4 + 4 = 29.
  CHECK(utf8.size() == 29);
  CHECK(utf8.substr(1, 2) == bytes({0xC3, 0xA9}));
  CHECK(utf8.substr(3, 3) == bytes({0xE8, 0xA8, 0x80}));
  CHECK(utf8.substr(6, 4) == bytes({0xF0, 0x9F, 0x99, 0x82}));
  CHECK(llm::decode_utf8(utf8) == cps);
  // Every code point below U+D800 and a sample above the surrogates
  // round-trip, and each length agrees with utf8_length.
  for (char32_t c = 0; c < 0x11000; c += (c < 0x800 ? 1 : 7)) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    const std::string one = llm::encode_utf8(std::u32string(1, c));
    REQUIRE(one.size() == llm::utf8_length(c));
    REQUIRE(llm::decode_utf8(one) == std::u32string(1, c));
  }
}

TEST_CASE("code_point_name writes U+ and at least four hex digits",
          "[text-units]") {
  CHECK(llm::code_point_name(0x41) == "U+0041");
  CHECK(llm::code_point_name(0xE9) == "U+00E9");
  CHECK(llm::code_point_name(0x1F642) == "U+1F642");
}

TEST_CASE("an invalid lead byte is rejected with its offset",
          "[text-units]") {
  // A continuation byte where a sequence must start, after "ab".
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0x61, 0x62, 0xA9})), llm::EncodingError,
      Catch::Matchers::Message("decode_utf8: byte 2: invalid lead byte 0xa9"));
  // 0xFF fits no pattern.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0xFF})), llm::EncodingError,
      Catch::Matchers::Message("decode_utf8: byte 0: invalid lead byte 0xff"));
}

TEST_CASE("a truncated sequence is rejected", "[text-units]") {
  // A three-byte lead with one continuation byte, at the end of the text.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0x61, 0xE8, 0xA8})), llm::EncodingError,
      Catch::Matchers::Message("decode_utf8: byte 1: truncated sequence: 0xe8 "
                               "starts 3 bytes, the text ends after 2"));
  // A two-byte lead followed by an ASCII byte.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0xC3, 0x41})), llm::EncodingError,
      Catch::Matchers::Message("decode_utf8: byte 0: truncated sequence: 0xc3 "
                               "starts 2 bytes, byte 1 is 0x41, not a "
                               "continuation byte"));
}

TEST_CASE("an overlong encoding is rejected", "[text-units]") {
  // 0xC1 0x81 = 110 00001, 10 000001 -> U+0041 in two bytes.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0xC1, 0x81})), llm::EncodingError,
      Catch::Matchers::Message("decode_utf8: byte 0: overlong encoding: "
                               "U+0041 in 2 bytes, its shortest form has 1"));
  // 0xE0 0x9F 0xBF = U+07FF in three bytes (its shortest form has 2);
  // 0xF0 0x8F 0xBF 0xBF = U+FFFF in four.
  CHECK_THROWS_WITH(llm::decode_utf8(bytes({0xE0, 0x9F, 0xBF})),
                    "decode_utf8: byte 0: overlong encoding: U+07FF in 3 "
                    "bytes, its shortest form has 2");
  CHECK_THROWS_WITH(llm::decode_utf8(bytes({0xF0, 0x8F, 0xBF, 0xBF})),
                    "decode_utf8: byte 0: overlong encoding: U+FFFF in 4 "
                    "bytes, its shortest form has 3");
}

TEST_CASE("a surrogate or a value above U+10FFFF is rejected",
          "[text-units]") {
  // 0xED 0xA0 0x80 = 1101 100000 000000 = U+D800.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0x41, 0xED, 0xA0, 0x80})), llm::EncodingError,
      Catch::Matchers::Message(
          "decode_utf8: byte 1: surrogate U+D800 is not a character"));
  // 0xF4 0x90 0x80 0x80 = 100 010000 000000 000000 = U+110000.
  CHECK_THROWS_MATCHES(
      llm::decode_utf8(bytes({0xF4, 0x90, 0x80, 0x80})), llm::EncodingError,
      Catch::Matchers::Message(
          "decode_utf8: byte 0: U+110000 is above U+10FFFF"));
  CHECK_THROWS_MATCHES(
      llm::encode_utf8(std::u32string{0x41, 0xDFFF}), llm::EncodingError,
      Catch::Matchers::Message("encode_utf8: code point 1 is U+DFFF, expected "
                               "a character (not a surrogate, at most "
                               "U+10FFFF)"));
  CHECK_THROWS_AS(llm::encode_utf8(std::u32string(1, 0x110000)),
                  llm::EncodingError);
  // Every error is an llm::Error.
  CHECK_THROWS_AS(llm::decode_utf8(bytes({0x80})), llm::Error);
}

TEST_CASE("a code-point vocabulary numbers the symbols of a text",
          "[text-units]") {
  // "banana": distinct code points a < b < n, so ids a=1, b=2, n=3 and
  // size 4 with the unknown id 0.
  const auto vocab = llm::CodePointVocab::from_text("banana");
  CHECK(vocab.size() == 4);
  CHECK(vocab.id_of(U'a') == 1);
  CHECK(vocab.id_of(U'b') == 2);
  CHECK(vocab.id_of(U'n') == 3);
  CHECK(vocab.encode("nab") == std::vector<int>{3, 1, 2});
  CHECK(vocab.decode({2, 1, 3, 1, 3, 1}) == "banana");
  CHECK(vocab.symbol(0) == llm::CodePointVocab::replacement);
}

TEST_CASE("a symbol the vocabulary lacks becomes the unknown id",
          "[text-units]") {
  const auto vocab = llm::CodePointVocab::from_text("banana");
  // "bañan": ñ (U+00F1) and nothing else is unknown.
  const std::vector<int> ids = vocab.encode("ba\u00f1an");
  CHECK(ids == std::vector<int>{2, 1, 0, 1, 3});
  // Decoding writes U+FFFD (0xEF 0xBF 0xBD) where ñ was.
  CHECK(vocab.decode(ids) == "ba\xef\xbf\xbd" "an");
}

TEST_CASE("a vocabulary keeps the order it was given",
          "[text-units]") {
  const llm::CodePointVocab vocab(U"zy\u00e9");
  CHECK(vocab.id_of(U'z') == 1);
  CHECK(vocab.id_of(U'y') == 2);
  CHECK(vocab.id_of(0xE9) == 3);
  CHECK(vocab.id_of(U'a') == llm::CodePointVocab::unknown_id);
}

TEST_CASE("bad vocabularies and bad ids are rejected",
          "[text-units]") {
  CHECK_THROWS_MATCHES(
      llm::CodePointVocab(U"abca"), llm::ConfigError,
      Catch::Matchers::Message("CodePointVocab: U+0061 appears twice (symbols "
                               "0 and 3), expected distinct symbols"));
  CHECK_THROWS_MATCHES(
      llm::CodePointVocab(std::u32string{U'a', 0xD800}), llm::ConfigError,
      Catch::Matchers::Message(
          "CodePointVocab: symbol 1 is U+D800, not a character"));
  const auto vocab = llm::CodePointVocab::from_text("ab");
  CHECK_THROWS_MATCHES(
      vocab.decode({1, 2, 3}), llm::IndexError,
      Catch::Matchers::Message("CodePointVocab::decode: id 3 at position 2, "
                               "expected 0 to 2"));
  CHECK_THROWS_MATCHES(
      vocab.symbol(-1), llm::IndexError,
      Catch::Matchers::Message(
          "CodePointVocab::symbol: id -1, expected 0 to 2"));
  // Malformed text is rejected before any id is produced.
  CHECK_THROWS_AS(vocab.encode(bytes({0x61, 0xC3})), llm::EncodingError);
  CHECK_THROWS_AS(llm::CodePointVocab::from_text(bytes({0xFF})),
                  llm::EncodingError);
}
