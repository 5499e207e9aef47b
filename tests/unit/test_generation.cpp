// Tests for chapter end-to-end: cached generation against the uncached
// generation of the sampling chapter (the same tokens, since decode_step's
// logits equal model_forward's bit for bit and both draw one uniform per
// token), the stop token, the rebuild of a full cache against a plain
// loop over decode_step (generation_fixture.hpp, shared with the
// chapter's exercise), and each rejected input with its message,
// drawing nothing.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "llm/error.hpp"
#include "llm/generation.hpp"
#include "llm/kv_cache.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"
#include "generation_fixture.hpp"
#include "message_of.hpp"

TEST_CASE("cached generation draws the tokens uncached generation draws",
          "[end-to-end][generation]") {
  const llm::Parameters p = spread_model();
  for (double t : {0.0, 0.8, 1.5}) {
    const llm::SamplingOptions o{.temperature = t, .top_k = 5};
    llm::Rng a(7), b(7);
    // 3 prompt ids + 6 drawn = 9 < context 10: the cache never fills.
    const Ids cached = llm::generate_cached(p, kConfig, {1, 2, 3}, 6, o, a, kNever);
    const Ids uncached = llm::generate(p, kConfig, {1, 2, 3}, 6, o, b);
    INFO("temperature " << t);
    CHECK(cached == uncached);
    CHECK(a.state() == b.state());  // one uniform per token both ways
  }
}

TEST_CASE("generation stops after drawing the stop token, without it",
          "[end-to-end][generation]") {
  const llm::Parameters p = spread_model();
  const llm::SamplingOptions greedy{.temperature = 0.0};
  llm::Rng a(1);
  const Ids all = llm::generate_cached(p, kConfig, {4}, 5, greedy, a, kNever);
  REQUIRE(all.size() == 6);
  // Greedy draws are fixed, so with all[3] as the stop token generation
  // ends at its first draw, which may come before position 3 if greedy
  // repeats itself; everything before it is kept.
  std::size_t first = 1;
  while (all[first] != all[3]) ++first;
  llm::Rng b(1);
  const Ids cut = llm::generate_cached(p, kConfig, {4}, 5, greedy, b, all[3]);
  CHECK(cut == Ids(all.begin(), all.begin() + first));
}

TEST_CASE("a full cache is rebuilt from the last half of the context",
          "[end-to-end][generation]") {
  // Context 10: after the 10th position is read, the next token is read
  // into a new cache holding the last 5 ids. The reference is that rule
  // written as a plain loop over decode_step.
  const llm::Parameters p = spread_model();
  const llm::SamplingOptions o{.temperature = 1.0};
  llm::Rng a(3), b(3);
  const Ids got = llm::generate_cached(p, kConfig, {1, 2}, 15, o, a, kNever);
  CHECK(got == rebuilt_by_hand(p, o, b, {1, 2}, 15));
}

TEST_CASE("bad generation inputs are rejected before any draw",
          "[end-to-end][generation]") {
  const llm::Parameters p = spread_model();
  llm::Rng rng(5);
  const std::uint64_t before = rng.state();
  CHECK(message_of<llm::IndexError>([&] {
          llm::generate_cached(p, kConfig, {}, 3, {}, rng, kNever);
        }) == "generate_cached: the context holds 0 ids, expected 1 to 9");
  CHECK(message_of<llm::IndexError>([&] {
          llm::generate_cached(p, kConfig, Ids(10, 1), 3, {}, rng, kNever);
        }) == "generate_cached: the context holds 10 ids, expected 1 to 9");
  CHECK(message_of<llm::IndexError>([&] {
          llm::generate_cached(p, kConfig, {1, 13}, 3, {}, rng, kNever);
        }) == "generate_cached: id 13 at position 1, expected an id below 13");
  CHECK_THROWS_AS(llm::generate_cached(p, kConfig, {1}, 3,
                                       {.temperature = -1.0}, rng, kNever),
                  llm::ConfigError);
  CHECK(rng.state() == before);
}
