// Tests for chapter next-token-examples: the window count formula
// against windows counted one by one, every example of a small set
// against a plain enumeration written here, the views' memory, and every
// rejected input. Documents are short id sequences made up for the tests.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "llm/error.hpp"
#include "llm/examples.hpp"

namespace {

using llm::ExampleSet;
using llm::TokenId;
using llm::WindowConfig;
using Ids = std::vector<TokenId>;
using Docs = std::vector<Ids>;

// Windows counted by trying every start: s = 0, S, 2S, ... while the
// window's last id, s + T, is still inside the document.
std::size_t count_by_hand(std::size_t length, const WindowConfig& c) {
  std::size_t n = 0;
  for (std::size_t s = 0; s + c.context < length; s += c.stride) ++n;
  return n;
}

Ids range_ids(TokenId first, std::size_t n) {
  Ids v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = first + TokenId(k);
  return v;
}

}  // namespace

TEST_CASE("window_count on hand-worked documents",
          "[next-token-examples][examples]") {
  // L = 10, T = 4, S = 1: starts 0 .. 5 (the window 5 .. 9 is the last).
  CHECK(llm::window_count(10, {.context = 4}) == 6);
  // S = 3: starts 0 and 3; start 6 would need ids up to 10.
  CHECK(llm::window_count(10, {.context = 4, .stride = 3}) == 2);
  // S = T = 4: starts 0 and 4, sharing id 4.
  CHECK(llm::window_count(10, {.context = 4, .stride = 4}) == 2);
  // The whole document is one window when L = T + 1, none when L <= T.
  CHECK(llm::window_count(10, {.context = 9}) == 1);
  CHECK(llm::window_count(10, {.context = 10}) == 0);
  CHECK(llm::window_count(0, {.context = 1}) == 0);
}

TEST_CASE("window_count equals windows counted one by one",
          "[next-token-examples][examples]") {
  for (std::size_t length = 0; length < 40; ++length) {
    for (std::size_t t = 1; t < 12; ++t) {
      for (std::size_t s = 1; s < 9; ++s) {
        const WindowConfig c{.context = t, .stride = s};
        INFO("L=" << length << " T=" << t << " S=" << s);
        REQUIRE(llm::window_count(length, c) == count_by_hand(length, c));
      }
    }
  }
}

TEST_CASE("an example set holds exactly the windows of its documents",
          "[next-token-examples][examples]") {
  // Three documents of 5, 2 and 3 ids; T = 2. The second is too short
  // (L = 2 <= T) and yields nothing; the others 5 - 2 = 3 and 3 - 2 = 1.
  const Docs docs = {range_ids(10, 5), range_ids(20, 2), range_ids(30, 3)};
  const ExampleSet set(docs, {.context = 2});
  REQUIRE(set.size() == 4);
  CHECK(set.document_count() == 3);
  CHECK(set.token_count() == 10);

  // The plain enumeration: document by document, start by start.
  std::size_t i = 0;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    for (std::size_t s = 0; s + 2 < docs[d].size(); ++s, ++i) {
      const llm::Example e = set.at(i);
      CHECK(e.document == d);
      CHECK(e.start == s);
      CHECK(Ids(e.input.begin(), e.input.end()) ==
            Ids{docs[d][s], docs[d][s + 1]});
      CHECK(Ids(e.target.begin(), e.target.end()) ==
            Ids{docs[d][s + 1], docs[d][s + 2]});
    }
  }
  CHECK(i == set.size());
  // The last example is the only window of document 2: 30 31 -> 31 32.
  const llm::Example last = set.at(3);
  CHECK(last.document == 2);
  CHECK(last.input[0] == 30);
  CHECK(last.target[1] == 32);
}

TEST_CASE("the target is the input's view moved by one id",
          "[next-token-examples][examples]") {
  const ExampleSet set({range_ids(0, 50)}, {.context = 8, .stride = 5});
  // (50 - 8 - 1) / 5 + 1 = 9 windows, at 0, 5, ..., 40.
  REQUIRE(set.size() == 9);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const llm::Example e = set.at(i);
    CHECK(e.start == 5 * i);
    CHECK(e.input.size() == 8);
    CHECK(e.target.size() == 8);
    CHECK(e.target.data() == e.input.data() + 1);
    CHECK(e.input[0] == TokenId(5 * i));  // ids equal positions here
  }
}

TEST_CASE("document views return each document's ids",
          "[next-token-examples][examples]") {
  const Docs docs = {range_ids(7, 3), {}, range_ids(1, 4)};
  const ExampleSet set(docs, {.context = 1});
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const auto v = set.document(d);
    CHECK(Ids(v.begin(), v.end()) == docs[d]);
  }
  // 3 - 1 + 0 + 4 - 1: an empty document is allowed and yields nothing.
  CHECK(set.size() == 5);
}

TEST_CASE("bad window configurations are rejected",
          "[next-token-examples][examples]") {
  CHECK_THROWS_MATCHES(
      llm::window_count(5, {.context = 0}), llm::ConfigError,
      Catch::Message("WindowConfig: context is 0, expected > 0"));
  CHECK_THROWS_MATCHES(
      llm::window_count(5, {.context = 2, .stride = 0}), llm::ConfigError,
      Catch::Message("WindowConfig: stride is 0, expected > 0"));
  CHECK_THROWS_MATCHES(
      ExampleSet({range_ids(0, 5)}, {.context = 0}), llm::ConfigError,
      Catch::Message("WindowConfig: context is 0, expected > 0"));
}

TEST_CASE("an example set that would be empty is rejected",
          "[next-token-examples][examples]") {
  CHECK_THROWS_MATCHES(
      ExampleSet(Docs{}, {.context = 2}), llm::ConfigError,
      Catch::Message("ExampleSet: no documents, expected at least one"));
  // The longest document has 4 ids, not more than the context of 4.
  CHECK_THROWS_MATCHES(
      ExampleSet({range_ids(0, 3), range_ids(0, 4)}, {.context = 4}),
      llm::ConfigError,
      Catch::Message("ExampleSet: context is 4 ids, but the longest of 2 "
                     "documents has 4, expected a document longer than "
                     "the context"));
}

TEST_CASE("indices outside the set are rejected",
          "[next-token-examples][examples]") {
  const ExampleSet set({range_ids(0, 5)}, {.context = 2});
  CHECK_THROWS_MATCHES(
      set.at(3), llm::IndexError,
      Catch::Message("ExampleSet::at: example 3, expected < size 3"));
  CHECK_THROWS_MATCHES(
      set.document(1), llm::IndexError,
      Catch::Message("ExampleSet::document: document 1, expected < 1"));
}
