// Tests for the Part I review page (text-review): the whole path from
// text to examples and a held-out loss on the page's three documents,
// every intermediate worked out by hand in the comments below.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "llm/bigram.hpp"
#include "llm/bpe.hpp"
#include "llm/examples.hpp"
#include "llm/tokenizer.hpp"

namespace {

using llm::TokenId;
using Ids = std::vector<TokenId>;

const std::string doc_a = "the cat sat.\n";
const std::string doc_b = "the cat ran.\n";
const std::string doc_c = "a cat sat.\n";  // held out

}  // namespace

// Words (a run of letters with the space before it, or one symbol):
//   a: "the" " cat" " sat" "." "\n"     b: "the" " cat" " ran" "." "\n"
// Pair counts before any merge: (a,t) 3 (cat twice, sat once); (t,h),
// (h,e), (' ',c), (c,a) 2 each; the rest 1. So
//   merge 0: a t    -> 256 "at"   (count 3)
// then (' ',c), (c,at), (t,h), (h,e) have 2; the smallest pair is
// (32, 99):
//   merge 1: ' ' c  -> 257 " c"   (count 2)
// then (" c",at) = (257,256), (t,h) = (116,104), (h,e) = (104,101):
//   merge 2: h e    -> 258 "he"   (count 2)
// then (t,he) = (116,258) and (257,256), both 2; 116 < 257:
//   merge 3: t he   -> 259 "the"  (count 2)
TEST_CASE("the review's four merges by hand", "[text-review]") {
  const llm::BpeMerges m = llm::train_bpe({doc_a, doc_b}, 4);
  REQUIRE(m.merges.size() == 4);
  const TokenId expected[4][2] = {{'a', 't'}, {' ', 'c'}, {'h', 'e'},
                                  {'t', 258}};
  for (int i = 0; i < 4; ++i) {
    CHECK(m.merges[i].left == expected[i][0]);
    CHECK(m.merges[i].right == expected[i][1]);
  }
  CHECK(m.merges[0].count == 3);
}

// With those merges, V = 256 + 4 + 2 = 262, BOS = 260, EOS = 261, and
//   a = BOS the " c" at ' ' s at . \n EOS          L = 10
//   b = BOS the " c" at ' ' r a n . \n EOS         L = 11
//   c = BOS a " c" at ' ' s at . \n EOS            L = 10
// Examples of a and b with T = 3: (10 - 3) + (11 - 3) = 15; pairs
// counted: 9 + 10 = 19; predictions of c: 9.
TEST_CASE("the review's path from text to a held-out loss",
          "[text-review]") {
  const llm::Tokenizer tok(llm::train_bpe({doc_a, doc_b}, 4));
  REQUIRE(tok.vocab_size() == 262);
  const TokenId bos = 260, eos = 261;
  const Ids a = tok.encode_document(doc_a), b = tok.encode_document(doc_b);
  const Ids c = tok.encode_document(doc_c);
  CHECK(a == Ids{bos, 259, 257, 256, ' ', 's', 256, '.', '\n', eos});
  CHECK(b == Ids{bos, 259, 257, 256, ' ', 'r', 'a', 'n', '.', '\n', eos});
  CHECK(c == Ids{bos, 'a', 257, 256, ' ', 's', 256, '.', '\n', eos});
  CHECK(llm::ExampleSet({a, b}, {.context = 3}).size() == 15);

  llm::BigramCounts counts(262);
  counts.add(a);
  counts.add(b);
  CHECK(counts.total() == 19);
  // c's nine pairs with alpha = 0.1, alpha V = 26.2, as (c + 0.1) / (n + 26.2):
  //   (BOS,a)  c 0 n 2     (a," c")  c 0 n 1     (" c",at) c 2 n 2
  //   (at,' ') c 2 n 3     (' ',s)   c 1 n 2     (s,at)    c 1 n 1
  //   (at,.)   c 1 n 3     (.,\n)    c 2 n 2     (\n,EOS)  c 2 n 2
  const double p[9] = {0.1 / 28.2, 0.1 / 27.2, 2.1 / 28.2,
                       2.1 / 29.2, 1.1 / 28.2, 1.1 / 27.2,
                       1.1 / 29.2, 2.1 / 28.2, 2.1 / 28.2};
  double nll = 0.0;
  for (double q : p) nll -= std::log(q);
  const llm::SplitLoss loss =
      llm::evaluate(llm::BigramModel(counts, 0.1), {c}, doc_c.size());
  CHECK(loss.predictions == 9);
  CHECK(loss.bytes == 11);
  CHECK(loss.nll == Approx(nll));
  CHECK(loss.bits_per_byte() == Approx(nll / (11 * std::log(2.0))));
}
