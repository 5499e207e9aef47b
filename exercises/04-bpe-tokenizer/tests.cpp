// The exercise tests of the bpe-tokenizer chapter. They call
// exercise::encode_word (starter.cpp, once fixed) with merge lists small
// enough to apply by hand, then compare it with the book's Tokenizer on
// the words of a sentence.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "exercise.hpp"
#include "llm/tokenizer.hpp"

namespace {

using Ids = std::vector<llm::TokenId>;

}  // namespace

TEST_CASE("merges apply in the order they were learned") {
  // Merge 0: (b, c) -> 256; merge 1: (a, b) -> 257. In "abc" both pairs
  // occur, overlapping on b. The merge learned first wins: a [bc] = 97 256,
  // then (a, 256) has no merge. Taking the leftmost pair would give
  // [ab] c = 257 99, a tokenization training never produced.
  const std::vector<llm::Merge> merges = {{'b', 'c', 5}, {'a', 'b', 3}};
  CHECK(exercise::encode_word(merges, "abc") == (Ids{'a', 256}));
}

TEST_CASE("merge i makes token 256 + i, and merges build on merges") {
  // The merges "aaab aab" teaches: (a,a) 256, (' ',256) 257, (a,b) 258,
  // (256,258) 259, (257,b) 260. "aaab": (a,a) -> 256 a b; (a,b) -> 256 258;
  // (256,258) -> 259. " aab": (a,a) -> ' ' 256 b; (' ',256) -> 257 b;
  // (257,b) -> 260.
  const std::vector<llm::Merge> merges = {
      {'a', 'a', 3}, {' ', 256, 1}, {'a', 'b', 1}, {256, 258, 1}, {257, 'b', 1}};
  CHECK(exercise::encode_word(merges, "aaab") == Ids{259});
  CHECK(exercise::encode_word(merges, " aab") == Ids{260});
  // A word no merge touches stays bytes.
  CHECK(exercise::encode_word(merges, "ba") == (Ids{'b', 'a'}));
}

TEST_CASE("bytes above 0x7F are ids 128 to 255") {
  // e-acute is the two bytes C3 A9 = 195 169; with the merge (195, 169)
  // it is one token, 256. Read through a signed char, C3 is -61 and
  // becomes the id 4294967235.
  CHECK(exercise::encode_word({}, "\xC3\xA9") == (Ids{195, 169}));
  const std::vector<llm::Merge> merges = {{195, 169, 1}};
  CHECK(exercise::encode_word(merges, "\xC3\xA9") == Ids{256});
}

TEST_CASE("every word of a sentence as the book's tokenizer encodes it") {
  const std::string train =
      "the cat sat on the mat; the rat sat on the hat. caf\xC3\xA9 au lait";
  const llm::BpeMerges merges = llm::train_bpe({train}, 30);
  const llm::Tokenizer tok(merges);
  for (std::string_view w : llm::split_words(
           "that cat ate the rat's hat at the caf\xC3\xA9")) {
    INFO("the word '" << std::string(w) << "'");
    CHECK(exercise::encode_word(merges.merges, w) == tok.encode_bytes(w));
  }
}
