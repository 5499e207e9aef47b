// Tests of book::query_key_table (src/bookio/query_key.hpp), the table of
// an attention matrix. The expected cells are worked out by hand from a
// 3 x 3 matrix whose values are exact in binary.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "bookio/query_key.hpp"

namespace {

// Stands in for a [rows, cols] llm::Tensor: shape() and at({i, j}).
struct FakeMatrix {
  std::vector<std::size_t> dims;
  std::vector<double> values;
  const std::vector<std::size_t>& shape() const { return dims; }
  double at(const std::vector<std::size_t>& index) const {
    return values[index[0] * dims[1] + index[1]];
  }
};

std::vector<std::string> texts(const std::vector<book::Cell>& row) {
  std::vector<std::string> out;
  for (const book::Cell& c : row) out.push_back(c.text);
  return out;
}

}  // namespace

TEST_CASE("query_key_table: a row per query, a column per key, row sums",
          "[tool][bookio]") {
  const FakeMatrix m{{2, 3}, {0.5, 0.25, 0.25, 1.0, -0.5, 0.125}};
  const book::Table t =
      book::query_key_table("Weights", m, {.row_sums = true});
  CHECK(t.caption == "Weights");
  CHECK(t.note.empty());
  CHECK(t.columns == std::vector<std::string>{"query", "key 0", "key 1",
                                              "key 2", "row sum"});
  REQUIRE(t.rows.size() == 2);
  CHECK(texts(t.rows[0]) == std::vector<std::string>{
                                "token 0", "0.500000", "0.250000",
                                "0.250000", "1.000000"});
  // 1 - 0.5 + 0.125 = 0.625
  CHECK(texts(t.rows[1]) == std::vector<std::string>{
                                "token 1", "1.000000", "-0.500000",
                                "0.125000", "0.625000"});
  CHECK(t.rows[0][0].header);
  CHECK_FALSE(t.rows[0][1].header);
  CHECK(t.rows[1][2].classes.empty());  // no marks without causal
  CHECK(t.rows[1][2].mark.empty());
}

TEST_CASE("query_key_table: a causal table marks seen, self and blocked",
          "[tool][bookio]") {
  const double inf = std::numeric_limits<double>::infinity();
  const FakeMatrix probs{{3, 3}, {1.0, 0.0, 0.0, 0.75, 0.25, 0.0,
                                  0.5, 0.25, 0.25}};
  const book::Table t = book::query_key_table(
      "Causal", probs, {.row_label = "position", .causal = true});
  CHECK(t.note == book::causal_note);
  CHECK(t.columns.size() == 4);  // query and three keys, no row sum
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[2][0].text == "position 2");
  // Row 1: key 0 is earlier, key 1 is the query's own, key 2 is future.
  const std::vector<book::Cell>& r = t.rows[1];
  CHECK(r[1].text == "0.750000");
  CHECK(r[1].mark == "seen");
  CHECK(r[1].classes.empty());
  CHECK(r[2].text == "0.250000");
  CHECK(r[2].mark == "self");
  CHECK(r[2].classes == "diagonal");
  CHECK(r[3].text == "0");  // an exact 0 where the mask blocks
  CHECK(r[3].mark == "blocked");
  CHECK(r[3].classes == "blocked");
  // A blocked score is -inf, and a blocked value that is not 0 keeps
  // its digits: only an exact 0 is shortened.
  const FakeMatrix scores{{2, 2}, {0.0, -inf, 0.0, 0.0}};
  const book::Table s = book::query_key_table("S", scores, {.causal = true});
  CHECK(s.rows[0][1].text == "0.000000");  // the diagonal: not blocked
  CHECK(s.rows[0][2].text == "-inf");
  CHECK(s.rows[0][2].mark == "blocked");
  const FakeMatrix leak{{2, 2}, {1.0, 1e-3, 0.5, 0.5}};
  CHECK(book::query_key_table("L", leak, {.causal = true}).rows[0][2].text ==
        "0.001000");
}
