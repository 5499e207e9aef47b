// The exercise tests of the end-to-end chapter. They call
// exercise::generate_cached (starter.cpp, once fixed) on a small seeded
// model and compare it with the sampling chapter's uncached generate
// (equal tokens while the context has room), with the stop rule, and
// with the rebuild rule written as a plain loop
// (tests/unit/generation_fixture.hpp, shared with the unit tests).
#include <catch2/catch.hpp>

#include <vector>

#include "exercise.hpp"
#include "generation_fixture.hpp"  // tests/unit/

TEST_CASE("the same tokens as uncached generation while the context has room") {
  // Each drawn token must be read into the cache before the next draw;
  // the uncached loop runs the whole model on everything so far.
  const llm::Parameters p = spread_model();
  const llm::SamplingOptions o{.temperature = 1.0};
  llm::Rng a(7), b(7);
  const Ids got = exercise::generate_cached(p, kConfig, {1, 2, 3}, 6, o, a, kNever);
  const Ids want = llm::generate(p, kConfig, {1, 2, 3}, 6, o, b);
  CHECK(got == want);
}

TEST_CASE("the stop token ends generation and is not returned") {
  // With the first token the model draws as the stop token, nothing is
  // added to the context.
  const llm::Parameters p = spread_model();
  const llm::SamplingOptions greedy{.temperature = 0.0};
  llm::Rng a(1), b(1);
  const Ids free = exercise::generate_cached(p, kConfig, {4}, 3, greedy, a, kNever);
  REQUIRE(free.size() == 4);
  const Ids stopped = exercise::generate_cached(p, kConfig, {4}, 3, greedy, b, free[1]);
  CHECK(stopped == Ids{4});
}

TEST_CASE("a full cache is rebuilt from the last half of the tokens") {
  // Context 10: when 10 positions are held, the next drawn token is read
  // with the 4 before it into a new cache (the last 5 tokens).
  const llm::Parameters p = spread_model();
  const llm::SamplingOptions o{.temperature = 1.0};
  llm::Rng a(3), b(3);
  const Ids got = exercise::generate_cached(p, kConfig, {1, 2}, 15, o, a, kNever);
  CHECK(got == rebuilt_by_hand(p, o, b, {1, 2}, 15));
}
