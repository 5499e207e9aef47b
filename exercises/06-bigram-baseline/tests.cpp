// The exercise tests of the bigram-baseline chapter. They call
// exercise::probability and exercise::bigram_loss (starter.cpp, once
// fixed) on counts small enough to work out by hand, and compare the loss
// with the book's evaluate on random documents.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "exercise.hpp"

namespace {

using Docs = std::vector<std::vector<llm::TokenId>>;

// V = 3, trained on the one document 0 1 0 2: c(0,1) = c(1,0) = c(0,2) = 1,
// n(0) = 2, n(1) = 1, n(2) = 0.
llm::BigramCounts hand_counts() {
  llm::BigramCounts counts(3);
  const std::vector<llm::TokenId> doc = {0, 1, 0, 2};
  counts.add(doc);
  return counts;
}

}  // namespace

TEST_CASE("add-alpha probabilities by hand") {
  const llm::BigramCounts c = hand_counts();
  // alpha = 1, V = 3: p(1 | 0) = (1 + 1) / (2 + 3) = 0.4,
  // p(0 | 0) = (0 + 1) / 5 = 0.2, p(0 | 1) = (1 + 1) / (1 + 3) = 0.5,
  // and the unseen row 2 is uniform: 1 / 3.
  CHECK(exercise::probability(c, 1.0, 0, 1) == Approx(0.4).margin(1e-15));
  CHECK(exercise::probability(c, 1.0, 0, 0) == Approx(0.2).margin(1e-15));
  CHECK(exercise::probability(c, 1.0, 1, 0) == Approx(0.5).margin(1e-15));
  CHECK(exercise::probability(c, 1.0, 2, 1) == Approx(1.0 / 3).margin(1e-15));
}

TEST_CASE("every row of probabilities sums to one") {
  const llm::BigramCounts c = hand_counts();
  for (double alpha : {0.01, 1.0}) {
    for (llm::TokenId a = 0; a < 3; ++a) {
      double sum = 0.0;
      for (llm::TokenId b = 0; b < 3; ++b) {
        sum += exercise::probability(c, alpha, a, b);
      }
      INFO("row a = " << a << ", alpha = " << alpha);
      CHECK(sum == Approx(1.0).margin(1e-12));
    }
  }
}

TEST_CASE("the loss counts pairs inside documents, in nats") {
  // Documents [0 1] and [2 0]: two predictions, p(1 | 0) = 0.4 and
  // p(0 | 2) = 1 / 3, so nll = -ln 0.4 - ln(1/3) = ln 2.5 + ln 3 = ln 7.5.
  // The pair (1, 2) across the boundary is no prediction: document 2
  // does not follow document 1.
  const llm::SplitLoss loss =
      exercise::bigram_loss(hand_counts(), 1.0, Docs{{0, 1}, {2, 0}}, 4);
  INFO("predictions: one per id after the first of each document");
  CHECK(loss.predictions == 2);
  INFO("nll: natural logarithms, ln 7.5 = 2.014903...");
  CHECK(loss.nll == Approx(std::log(7.5)).margin(1e-12));
  CHECK(loss.bytes == 4);
}

TEST_CASE("the loss equals the book's evaluate on random documents") {
  // Counts from 20 random documents over V = 7, evaluated on 10 others.
  std::uint64_t state = 99;
  auto next = [&] {  // a small linear congruential generator
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<llm::TokenId>((state >> 33) % 7);
  };
  auto docs_of = [&](int n) {
    Docs docs;
    for (int d = 0; d < n; ++d) {
      std::vector<llm::TokenId> doc(2 + d % 5);
      for (auto& id : doc) id = next();
      docs.push_back(doc);
    }
    return docs;
  };
  llm::BigramCounts counts(7);
  for (const auto& d : docs_of(20)) counts.add(d);
  const Docs test = docs_of(10);
  const llm::SplitLoss want =
      llm::evaluate(llm::BigramModel(counts, 0.1), test, 100);
  const llm::SplitLoss got = exercise::bigram_loss(counts, 0.1, test, 100);
  CHECK(got.predictions == want.predictions);
  CHECK(got.nll == Approx(want.nll).epsilon(1e-12));
}
