// Tests for chapter bigram-baseline: counts, add-alpha probabilities,
// the three loss units and the choice of alpha on a hand-computable
// bigram, the book's baseline on a corpus of those documents,
// normalisation of every row, and every rejected input. The id
// sequences are made up for the tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "llm/bigram.hpp"
#include "llm/bpe.hpp"
#include "llm/error.hpp"
#include "llm/examples.hpp"
#include "llm/tokenizer.hpp"

namespace {

using llm::BigramCounts;
using llm::BigramModel;
using llm::TokenId;
using Ids = std::vector<TokenId>;
using Docs = std::vector<Ids>;

// The hand-worked bigram, V = 3. Training documents
//   A = 0 1 1 2   pairs (0,1) (1,1) (1,2)
//   B = 0 1 2     pairs (0,1) (1,2)
// so c(0,1) = 2, c(1,1) = 1, c(1,2) = 2, every other c is 0, and
// n(0) = 2, n(1) = 3, n(2) = 0: five pairs in all.
const Docs train = {{0, 1, 1, 2}, {0, 1, 2}};

BigramCounts hand_counts() {
  BigramCounts c(3);
  for (const Ids& d : train) c.add(d);
  return c;
}

}  // namespace

TEST_CASE("bigram counts of the hand-worked documents",
          "[bigram-baseline][bigram]") {
  const BigramCounts c = hand_counts();
  const std::uint64_t expected[3][3] = {{0, 2, 0}, {0, 1, 2}, {0, 0, 0}};
  for (TokenId a = 0; a < 3; ++a) {
    for (TokenId b = 0; b < 3; ++b) CHECK(c.count(a, b) == expected[a][b]);
  }
  CHECK(c.row_total(0) == 2);
  CHECK(c.row_total(1) == 3);
  CHECK(c.row_total(2) == 0);
  CHECK(c.total() == 5);
  CHECK(c.vocab_size() == 3);
}

TEST_CASE("add-alpha probabilities by hand", "[bigram-baseline][bigram]") {
  // alpha = 1, V = 3: p(b | a) = (c(a,b) + 1) / (n(a) + 3).
  const BigramModel m(hand_counts(), 1.0);
  CHECK(m.probability(0, 0) == Approx(1.0 / 5.0));
  CHECK(m.probability(0, 1) == Approx(3.0 / 5.0));
  CHECK(m.probability(1, 0) == Approx(1.0 / 6.0));
  CHECK(m.probability(1, 1) == Approx(2.0 / 6.0));
  CHECK(m.probability(1, 2) == Approx(3.0 / 6.0));
  // Id 2 starts no pair: its row is uniform.
  for (TokenId b = 0; b < 3; ++b) CHECK(m.probability(2, b) == Approx(1.0 / 3.0));
  // alpha = 0.5: p(1 | 0) = 2.5 / 3.5.
  CHECK(BigramModel(hand_counts(), 0.5).probability(0, 1) ==
        Approx(2.5 / 3.5));
}

TEST_CASE("every row of add-alpha probabilities sums to one",
          "[bigram-baseline][bigram]") {
  // A longer document over V = 7 with uneven counts, and ids never seen.
  BigramCounts c(7);
  Ids doc;
  for (TokenId k = 0; k < 200; ++k) doc.push_back((k * k + 3 * k) % 5);
  c.add(doc);
  for (double alpha : {1e-6, 0.01, 0.5, 1.0, 30.0}) {
    const BigramModel m(c, alpha);
    for (TokenId a = 0; a < 7; ++a) {
      double sum = 0.0;
      for (TokenId b = 0; b < 7; ++b) sum += m.probability(a, b);
      CHECK(sum == Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("loss, perplexity and bits per byte by hand",
          "[bigram-baseline][bigram]") {
  // Test document 0 1 2 2 under alpha = 1: the pairs (0,1) (1,2) (2,2)
  // have p = 3/5, 3/6 and 1/3, whose product is 1/10. So the total NLL
  // is ln 10 nats over N = 3 predictions, the perplexity is
  // exp(ln 10 / 3) = 10^(1/3) = 2.154435, and with B = 5 bytes of text
  // the bits per byte are log2(10) / 5 = 0.664386.
  const BigramModel m(hand_counts(), 1.0);
  const llm::SplitLoss loss = llm::evaluate(m, {{0, 1, 2, 2}}, 5);
  CHECK(loss.predictions == 3);
  CHECK(loss.bytes == 5);
  CHECK(loss.nll == Approx(std::log(10.0)));
  CHECK(loss.mean_nll() == Approx(std::log(10.0) / 3.0));
  CHECK(loss.perplexity() == Approx(std::cbrt(10.0)));
  CHECK(loss.perplexity() == Approx(2.154435).epsilon(1e-6));
  CHECK(loss.bits_per_byte() == Approx(std::log2(10.0) / 5.0));
  CHECK(loss.bits_per_byte() == Approx(0.664386).epsilon(1e-6));
}

TEST_CASE("a uniform model has perplexity V", "[bigram-baseline][bigram]") {
  // No counts at all: every probability is alpha / (alpha V) = 1/V.
  const BigramModel m(BigramCounts(11), 0.3);
  const llm::SplitLoss loss = llm::evaluate(m, {{1, 5, 7, 2}, {3, 3}}, 9);
  CHECK(loss.predictions == 4);
  CHECK(loss.perplexity() == Approx(11.0));
  CHECK(loss.bits_per_byte() == Approx(4.0 * std::log2(11.0) / 9.0));
}

TEST_CASE("documents' pairs never cross a boundary",
          "[bigram-baseline][bigram]") {
  // Counting A then B must not count the pair (2, 0) between them.
  CHECK(hand_counts().count(2, 0) == 0);
  // And evaluating two documents is the sum of evaluating each.
  const BigramModel m(hand_counts(), 0.7);
  const double both = llm::evaluate(m, {{0, 1, 2}, {2, 1, 0}}, 1).nll;
  const double one = llm::evaluate(m, {{0, 1, 2}}, 1).nll;
  const double two = llm::evaluate(m, {{2, 1, 0}}, 1).nll;
  CHECK(both == Approx(one + two));
}

TEST_CASE("alpha is chosen by the lowest validation loss",
          "[bigram-baseline][bigram]") {
  // Validation 0 1 2: under alpha, p(1|0) p(2|1) =
  //   (2 + a) / (2 + 3a) * (2 + a) / (3 + 3a),
  // which falls as alpha grows (both factors do), so the smallest
  // alpha of the grid wins: 0.01 gives 0.9853 * 0.6601 = 0.6504.
  const std::vector<double> grid = {1.0, 0.01, 0.1};
  const llm::AlphaSearch s =
      llm::choose_alpha(hand_counts(), {{0, 1, 2}}, 3, grid);
  REQUIRE(s.losses.size() == 3);
  CHECK(s.grid == grid);
  CHECK(s.best == 1);
  const double a = 0.01;
  CHECK(s.losses[1].nll ==
        Approx(-std::log((2 + a) / (2 + 3 * a) * (2 + a) / (3 + 3 * a))));
  // Validation 2 2: n(2) = 0, so p = a / 3a = 1/3 for every alpha. With
  // powers of two the quotient rounds identically, an exact tie, and the
  // first alpha of the grid is kept.
  CHECK(llm::choose_alpha(hand_counts(), {{2, 2}}, 1, {0.5, 0.25, 1.0})
            .best == 0);
}

TEST_CASE("the book's bigram takes the alpha its validation split picks",
          "[bigram-baseline][bigram]") {
  // The hand-worked training documents in a corpus whose tokenizer has no
  // merges; V is then whatever the tokenizer's vocabulary is.
  llm::BookCorpus c{
      .split = {.train = {}, .validation = {{"v", "abc"}}, .test = {}},
      .tokenizer = llm::Tokenizer(llm::train_bpe({"abc"}, 0)),
      .train = train, .validation = {{0, 1, 2}}, .test = {}};
  const double v = double(c.tokenizer.vocab_size());
  // Validation 0 1 2: p(1|0) p(2|1) = (2 + a) / (2 + Va) * (2 + a) /
  // (3 + Va), and both factors fall as alpha grows, so the smallest alpha
  // of the grid wins.
  const std::vector<double>& grid = llm::book_alpha_grid;
  REQUIRE(std::is_sorted(grid.begin(), grid.end()));
  const double smallest = grid.front();
  REQUIRE(smallest == 0.001);
  const BigramModel m = llm::book_bigram(c);
  CHECK(m.alpha() == smallest);
  CHECK(m.counts().total() == 5);  // the training split's five pairs
  CHECK(m.probability(0, 1) ==
        Approx((2 + smallest) / (2 + v * smallest)));
  // Validation 0 0: the pair never occurs in training, p(0|0) =
  // a / (2 + Va), which grows with alpha, so the largest alpha wins.
  c.validation = {{0, 0}};
  CHECK(llm::book_bigram(c).alpha() == grid.back());
}

TEST_CASE("bad bigram inputs are rejected, one message each",
          "[bigram-baseline][bigram]") {
  CHECK_THROWS_MATCHES(
      BigramCounts(0), llm::ConfigError,
      Catch::Message("BigramCounts: vocabulary size is 0, expected > 0"));
  for (double alpha : {0.0, -1.0}) {
    CHECK_THROWS_AS(BigramModel(hand_counts(), alpha), llm::ConfigError);
  }
  CHECK_THROWS_MATCHES(
      BigramModel(hand_counts(), 0.0), llm::ConfigError,
      Catch::Message("BigramModel: alpha is 0, expected a finite number > 0"));
  CHECK_THROWS_MATCHES(
      BigramModel(hand_counts(), std::numeric_limits<double>::quiet_NaN()),
      llm::ConfigError,
      Catch::Message("BigramModel: alpha is nan, expected a finite number > 0"));
  CHECK_THROWS_AS(
      BigramModel(hand_counts(), std::numeric_limits<double>::infinity()),
      llm::ConfigError);
  const BigramModel m(hand_counts(), 1.0);
  CHECK_THROWS_MATCHES(
      llm::evaluate(m, {}, 4), llm::ConfigError,
      Catch::Message("evaluate: 0 documents hold no pair of ids, expected "
                     "at least one prediction"));
  CHECK_THROWS_MATCHES(
      llm::evaluate(m, {{1}, {2}}, 4), llm::ConfigError,
      Catch::Message("evaluate: 2 documents hold no pair of ids, expected "
                     "at least one prediction"));
  CHECK_THROWS_MATCHES(
      llm::evaluate(m, {{0, 1}}, 0), llm::ConfigError,
      Catch::Message("evaluate: the text has 0 bytes, expected > 0"));
  CHECK_THROWS_MATCHES(
      llm::evaluate(m, {{0, 3}}, 4), llm::IndexError,
      Catch::Message("BigramCounts::count: id 3, expected < vocabulary "
                     "size 3"));
  CHECK_THROWS_MATCHES(
      m.probability(5, 0), llm::IndexError,
      Catch::Message("BigramCounts::count: id 5, expected < vocabulary "
                     "size 3"));
  CHECK_THROWS_MATCHES(
      llm::choose_alpha(hand_counts(), {{0, 1}}, 2, {}), llm::ConfigError,
      Catch::Message("choose_alpha: the grid is empty, expected an alpha"));
}

TEST_CASE("an unknown id counts nothing", "[bigram-baseline][bigram]") {
  BigramCounts c = hand_counts();
  CHECK_THROWS_MATCHES(
      c.add(Ids{0, 1, 3}), llm::IndexError,
      Catch::Message("BigramCounts::add: id 3, expected < vocabulary size 3"));
  // The valid pair (0, 1) before the bad id was not counted either.
  CHECK(c.count(0, 1) == 2);
  CHECK(c.total() == 5);
  CHECK_THROWS_AS(c.row_total(3), llm::IndexError);
}
