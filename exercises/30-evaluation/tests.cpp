// The exercise tests of the evaluation chapter. They call
// exercise::windows (starter.cpp, once fixed) on documents whose windows
// are listed by hand, require every target to be scored exactly once,
// and compare with the book's document_windows.
#include <catch2/catch.hpp>

#include <vector>

#include "exercise.hpp"

namespace {

using Ids = std::vector<llm::TokenId>;

Ids iota(std::size_t n) {  // the ids 0, 1, ..., n - 1
  Ids ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(llm::TokenId(i));
  return ids;
}

}  // namespace

TEST_CASE("ten ids, T = 4, by hand") {
  // Targets are ids 1..9. Window 0: inputs 0-3, targets 1-4; window 1:
  // inputs 4-7, targets 5-8; window 2: the one target left, 9, after
  // input 8.
  const std::vector<exercise::Window> w = exercise::windows(iota(10), 4);
  REQUIRE(w.size() == 3);
  CHECK(w[0] == exercise::Window{{0, 1, 2, 3}, {1, 2, 3, 4}});
  CHECK(w[1] == exercise::Window{{4, 5, 6, 7}, {5, 6, 7, 8}});
  CHECK(w[2] == exercise::Window{{8}, {9}});
}

TEST_CASE("every target of a document scored exactly once") {
  // A document of n ids has n - 1 targets, ids 1 .. n - 1 of iota(n),
  // whatever the context length.
  for (std::size_t n : {2, 5, 9, 17, 64, 65}) {
    for (std::size_t t : {1, 3, 8, 64}) {
      Ids seen;
      for (const auto& w : exercise::windows(iota(n), t)) {
        seen.insert(seen.end(), w.targets.begin(), w.targets.end());
      }
      Ids want = iota(n);
      want.erase(want.begin());
      INFO("a document of " << n << " ids, T = " << t);
      CHECK(seen == want);
    }
  }
}

TEST_CASE("the same windows as the book's document_windows") {
  const Ids doc = {5, 3, 9, 9, 1, 0, 4, 4, 7, 2, 8, 6, 1};
  for (std::size_t t : {2, 5, 12}) {
    const std::vector<llm::Batch> book = llm::document_windows({doc}, t, 1);
    const std::vector<exercise::Window> mine = exercise::windows(doc, t);
    INFO("T = " << t);
    REQUIRE(mine.size() == book.size());
    for (std::size_t j = 0; j < book.size(); ++j) {
      Ids in(book[j].inputs.ids.begin(), book[j].inputs.ids.end());
      Ids out(book[j].targets.ids.begin(), book[j].targets.ids.end());
      CHECK(mine[j] == exercise::Window{in, out});
    }
  }
}
