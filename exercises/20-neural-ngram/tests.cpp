// The exercise tests of the neural-ngram chapter. They call
// exercise::ngram_windows (starter.cpp, once fixed) on documents short
// enough that every window is written out by hand in the comments. Each
// test names what it checks.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"
#include "llm/error.hpp"

namespace {

using Ids = std::vector<std::size_t>;

}  // namespace

TEST_CASE("one document, n = 3: every window of three ids") {
  // [5 6 7 8] has two windows: (5, 6) -> 7 and (6, 7) -> 8.
  const llm::NgramBatch b = exercise::ngram_windows({{5, 6, 7, 8}}, 3);
  CHECK(b.context == 2);
  CHECK(b.contexts == Ids{5, 6, 6, 7});
  CHECK(b.targets == Ids{7, 8});
}

TEST_CASE("a context never holds its own target") {
  // n = 4 over [1 2 3 4 5]: (1, 2, 3) -> 4 and (2, 3, 4) -> 5. The
  // target is the id right after the context, never inside it.
  const llm::NgramBatch b = exercise::ngram_windows({{1, 2, 3, 4, 5}}, 4);
  CHECK(b.contexts == Ids{1, 2, 3, 2, 3, 4});
  CHECK(b.targets == Ids{4, 5});
}

TEST_CASE("windows stay inside their document") {
  // [1 2 3] and [4 5 6] with n = 3: (1, 2) -> 3 and (4, 5) -> 6 only.
  // (2, 3) -> 4 or (3, 4) -> 5 would read across the boundary.
  const llm::NgramBatch b =
      exercise::ngram_windows({{1, 2, 3}, {4, 5, 6}}, 3);
  CHECK(b.contexts == Ids{1, 2, 4, 5});
  CHECK(b.targets == Ids{3, 6});
}

TEST_CASE("n = 2 gives the bigram's pairs") {
  // [0 1 2]: 0 -> 1 and 1 -> 2, one context id each.
  const llm::NgramBatch b = exercise::ngram_windows({{0, 1, 2}}, 2);
  CHECK(b.context == 1);
  CHECK(b.contexts == Ids{0, 1});
  CHECK(b.targets == Ids{1, 2});
}

TEST_CASE("a document shorter than n is rejected") {
  CHECK_THROWS_AS(exercise::ngram_windows({{1, 2, 3}, {4, 5}}, 3),
                  llm::ConfigError);
  CHECK_THROWS_AS(exercise::ngram_windows({{1, 2, 3}}, 1),
                  llm::ConfigError);
}
