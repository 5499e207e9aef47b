// The exercise tests of the bpe-training chapter. They call
// exercise::merge_pair and exercise::learn_merges (starter.cpp, once
// fixed) on words small enough to merge by hand; the expected merges are
// worked out in the comments. The last test compares the loop with the
// book's train_bpe on a sentence.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "exercise.hpp"

namespace {

using Ids = std::vector<llm::TokenId>;

Ids bytes_of(std::string_view s) {
  Ids ids;
  for (unsigned char c : s) ids.push_back(c);
  return ids;
}

// Requires merge `i` of `got` to be (left, right) with `count`.
void require_merge(const std::vector<llm::Merge>& got, std::size_t i,
                   llm::TokenId left, llm::TokenId right,
                   std::uint64_t count) {
  INFO("merge " << i << " (it makes token " << 256 + i << ")");
  REQUIRE(got.size() > i);
  CHECK(got[i].left == left);
  CHECK(got[i].right == right);
  CHECK(got[i].count == count);
}

}  // namespace

TEST_CASE("merge_pair: a replaced pair uses up both of its tokens") {
  // "aaab" with the pair (a, a): the scan replaces positions 0-1, then
  // goes on at position 2, where "ab" is no match: M a b, one replacement.
  // Merging position 1-2 as well would use the middle 'a' twice.
  Ids t = bytes_of("aaab");
  CHECK(exercise::merge_pair(t, 'a', 'a', 256) == 1);
  CHECK(t == Ids{256, 'a', 'b'});
  // "abab" with (a, b): two replacements, nothing left over.
  Ids u = bytes_of("abab");
  CHECK(exercise::merge_pair(u, 'a', 'b', 256) == 2);
  CHECK(u == (Ids{256, 256}));
}

TEST_CASE("merge_pair: a pair at the end, and no pair at all") {
  Ids t = bytes_of("cab");
  CHECK(exercise::merge_pair(t, 'a', 'b', 300) == 1);
  CHECK(t == (Ids{'c', 300}));
  Ids u = bytes_of("cba");
  CHECK(exercise::merge_pair(u, 'a', 'b', 300) == 0);
  CHECK(u == bytes_of("cba"));
}

TEST_CASE("learn_merges: the chapter's 'aaab aab' by hand, ties included") {
  // The words of "aaab aab" are "aaab" and " aab", once each.
  // Step 0: (a,a) occurs twice in "aaab" and once in " aab": 3, the most.
  //   The words become [256 a b] and [' ' 256 b].
  // Step 1: (256,a), (a,b), (' ',256), (256,b) all occur once: the tie
  //   goes to the smallest pair, (' ', 256) = (32, 256) -> 257.
  //   The words become [256 a b] and [257 b].
  // Step 2: (256,a), (a,b), (257,b) once each: the smallest is (a,b) -> 258.
  // Step 3: [256 258] and [257 b]: (256,258) -> 259. Step 4: (257,b) -> 260.
  // Then every word is one token and no pair is left: 5 merges, not 10.
  const std::vector<exercise::Word> words = {{bytes_of("aaab"), 1},
                                             {bytes_of(" aab"), 1}};
  const std::vector<llm::Merge> m = exercise::learn_merges(words, 10);
  require_merge(m, 0, 'a', 'a', 3);
  require_merge(m, 1, ' ', 256, 1);
  require_merge(m, 2, 'a', 'b', 1);
  require_merge(m, 3, 256, 258, 1);
  require_merge(m, 4, 257, 'b', 1);
  INFO("the loop must stop when no pair is left");
  CHECK(m.size() == 5);
}

TEST_CASE("learn_merges: a word's count weighs every pair in it") {
  // "ab" occurs once and "cd" five times: (c,d) occurs 5 times in the
  // text and must be merged first, with count 5; then (a,b), count 1.
  const std::vector<exercise::Word> words = {{bytes_of("ab"), 1},
                                             {bytes_of("cd"), 5}};
  const std::vector<llm::Merge> m = exercise::learn_merges(words, 2);
  require_merge(m, 0, 'c', 'd', 5);
  require_merge(m, 1, 'a', 'b', 1);
}

TEST_CASE("learn_merges agrees with the book's train_bpe on a sentence") {
  // train_bpe keeps its pair counts up to date instead of recounting;
  // both follow the same definition of a step, so the merges are equal.
  const std::string text =
      "the cat sat on the mat, and the rat sat on the cat. that is that.";
  std::map<std::string_view, std::uint64_t> counts;
  for (std::string_view w : llm::split_words(text)) ++counts[w];
  std::vector<exercise::Word> words;
  for (const auto& [w, n] : counts) words.push_back({bytes_of(w), n});
  const std::vector<llm::Merge> want = llm::train_bpe({text}, 20).merges;
  const std::vector<llm::Merge> got = exercise::learn_merges(words, 20);
  REQUIRE(want.size() == 20);
  for (std::size_t i = 0; i < want.size(); ++i) {
    require_merge(got, i, want[i].left, want[i].right, want[i].count);
  }
}
