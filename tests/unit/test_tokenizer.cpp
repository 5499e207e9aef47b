// Tests for chapter bpe-tokenizer: encoding worked out by hand, encoding
// against the plain rule (apply every merge in order), BOS/EOS, round
// trips on every byte value and on random byte strings and random UTF-8
// text, each malformed input with its own message, and the file: a
// bitwise save/load round trip and every bad file. Uses only what
// chapters up to it define.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "llm/bpe.hpp"
#include "llm/error.hpp"
#include "llm/tokenizer.hpp"
#include "message_of.hpp"
#include "splitmix.hpp"

namespace {

namespace fs = std::filesystem;
using llm::BpeMerges;
using llm::TokenId;
using llm::Tokenizer;
using Ids = std::vector<TokenId>;


// The merges the bpe-training tests work out by hand for "aaab aab":
// 256 = a a, 257 = ' ' 256, 258 = a b, 259 = 256 258, 260 = 257 b.
BpeMerges hand_merges() {
  return {{{97, 97, 3}, {32, 256, 1}, {97, 98, 1}, {256, 258, 1},
           {257, 98, 1}}};
}

// A text written for the project, with repeated words for merges to find.
const char* const story =
    "The kettle sang on the stove, and the cat sat by the kettle.\n"
    "Then the cat slept, and the kettle sang on, and on, and on.\n";

Tokenizer story_tokenizer() {
  return Tokenizer(llm::train_bpe({story}, 40));
}

// The plain rule: every merge, in the order learned, applied to every
// word with merge_pair.
Ids plain_encode(const BpeMerges& m, std::string_view text) {
  Ids out;
  for (std::string_view w : llm::split_words(text)) {
    Ids ids;
    for (unsigned char b : w) ids.push_back(b);
    for (std::size_t k = 0; k < m.merges.size(); ++k) {
      llm::merge_pair(ids, m.merges[k].left, m.merges[k].right,
                      256 + static_cast<TokenId>(k));
    }
    out.insert(out.end(), ids.begin(), ids.end());
  }
  return out;
}

// A fresh directory for one test's files, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "llm-tok-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string file(const char* name) const { return (path / name).string(); }
};

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The names in `dir`, sorted: a failed save leaves nothing behind.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// FNV-1a 64 written again here, to forge files with a valid checksum.
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
  return h;
}

void put_le(std::string& s, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

void reseal(std::string& file) {
  put_le(file, file.size() - 8, fnv1a(std::string_view(file).substr(
                                    0, file.size() - 8)), 8);
}

}  // namespace

TEST_CASE("ids: bytes, merges, then BOS and EOS", "[bpe-tokenizer]") {
  const Tokenizer t(hand_merges());
  CHECK(t.bos() == 261);  // 256 + 5
  CHECK(t.eos() == 262);
  CHECK(t.vocab_size() == 263);
  CHECK(t.token_bytes(65) == "A");
  CHECK(t.token_bytes(256) == "aa");
  CHECK(t.token_bytes(257) == " aa");
  CHECK(t.token_bytes(258) == "ab");
  CHECK(t.token_bytes(259) == "aaab");
  CHECK(t.token_bytes(260) == " aab");
  CHECK(t.token_bytes(t.bos()).empty());
  CHECK(t.token_bytes(t.eos()).empty());
  const Tokenizer none(BpeMerges{});
  CHECK(none.vocab_size() == 258);
  CHECK(none.bos() == 256);
}

TEST_CASE("encode: worked out by hand", "[bpe-tokenizer]") {
  const Tokenizer t(hand_merges());
  // The training text becomes one token per word.
  CHECK(t.encode("aaab aab") == Ids{259, 260});
  // "aab": pairs (a,a) -> 256 (merge 0) and (a,b) -> 258 (merge 2);
  // merge 0 comes first: [256 b]. (256, b) has no merge: done.
  CHECK(t.encode("aab") == Ids{256, 98});
  // "aaaa": merge 0 twice, left to right: [256 256]; no merge for it.
  CHECK(t.encode("aaaa") == Ids{256, 256});
  // " ab": (' ',a) has no merge, (a,b) -> 258: [32 258].
  CHECK(t.encode(" ab") == Ids{32, 258});
  // Words are encoded separately: "b" and " a" never merge.
  CHECK(t.encode("b a") == Ids{98, 32, 97});
  CHECK(t.encode("").empty());
}

TEST_CASE("encode: the earliest merge wins, not the leftmost pair",
          "[bpe-tokenizer]") {
  // Merge 0 is (b,c) -> 256, merge 1 is (a,b) -> 257. In "abc" the
  // leftmost pair (a,b) has a merge, but (b,c) was learned first:
  // [a 256], after which (a,256) has no merge. Taking the leftmost pair
  // would give [257 c] instead.
  const Tokenizer t(BpeMerges{{{98, 99, 2}, {97, 98, 1}}});
  CHECK(t.encode("abc") == Ids{97, 256});
  CHECK(t.encode("ab") == Ids{257});
}

TEST_CASE("encode equals applying every merge in order",
          "[bpe-tokenizer]") {
  const BpeMerges m = llm::train_bpe({story}, 40);
  const Tokenizer t(m);
  CHECK(t.encode(story) == plain_encode(m, story));
  const std::string other = "A cat on the stove sang, and then slept on.";
  CHECK(t.encode(other) == plain_encode(m, other));
  // Pieces of the story cut at random places, glued together: words
  // start and end in unusual places, so merges compete.
  Mix mix{11};
  const std::string_view all(story);
  for (int trial = 0; trial < 300; ++trial) {
    std::string s;
    for (std::size_t i = mix.next() % 6; i > 0; --i) {
      const std::size_t at = mix.next() % all.size();
      s += all.substr(at, 1 + mix.next() % 12);
    }
    CHECK(t.encode(s) == plain_encode(m, s));
  }
}

TEST_CASE("encode_document wraps the text in BOS and EOS",
          "[bpe-tokenizer]") {
  const Tokenizer t(hand_merges());
  CHECK(t.encode_document("aab") == Ids{261, 256, 98, 262});
  CHECK(t.encode_document("") == Ids{261, 262});
  CHECK(t.decode({261, 256, 98, 262}) == "aab");
  CHECK(t.decode({262, 261}).empty());
}

TEST_CASE("round trip: every byte value", "[bpe-tokenizer]") {
  const Tokenizer t = story_tokenizer();
  std::string all;
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    CHECK(t.encode_bytes(one) == Ids{static_cast<TokenId>(b)});
    CHECK(t.decode({static_cast<TokenId>(b)}) == one);
    CHECK(t.token_bytes(static_cast<TokenId>(b)) == one);
    all += one;
  }
  CHECK(t.decode(t.encode_bytes(all)) == all);
}

TEST_CASE("round trip: random byte strings", "[bpe-tokenizer]") {
  const Tokenizer t = story_tokenizer();
  Mix mix{4};
  for (int trial = 0; trial < 500; ++trial) {
    std::string s;
    for (std::size_t i = mix.next() % 80; i > 0; --i) {
      // Half the bytes from the story's letters, so merges apply.
      const std::string_view letters(story);
      s += (mix.next() & 1) ? letters[mix.next() % letters.size()]
                            : static_cast<char>(mix.next() & 0xff);
    }
    CHECK(t.decode(t.encode_bytes(s)) == s);
  }
}

TEST_CASE("round trip: random UTF-8 text", "[bpe-tokenizer]") {
  // Code points from every length class, encoded by hand.
  const Tokenizer t = story_tokenizer();
  Mix mix{5};
  const auto utf8 = [](std::uint32_t c) {
    std::string s;
    if (c < 0x80) {
      s += static_cast<char>(c);
    } else if (c < 0x800) {
      s += static_cast<char>(0xc0 | (c >> 6));
      s += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      s += static_cast<char>(0xe0 | (c >> 12));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (c & 0x3f));
    } else {
      s += static_cast<char>(0xf0 | (c >> 18));
      s += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (c & 0x3f));
    }
    return s;
  };
  const std::uint32_t limits[] = {0x80, 0x800, 0x10000, 0x110000};
  for (int trial = 0; trial < 300; ++trial) {
    std::string s;
    for (std::size_t i = mix.next() % 30; i > 0; --i) {
      std::uint32_t c = mix.next() % limits[mix.next() % 4];
      if (c >= 0xd800 && c <= 0xdfff) c = 'x';  // not a character
      s += utf8(c);
    }
    const Ids ids = t.encode(s);
    CHECK(t.decode(ids) == s);
    CHECK(t.encode_document(s).size() == ids.size() + 2);
  }
}

TEST_CASE("encode rejects invalid UTF-8, naming the byte and the reason",
          "[bpe-tokenizer]") {
  struct Bad {
    std::string text;
    std::string message;
  };
  const std::vector<Bad> cases = {
      // Invalid lead bytes.
      {"ab\xff", "encode: invalid UTF-8 at byte 2: 0xff cannot start a "
                 "character"},
      {"\x80", "encode: invalid UTF-8 at byte 0: 0x80 cannot start a "
               "character"},
      // "café" cut after the first byte of é (0xc3 0xa9).
      {"caf\xc3", "encode: truncated UTF-8 at byte 3: 0xc3 starts 2 bytes, "
                  "the text ends after 1"},
      // The first two of the three bytes of U+65E5 (0xe6 0x97 0xa5).
      {"\xe6\x97", "encode: truncated UTF-8 at byte 0: 0xe6 starts 3 bytes, "
                    "the text ends after 2"},
      // A missing continuation byte.
      {"\xc3" "A", "encode: invalid UTF-8 at byte 1: 0x41 cannot follow 0xc3 "
                  "at byte 0"},
      // '/' (U+002F) in two bytes: 0xc0 can only start an overlong form.
      {"\xc0\xaf", "encode: invalid UTF-8 at byte 0: 0xc0 cannot start a "
                    "character"},
      // '/' in three bytes: 0xe0 must be followed by 0xa0 or more.
      {"\xe0\x80\xaf", "encode: invalid UTF-8 at byte 1: 0x80 cannot follow "
                        "0xe0 at byte 0"},
      // U+D800, a surrogate: 0xed 0xa0 0x80.
      {"\xed\xa0\x80", "encode: invalid UTF-8 at byte 1: 0xa0 cannot follow "
                        "0xed at byte 0"},
      // U+110000: 0xf4 0x90 0x80 0x80.
      {"\xf4\x90\x80\x80", "encode: invalid UTF-8 at byte 1: 0x90 cannot "
                            "follow 0xf4 at byte 0"},
  };
  const Tokenizer t(hand_merges());
  for (const Bad& bad : cases) {
    INFO("expected: " << bad.message);
    CHECK(message_of<llm::EncodingError>([&] { t.encode(bad.text); }) ==
          bad.message);
  }
  // The largest code point, U+10FFFF, is accepted.
  CHECK(t.encode("\xf4\x8f\xbf\xbf").size() == 4);
}

TEST_CASE("decode rejects an unknown id", "[bpe-tokenizer]") {
  const Tokenizer t(hand_merges());
  REQUIRE_THROWS_AS(t.decode({97, 263}), llm::IndexError);
  REQUIRE_THROWS_WITH(t.decode({97, 98, 263}),
                      "decode: id 263 at position 2, expected an id below "
                      "263");
  REQUIRE_THROWS_WITH(t.token_bytes(4000000000u),
                      "token_bytes: id 4000000000 at position 0, expected "
                      "an id below 263");
  CHECK(t.decode({262}).empty());  // EOS, the largest id, is fine
}

TEST_CASE("the constructor rejects merges that cannot be applied",
          "[bpe-tokenizer]") {
  REQUIRE_THROWS_AS(Tokenizer(BpeMerges{{{256, 97, 1}}}), llm::ConfigError);
  REQUIRE_THROWS_WITH(Tokenizer(BpeMerges{{{256, 97, 1}}}),
                      "Tokenizer: merge 0 uses token 256, expected an id "
                      "below 256");
  REQUIRE_THROWS_WITH(Tokenizer(BpeMerges{{{97, 98, 2}, {98, 258, 1}}}),
                      "Tokenizer: merge 1 uses token 258, expected an id "
                      "below 257");
  REQUIRE_THROWS_WITH(Tokenizer(BpeMerges{{{97, 98, 2}, {97, 98, 1}}}),
                      "Tokenizer: merge 1 repeats the pair of merge 0");
}

TEST_CASE("save and load: a bitwise round trip", "[bpe-tokenizer]") {
  TempDir dir;
  const Tokenizer t = story_tokenizer();
  const std::string a = dir.file("a.tok"), b = dir.file("b.tok");
  t.save(a);
  const Tokenizer back = Tokenizer::load(a);
  back.save(b);
  const std::string bytes = read_all(a);
  CHECK(bytes == read_all(b));
  CHECK(bytes.size() == 24 + 16 * t.merges().merges.size());
  CHECK(bytes.substr(0, 8) == std::string("LLMBPE\r\n"));
  REQUIRE(back.merges().merges.size() == t.merges().merges.size());
  for (std::size_t k = 0; k < t.merges().merges.size(); ++k) {
    CHECK(back.merges().merges[k].left == t.merges().merges[k].left);
    CHECK(back.merges().merges[k].right == t.merges().merges[k].right);
    CHECK(back.merges().merges[k].count == t.merges().merges[k].count);
  }
  CHECK(back.encode(story) == t.encode(story));
  CHECK(!fs::exists(a + ".tmp"));
}

TEST_CASE("save: the layout of a one-merge file", "[bpe-tokenizer]") {
  TempDir dir;
  const std::string path = dir.file("one.tok");
  Tokenizer(BpeMerges{{{97, 98, 0x0102030405060708ULL}}}).save(path);
  std::string want = "LLMBPE\r\n";
  want += std::string("\x01\0\0\0", 4);  // version 1, little-endian
  want += std::string("\x01\0\0\0", 4);  // one merge
  want += std::string("\x61\0\0\0\x62\0\0\0", 8);  // a, b
  want += std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8);
  want += std::string(8, '\0');
  put_le(want, 32, fnv1a(std::string_view(want).substr(0, 32)), 8);
  CHECK(read_all(path) == want);
}

TEST_CASE("save replaces a file and fails without leaving one",
          "[bpe-tokenizer]") {
  TempDir dir;
  const std::string path = dir.file("t.tok");
  write_all(path, "old contents");
  story_tokenizer().save(path);
  CHECK(Tokenizer::load(path).vocab_size() == story_tokenizer().vocab_size());
  const std::string missing = dir.file("no-such-dir/t.tok");
  REQUIRE_THROWS_AS(story_tokenizer().save(missing), llm::IoError);
  // The message's rest is the writer's: chapter checkpoints replaces this
  // chapter's with a stricter one (test_checkpoint.cpp checks its words).
  const std::string message = message_of<llm::IoError>(
      [&] { story_tokenizer().save(missing); });
  CHECK(message.rfind("Tokenizer::save: cannot ", 0) == 0);
  CHECK(message.find("'" + missing) != std::string::npos);
  CHECK(!fs::exists(missing));
  CHECK(!fs::exists(dir.file("no-such-dir")));
  CHECK(entries(dir.path) == std::vector<std::string>{"t.tok"});
}

TEST_CASE("save: a failed rename leaves no temporary file",
          "[bpe-tokenizer]") {
  // A file cannot be renamed over a directory, so the temporary file is
  // written and the rename fails.
  TempDir dir;
  const std::string path = dir.file("taken");
  fs::create_directory(path);
  REQUIRE_THROWS_AS(story_tokenizer().save(path), llm::IoError);
  const std::string message =
      message_of<llm::IoError>([&] { story_tokenizer().save(path); });
  CHECK(message.rfind("Tokenizer::save: cannot ", 0) == 0);
  CHECK(message.find("'" + path) != std::string::npos);
  CHECK(fs::is_directory(path));
  CHECK(entries(dir.path) == std::vector<std::string>{"taken"});
}

TEST_CASE("load: a missing file", "[bpe-tokenizer]") {
  TempDir dir;
  const std::string path = dir.file("absent.tok");
  REQUIRE_THROWS_AS(Tokenizer::load(path), llm::IoError);
  REQUIRE_THROWS_WITH(Tokenizer::load(path),
                      "Tokenizer::load: cannot open '" + path + "'");
}

TEST_CASE("load: every damaged or foreign file says why",
          "[bpe-tokenizer]") {
  TempDir dir;
  const std::string good_path = dir.file("good.tok");
  Tokenizer(hand_merges()).save(good_path);
  const std::string good = read_all(good_path);  // 24 + 5 * 16 = 104 bytes
  REQUIRE(good.size() == 104);
  const std::string path = dir.file("bad.tok");
  const auto load_fails = [&](const std::string& bytes,
                              const std::string& why) {
    write_all(path, bytes);
    REQUIRE_THROWS_AS(Tokenizer::load(path), llm::FormatError);
    REQUIRE_THROWS_WITH(Tokenizer::load(path),
                        "Tokenizer::load: '" + path + "' " + why);
  };
  SECTION("empty") {
    load_fails("", "is not a tokenizer file (no LLMBPE magic)");
  }
  SECTION("another format") {
    load_fails("GIF89a" + good.substr(6),
               "is not a tokenizer file (no LLMBPE magic)");
  }
  SECTION("mangled by a text-mode copy") {
    std::string unix_lines = good;
    unix_lines.erase(6, 1);  // "\r\n" became "\n"
    load_fails(unix_lines, "is not a tokenizer file (no LLMBPE magic)");
  }
  SECTION("cut inside the header") {
    load_fails(good.substr(0, 12), "has 12 bytes, expected at least 24");
  }
  SECTION("a newer version") {
    std::string v2 = good;
    put_le(v2, 8, 2, 4);
    load_fails(v2, "has version 2, expected 1");
  }
  SECTION("truncated") {
    load_fails(good.substr(0, 103), "has 103 bytes, expected 104 for 5 merges");
  }
  SECTION("bytes appended") {
    load_fails(good + "x", "has 105 bytes, expected 104 for 5 merges");
  }
  SECTION("a flipped bit") {
    std::string flipped = good;
    flipped[40] = static_cast<char>(flipped[40] ^ 0x10);  // merge 1's count
    load_fails(flipped, "is damaged (checksum mismatch)");
  }
  SECTION("a merge that uses a later token, with a valid checksum") {
    std::string forged = good;
    put_le(forged, 16, 300, 4);  // merge 0's left token
    reseal(forged);
    load_fails(forged, "holds an invalid merge: merge 0 uses token 300, "
                       "expected an id below 256");
  }
}
