// The exercise tests of the next-token-examples chapter. They call
// exercise::window_count and exercise::example_at (starter.cpp, once
// fixed) on documents short enough to list every window by hand, then
// compare them with the book's ExampleSet.
#include <catch2/catch.hpp>

#include <vector>

#include "exercise.hpp"

TEST_CASE("window counts by hand") {
  // A window is T inputs and the id after the last: T + 1 ids. With
  // T = 4, a document of 10 ids has windows starting at 0 .. 5 (the one
  // at 5 ends at id 9): 6 of them; with stride 2, those at 0, 2, 4: 3.
  CHECK(exercise::window_count(10, {.context = 4, .stride = 1}) == 6);
  CHECK(exercise::window_count(10, {.context = 4, .stride = 2}) == 3);
  // 5 ids make exactly one window.
  CHECK(exercise::window_count(5, {.context = 4, .stride = 1}) == 1);
}

TEST_CASE("a document of T ids or fewer has no window") {
  // 4 ids give 4 inputs but no target for the last: no example. (With
  // unsigned sizes, 4 - 4 - 1 wraps to 2^64 - 1: divided by a stride of 2
  // and plus one it is a huge count; with stride 1 it wraps back to 0 and
  // hides.)
  INFO("T = 4: documents of 4, 3 and 0 ids");
  CHECK(exercise::window_count(4, {.context = 4, .stride = 1}) == 0);
  CHECK(exercise::window_count(4, {.context = 4, .stride = 2}) == 0);
  CHECK(exercise::window_count(3, {.context = 4, .stride = 1}) == 0);
  CHECK(exercise::window_count(0, {.context = 4, .stride = 1}) == 0);
}

TEST_CASE("example i by hand, across documents") {
  // T = 4, S = 2; lengths 3, 10, 6. Document 0 has no window; document 1
  // has windows at 0, 2, 4 (examples 0-2); document 2, of 6 ids, one at 0
  // (example 3); there is no example 4.
  const std::vector<std::size_t> lengths = {3, 10, 6};
  const llm::WindowConfig c{.context = 4, .stride = 2};
  CHECK(exercise::example_at(lengths, c, 0) == exercise::Position{1, 0});
  CHECK(exercise::example_at(lengths, c, 1) == exercise::Position{1, 2});
  CHECK(exercise::example_at(lengths, c, 2) == exercise::Position{1, 4});
  CHECK(exercise::example_at(lengths, c, 3) == exercise::Position{2, 0});
  CHECK_THROWS_AS(exercise::example_at(lengths, c, 4), llm::IndexError);
}

TEST_CASE("every example where the book's ExampleSet puts it") {
  const std::vector<std::size_t> lengths = {12, 4, 9, 5, 30, 1, 17};
  for (std::size_t stride : {1, 3}) {
    const llm::WindowConfig c{.context = 4, .stride = stride};
    std::vector<std::vector<llm::TokenId>> docs;
    for (std::size_t n : lengths) docs.emplace_back(n, 0);
    const llm::ExampleSet set(docs, c);
    for (std::size_t d = 0; d < lengths.size(); ++d) {
      INFO("document " << d << " of " << lengths[d] << " ids, stride " << stride);
      CHECK(exercise::window_count(lengths[d], c) ==
            llm::window_count(lengths[d], c));
    }
    for (std::size_t i = 0; i < set.size(); ++i) {
      INFO("example " << i << ", stride " << stride);
      const llm::Example e = set.at(i);
      CHECK(exercise::example_at(lengths, c, i) ==
            exercise::Position{e.document, e.start});
    }
  }
}
