// Tests for chapter bigram-baseline: the interpolated Kneser-Ney model.
// Continuation counts and estimated discounts on a hand-worked corpus,
// its probabilities as fractions, every distribution summing to one at
// every order, the loss over documents, and every rejected input.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/error.hpp"
#include "llm/kneser_ney.hpp"
#include "message_of.hpp"
#include "splitmix.hpp"

namespace {

using llm::KneserNey;
using llm::TokenId;
using Ids = std::vector<TokenId>;
using Docs = std::vector<Ids>;

// The hand-worked corpus, V = 5: id 0 is BOS, 4 is EOS.
//   A = 0 1 2 1 2 4   predicted pairs (0,1) (1,2) (2,1) (1,2) (2,4)
//   B = 0 3 2 4       predicted pairs (0,3) (3,2) (2,4)
// Order n = 2. The top order counts occurrences:
//   a2(0,1) = 1  a2(0,3) = 1  a2(1,2) = 2  a2(2,1) = 1  a2(2,4) = 2
//   a2(3,2) = 1
// so n1 = 4, n2 = 2 and D2 = 4 / (4 + 2*2) = 1/2.
// Order 1 counts the distinct ids before each id (BOS is never
// predicted, so it has none):
//   a1(1) = |{0, 2}| = 2   a1(2) = |{1, 3}| = 2   a1(3) = |{0}| = 1
//   a1(4) = |{2}| = 1 (EOS occurs twice, always after 2)   a1(0) = 0
// so n1 = 2, n2 = 2, D1 = 2 / (2 + 4) = 1/3, S1 = 6 and T1 = 4.
// Unigrams, p1(w) = (max(a1(w) - 1/3, 0) + (1/3) * 4 * (1/5)) / 6:
//   p1(0) = (4/15) / 6         = 2/45
//   p1(1) = p1(2) = (5/3 + 4/15) / 6 = 29/90
//   p1(3) = p1(4) = (2/3 + 4/15) / 6 = 7/45
// Bigrams, p2(w | u) = (max(a2(u,w) - 1/2, 0) + (1/2) T2(u) p1(w)) / S2(u):
//   context 2: S = 3, T = 2
//     p2(4 | 2) = (3/2 + 7/45) / 3 = 149/270
//     p2(1 | 2) = (1/2 + 29/90) / 3 = 37/135
//     p2(3 | 2) = (7/45) / 3       = 7/135
//   context 1: S = 2, T = 1
//     p2(2 | 1) = (3/2 + (1/2)(29/90)) / 2 = 299/360
//     p2(4 | 1) = ((1/2)(7/45)) / 2         = 7/180
//   context 4: never seen, so p2(w | 4) = p1(w).
const Docs hand = {{0, 1, 2, 1, 2, 4}, {0, 3, 2, 4}};

// `count` documents over ids 0 .. v-1 of lengths 1 .. 12, from `seed`;
// id 0 starts each document, like BOS.
Docs random_documents(std::size_t count, std::size_t v, std::uint64_t seed) {
  Mix mix{seed};
  Docs docs(count);
  for (Ids& d : docs) {
    d.push_back(0);
    const std::size_t length = 1 + mix.next() % 12;
    while (d.size() < length) d.push_back(TokenId(1 + mix.next() % (v - 1)));
  }
  return docs;
}

}  // namespace

TEST_CASE("Kneser-Ney counts and discounts by hand",
          "[bigram-baseline][kneser-ney]") {
  const KneserNey m(hand, 5, 2);
  CHECK(m.count(Ids{1, 2}) == 2);
  CHECK(m.count(Ids{2, 4}) == 2);
  CHECK(m.count(Ids{4, 2}) == 0);
  CHECK(m.count(Ids{2}) == 2);
  CHECK(m.count(Ids{4}) == 1);  // two occurrences, one id before them
  CHECK(m.count(Ids{0}) == 0);
  CHECK(m.discount(2) == 1.0 / 2.0);
  CHECK(m.discount(1) == Approx(1.0 / 3.0).epsilon(1e-15));
}

TEST_CASE("Kneser-Ney probabilities by hand", "[bigram-baseline][kneser-ney]") {
  const KneserNey m(hand, 5, 2);
  const auto p = [&](Ids context, TokenId next) {
    return m.prob(context, next);
  };
  const double eps = 1e-15;
  CHECK(p({}, 0) == Approx(2.0 / 45.0).epsilon(eps));
  CHECK(p({}, 1) == Approx(29.0 / 90.0).epsilon(eps));
  CHECK(p({}, 3) == Approx(7.0 / 45.0).epsilon(eps));
  CHECK(p({2}, 4) == Approx(149.0 / 270.0).epsilon(eps));
  CHECK(p({2}, 1) == Approx(37.0 / 135.0).epsilon(eps));
  CHECK(p({2}, 3) == Approx(7.0 / 135.0).epsilon(eps));
  CHECK(p({1}, 2) == Approx(299.0 / 360.0).epsilon(eps));
  CHECK(p({1}, 4) == Approx(7.0 / 180.0).epsilon(eps));
  CHECK(p({4}, 3) == Approx(7.0 / 45.0).epsilon(eps));
  CHECK(p({0, 3, 1}, 2) == p({1}, 2));  // order 2 reads one id
}

TEST_CASE("Kneser-Ney at order 3 counts runs from BOS as they occur",
          "[bigram-baseline][kneser-ney]") {
  // (0,1) starts document A: nothing precedes it, so its order-2 count
  // is its one occurrence. (2,4) follows 1 in A and 3 in B: two
  // distinct ids. (1,2) occurs twice, after 0 and after 2.
  const KneserNey m(hand, 5, 3, {0.5, 0.5, 0.5});
  CHECK(m.count(Ids{0, 1}) == 1);
  CHECK(m.count(Ids{2, 4}) == 2);
  CHECK(m.count(Ids{1, 2}) == 2);
  CHECK(m.count(Ids{1, 2, 1}) == 1);
  CHECK(m.count(Ids{0, 1, 2}) == 1);
  // p3(4 | 1 2): S = 2 (1 2 1, 1 2 4), T = 2; p2(4 | 2) with D = 1/2
  // and a1 as at order 2: p1(4) = (1/2 + (1/2)(4/5)) / 6 = 3/20,
  // p2(4 | 2) = (3/2 + 3/20) / 3 = 11/20,
  // p3(4 | 1 2) = (1/2 + (1/2)(2)(11/20)) / 2 = 21/40.
  CHECK(m.prob(Ids{1, 2}, 4) == Approx(21.0 / 40.0).epsilon(1e-15));
}

TEST_CASE("Kneser-Ney distributions sum to one at every order",
          "[bigram-baseline][kneser-ney]") {
  // So small a corpus has no continuation count of 1 to estimate D_1
  // from; the discounts are given.
  const std::size_t v = 13;
  const Docs train = random_documents(60, v, 7);
  const std::vector<double> d = {0.9, 0.3, 0.6, 0.75, 1.0};
  Mix mix{11};
  for (int n = 2; n <= 5; ++n) {
    const KneserNey m(train, v, n, {d.begin(), d.begin() + n});
    for (int trial = 0; trial < 200; ++trial) {
      // Half the contexts are taken from training, so seen ones occur.
      Ids context;
      const Ids& doc = train[mix.next() % train.size()];
      const std::size_t length = mix.next() % 6;
      if (trial % 2 == 0 && doc.size() > 1) {
        const std::size_t end = 1 + mix.next() % (doc.size() - 1);
        const std::size_t begin = end > length ? end - length : 0;
        context.assign(doc.begin() + long(begin), doc.begin() + long(end));
      } else {
        for (std::size_t i = 0; i < length; ++i) {
          context.push_back(TokenId(mix.next() % v));
        }
      }
      double sum = 0.0;
      for (TokenId w = 0; w < v; ++w) {
        const double p = m.prob(context, w);
        CHECK(p > 0.0);
        sum += p;
      }
      CHECK(std::abs(sum - 1.0) <= 1e-12);
    }
  }
}

TEST_CASE("Kneser-Ney with estimated discounts sums to one everywhere",
          "[bigram-baseline][kneser-ney]") {
  // The hand-worked corpus, every context of up to four ids.
  for (int n = 2; n <= 5; ++n) {
    const KneserNey m(hand, 5, n);
    for (TokenId c = 0; c < 5 * 5 * 5 * 5; ++c) {
      const Ids context = {c / 125, c / 25 % 5, c / 5 % 5, c % 5};
      for (std::size_t length = 0; length <= 4; ++length) {
        const Ids u(context.end() - long(length), context.end());
        double sum = 0.0;
        for (TokenId w = 0; w < 5; ++w) sum += m.prob(u, w);
        CHECK(std::abs(sum - 1.0) <= 1e-12);
      }
    }
  }
}

TEST_CASE("Kneser-Ney loss sums -ln p inside each document",
          "[bigram-baseline][kneser-ney]") {
  const KneserNey m(hand, 5, 3);
  const Docs test = {{0, 1, 2, 4}, {0, 3}};
  const llm::SplitLoss l = llm::evaluate(m, test, 7);
  const double nll = -std::log(m.prob(Ids{0}, 1)) -
                     std::log(m.prob(Ids{0, 1}, 2)) -
                     std::log(m.prob(Ids{1, 2}, 4)) -
                     std::log(m.prob(Ids{0}, 3));
  CHECK(l.predictions == 4);
  CHECK(l.bytes == 7);
  CHECK(l.nll == Approx(nll).epsilon(1e-15));
}

TEST_CASE("bad Kneser-Ney inputs are rejected, one message each",
          "[bigram-baseline][kneser-ney]") {
  using llm::ConfigError;
  using llm::IndexError;
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5, 1); }) ==
        "KneserNey: order is 1, expected 2 to 5");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5, 6); }) ==
        "KneserNey: order is 6, expected 2 to 5");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 0, 2); }) ==
        "KneserNey: vocabulary size is 0, expected 1 to 4294967296 for "
        "order 2");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5000, 5); }) ==
        "KneserNey: vocabulary size is 5000, expected 1 to 4096 for "
        "order 5");
  CHECK(message_of<IndexError>([] { KneserNey(hand, 4, 2); }) ==
        "KneserNey: document 0 holds id 4, expected < vocabulary size 4");
  CHECK(message_of<ConfigError>([] { KneserNey(Docs{}, 5, 2); }) ==
        "KneserNey: 0 training documents hold no pair of ids, expected "
        "at least one prediction");
  CHECK(message_of<ConfigError>([] { KneserNey(Docs{{0}, {}}, 5, 2); }) ==
        "KneserNey: 2 training documents hold no pair of ids, expected "
        "at least one prediction");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5, 2, {0.5}); }) ==
        "KneserNey: 1 discounts, expected 2, one per order");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5, 2, {0.5, 1.5}); }) ==
        "KneserNey: discount 1.5, expected a number in (0, 1]");
  CHECK(message_of<ConfigError>([] { KneserNey(hand, 5, 2, {0.0, 0.5}); }) ==
        "KneserNey: discount 0, expected a number in (0, 1]");
  // Every pair occurs twice: no count of 1 to estimate D_2 from.
  CHECK(message_of<ConfigError>([] {
          KneserNey(Docs{{0, 1}, {0, 1}}, 5, 2);
        }) == "KneserNey: no 2-gram has count 1, cannot estimate D_2 = "
              "n1 / (n1 + 2 n2); give the discounts");
  const KneserNey m(hand, 5, 2);
  CHECK(message_of<IndexError>([&] { m.prob(Ids{1}, 5); }) ==
        "KneserNey::prob: next id 5, expected < vocabulary size 5");
  CHECK(message_of<IndexError>([&] { m.prob(Ids{7}, 1); }) ==
        "KneserNey::prob: context id 7, expected < vocabulary size 5");
  CHECK(message_of<ConfigError>([&] { m.count(Ids{1, 2, 3}); }) ==
        "KneserNey::count: 3 ids, expected 1 to 2");
  CHECK(message_of<ConfigError>([&] { llm::evaluate(m, hand, 0); }) ==
        "evaluate: the text has 0 bytes, expected > 0");
}
