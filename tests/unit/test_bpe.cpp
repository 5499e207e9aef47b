// Tests for chapter bpe-training: the word split, merge_pair, merges worked
// out by hand on short texts written for the project, the tie-breaking
// rule, and train_bpe against a plain reference trainer written here that
// recounts every pair before every merge. Uses only what chapters up to
// it define.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "llm/bpe.hpp"
#include "llm/error.hpp"
#include "splitmix.hpp"

namespace {

using llm::BpeMerges;
using llm::Merge;
using llm::TokenId;
using Ids = std::vector<TokenId>;
using Words = std::vector<std::string_view>;


// Text of n words drawn from a small list of syllables, with spaces,
// commas and newlines, so that pairs repeat and ties occur.
std::string syllable_text(std::uint64_t seed, std::size_t n) {
  const char* syllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "i",
                             "an", "el", "ka", "ka", "lo"};
  Mix mix{seed};
  std::string text;
  for (std::size_t w = 0; w < n; ++w) {
    const std::size_t parts = 1 + mix.next() % 3;
    if (w > 0) text += (mix.next() % 9 == 0) ? "\n" : " ";
    for (std::size_t p = 0; p < parts; ++p) {
      text += syllables[mix.next() % 13];
    }
    if (mix.next() % 7 == 0) text += ",";
  }
  return text;
}

// The reference: a trainer with no incremental bookkeeping. Before every
// merge it counts the pairs of every word of every text from scratch,
// picks the largest count (ties: the smallest pair, which std::map's
// order gives), and rewrites every word.
BpeMerges reference_train(const std::vector<std::string>& texts,
                          std::size_t merge_count) {
  std::vector<Ids> words;
  for (const std::string& t : texts) {
    for (std::string_view w : llm::split_words(t)) {
      Ids ids;
      for (unsigned char b : w) ids.push_back(b);
      words.push_back(ids);
    }
  }
  BpeMerges out;
  while (out.merges.size() < merge_count) {
    std::map<std::pair<TokenId, TokenId>, std::uint64_t> count;
    for (const Ids& w : words) {
      for (std::size_t i = 0; i + 1 < w.size(); ++i) ++count[{w[i], w[i + 1]}];
    }
    if (count.empty()) break;
    auto best = count.begin();
    for (auto it = count.begin(); it != count.end(); ++it) {
      if (it->second > best->second) best = it;  // first of equals stays
    }
    const TokenId merged = 256 + static_cast<TokenId>(out.merges.size());
    out.merges.push_back({best->first.first, best->first.second,
                          best->second});
    for (Ids& w : words) {
      Ids next;
      for (std::size_t i = 0; i < w.size(); ++i) {
        if (i + 1 < w.size() && w[i] == best->first.first &&
            w[i + 1] == best->first.second) {
          next.push_back(merged);
          ++i;
        } else {
          next.push_back(w[i]);
        }
      }
      w = next;
    }
  }
  return out;
}

void require_merges(const BpeMerges& got, const std::vector<Merge>& want) {
  REQUIRE(got.merges.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("merge " << i);
    CHECK(got.merges[i].left == want[i].left);
    CHECK(got.merges[i].right == want[i].right);
    CHECK(got.merges[i].count == want[i].count);
  }
}

std::string joined(const Words& words) {
  std::string s;
  for (std::string_view w : words) s += w;
  return s;
}

}  // namespace

TEST_CASE("split_words: a space joins the word after it",
          "[bpe-training]") {
  const std::string text = "In the start, Ann  met 42 owls.\nThey";
  const Words want = {"In", " the", " start", ",",   " Ann",
                      " ",  " met", " 42",    " owls", ".",
                      "\n", "They"};
  const Words got = llm::split_words(text);
  CHECK(got == want);
  CHECK(joined(got) == text);
}

TEST_CASE("split_words: whitespace runs, digits and symbols",
          "[bpe-training]") {
  CHECK(llm::split_words("") == Words{});
  CHECK(llm::split_words("a ") == Words{"a", " "});
  CHECK(llm::split_words("a \n b") == Words{"a", " \n", " b"});
  CHECK(llm::split_words("\n\n  x") == Words{"\n\n ", " x"});
  CHECK(llm::split_words("ab12cd") == Words{"ab", "12", "cd"});
  CHECK(llm::split_words("no?!") == Words{"no", "?!"});
  CHECK(llm::split_words(" (so)") == Words{" (", "so", ")"});
}

TEST_CASE("split_words keeps multi-byte characters inside words",
          "[bpe-training]") {
  // "café" is c a f 0xc3 0xa9; "日本" is six bytes, all >= 0x80.
  const std::string text = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac!";
  const Words got = llm::split_words(text);
  CHECK(got == Words{"caf\xc3\xa9", " \xe6\x97\xa5\xe6\x9c\xac", "!"});
}

TEST_CASE("split_words: the words always join to the text",
          "[bpe-training]") {
  Mix mix{3};
  for (int trial = 0; trial < 200; ++trial) {
    std::string text;
    const std::size_t n = mix.next() % 40;
    for (std::size_t i = 0; i < n; ++i) {
      text.push_back(static_cast<char>(mix.next() & 0xff));
    }
    const Words words = llm::split_words(text);
    CHECK(joined(words) == text);
    for (std::string_view w : words) CHECK(!w.empty());
  }
}

TEST_CASE("merge_pair replaces from left to right", "[bpe-training]") {
  Ids aaa = {97, 97, 97};
  CHECK(llm::merge_pair(aaa, 97, 97, 300) == 1);
  CHECK(aaa == Ids{300, 97});  // not {97, 300}
  Ids aaaa = {97, 97, 97, 97};
  CHECK(llm::merge_pair(aaaa, 97, 97, 300) == 2);
  CHECK(aaaa == Ids{300, 300});
  Ids mixed = {1, 2, 3, 1, 2, 1};
  CHECK(llm::merge_pair(mixed, 1, 2, 9) == 2);
  CHECK(mixed == Ids{9, 3, 9, 1});
  Ids none = {2, 1};
  CHECK(llm::merge_pair(none, 1, 2, 9) == 0);
  CHECK(none == Ids{2, 1});
}

TEST_CASE("train_bpe: merges worked out by hand", "[bpe-training]") {
  // "aaab aab" splits into the words "aaab" and " aab" (a = 97, b = 98,
  // space = 32), each once. Pair counts, step by step:
  //   start: (a,a) 2 + 1 = 3, (a,b) 1 + 1 = 2, (' ',a) 1.
  //   merge 0: (a,a) -> 256, count 3.  aaab = [256 a b], " aab" =
  //     [' ' 256 b]. Now (256,a) 1, (a,b) 1, (' ',256) 1, (256,b) 1.
  //   merge 1: all four tie at 1; the smallest pair is (32,256) -> 257.
  //     " aab" = [257 b]. Left: (a,b) = (97,98), (256,97), (257,98).
  //   merge 2: (97,98) -> 258. aaab = [256 258]. Left: (256,258),
  //     (257,98).
  //   merge 3: (256,258) -> 259, aaab = [259]; merge 4: (257,98) -> 260.
  //   Then every word is one token and training stops after 5 merges.
  llm::BpeTrainingStats stats;
  const BpeMerges m = llm::train_bpe({"aaab aab"}, 10, &stats);
  require_merges(m, {{97, 97, 3}, {32, 256, 1}, {97, 98, 1},
                     {256, 258, 1}, {257, 98, 1}});
  CHECK(stats.bytes == 8);
  CHECK(stats.words == 2);
  CHECK(stats.unique_words == 2);
  CHECK(stats.unique_word_bytes == 8);
  CHECK(stats.initial_pairs == 3);
  // Tokens after k merges: 8; 8 - 2 (one aa in each word) = 6; 5; 4; 3; 2.
  CHECK(stats.tokens == std::vector<std::uint64_t>{8, 6, 5, 4, 3, 2});
}

TEST_CASE("train_bpe: frequencies weight the counts",
          "[bpe-training]") {
  // Words: "ab" once, " ab" twice, " cd" once. Counts: (a,b) 1 + 2 = 3,
  // (' ',a) 2, (' ',c) 1, (c,d) 1. Merge 0 is (a,b) -> 256 with 3. Then
  // (' ',256) 2, (' ',c) 1, (c,d) 1: merge 1 is (32,256) with 2, merge 2
  // the smaller of the tied (32,99) and (99,100).
  const BpeMerges m = llm::train_bpe({"ab ab ab cd"}, 3);
  require_merges(m, {{97, 98, 3}, {32, 256, 2}, {32, 99, 1}});
}

TEST_CASE("train_bpe: ties go to the smallest pair", "[bpe-training]") {
  // "ab ba": words "ab" and " ba"; (a,b), (' ',b) and (b,a) all have
  // count 1. The smallest is (32,98), then (97,98), then (256,97).
  const BpeMerges m = llm::train_bpe({"ab ba"}, 5);
  require_merges(m, {{32, 98, 1}, {97, 98, 1}, {256, 97, 1}});
}

TEST_CASE("train_bpe: no word crosses two texts", "[bpe-training]") {
  CHECK(llm::train_bpe({"a", "b"}, 4).merges.empty());
  require_merges(llm::train_bpe({"ab"}, 4), {{97, 98, 1}});
  CHECK(llm::train_bpe({}, 4).merges.empty());
  CHECK(llm::train_bpe({"abc"}, 0).merges.empty());
}

TEST_CASE("train_bpe equals a trainer that recounts every pair",
          "[bpe-training]") {
  const std::vector<std::string> texts = {syllable_text(1, 400),
                                          syllable_text(2, 300),
                                          syllable_text(3, 50)};
  llm::BpeTrainingStats stats;
  const BpeMerges fast = llm::train_bpe(texts, 120, &stats);
  const BpeMerges plain = reference_train(texts, 120);
  require_merges(fast, plain.merges);
  // The incremental counts touched far fewer pairs than the recounts.
  CHECK(stats.pair_updates < stats.recount_pairs);
  REQUIRE(stats.tokens.size() == fast.merges.size() + 1);
  CHECK(stats.tokens.front() == stats.bytes);
}

TEST_CASE("train_bpe: the result does not depend on the texts' order",
          "[bpe-training]") {
  std::vector<std::string> texts = {syllable_text(4, 100),
                                    syllable_text(5, 100),
                                    syllable_text(6, 100)};
  const BpeMerges a = llm::train_bpe(texts, 60);
  std::reverse(texts.begin(), texts.end());
  const BpeMerges b = llm::train_bpe(texts, 60);
  require_merges(b, a.merges);
}

TEST_CASE("train_bpe: a shorter run is a prefix of a longer one",
          "[bpe-training]") {
  const std::vector<std::string> texts = {syllable_text(7, 300)};
  const BpeMerges short_run = llm::train_bpe(texts, 20);
  const BpeMerges long_run = llm::train_bpe(texts, 80);
  REQUIRE(long_run.merges.size() == 80);
  require_merges(short_run, std::vector<Merge>(long_run.merges.begin(),
                                               long_run.merges.begin() + 20));
}

TEST_CASE("train_bpe: tokens[k] is the token count after k merges",
          "[bpe-training]") {
  // Recount by applying the first k merges to every word with merge_pair.
  const std::vector<std::string> texts = {syllable_text(8, 200)};
  llm::BpeTrainingStats stats;
  const BpeMerges m = llm::train_bpe(texts, 40, &stats);
  for (std::size_t k = 0; k <= m.merges.size(); k += 8) {
    std::uint64_t tokens = 0;
    for (std::string_view w : llm::split_words(texts[0])) {
      Ids ids;
      for (unsigned char b : w) ids.push_back(b);
      for (std::size_t j = 0; j < k; ++j) {
        llm::merge_pair(ids, m.merges[j].left, m.merges[j].right,
                        256 + static_cast<TokenId>(j));
      }
      tokens += ids.size();
    }
    INFO("k = " << k);
    CHECK(stats.tokens[k] == tokens);
  }
}

TEST_CASE("train_bpe rejects a merge count beyond the id range",
          "[bpe-training]") {
  REQUIRE_THROWS_AS(llm::train_bpe({"ab"}, llm::max_merge_count + 1),
                    llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::train_bpe({"ab"}, llm::max_merge_count + 1),
                      "train_bpe: merge_count is 16777217, expected at "
                      "most 16777216");
}
