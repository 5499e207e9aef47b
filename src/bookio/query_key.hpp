// The table of an attention matrix: a row per query, a column per key.
// The self-attention, causal-masking and multi-head-attention chapters
// place it. In a causal table every cell says what the mask does there,
// as a CSS class (the colour) and as a word (for readers who cannot see
// the colour); the words are the ones the workbench uses.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "bookio/bookio.hpp"

namespace book {

/// How query_key_table lays out a [queries, keys] matrix.
struct QueryKeyLayout {
  std::string row_label = "token";  // rows "token 0", "token 1", ...
  bool row_sums = false;            // a last column with each row's sum
  bool causal = false;              // mark each key seen, self or blocked
};

/// The note under a causal table: what its marks mean.
inline constexpr const char* causal_note =
    "seen: an earlier key; self: the query's own position, on the "
    "diagonal; blocked: a future key";

/// Cell (query i, key j) of a causal table. A key after the query is
/// "blocked" (class blocked), and an exact 0 there shows as "0"; the
/// query's own key is "self" (class diagonal); an earlier key is "seen".
inline Cell causal_cell(double v, std::size_t i, std::size_t j) {
  if (j > i) {
    return {.text = v == 0.0 ? "0" : fixed(v), .classes = "blocked",
            .mark = "blocked"};
  }
  return {.text = fixed(v), .classes = j == i ? "diagonal" : "",
          .mark = j == i ? "self" : "seen"};
}

/// The table of m, [queries, keys] (anything with shape() and
/// at({i, j})): a row per query, a column "key j" per key, each value at
/// six decimals. book::query_key_table("Scores", s, {.row_sums = true}).
template <class Matrix>
Table query_key_table(std::string caption, const Matrix& m,
                      const QueryKeyLayout& layout = {}) {
  Table t{.caption = std::move(caption), .columns = {"query"}, .rows = {},
          .note = layout.causal ? causal_note : ""};
  const std::size_t queries = m.shape()[0], keys = m.shape()[1];
  for (std::size_t j = 0; j < keys; ++j) {
    t.columns.push_back("key " + std::to_string(j));
  }
  if (layout.row_sums) t.columns.push_back("row sum");
  for (std::size_t i = 0; i < queries; ++i) {
    std::vector<Cell> row = {head(layout.row_label + " " + std::to_string(i))};
    double sum = 0.0;  // left to right, as the reader adds the row
    for (std::size_t j = 0; j < keys; ++j) {
      const double v = m.at({i, j});
      sum += v;
      row.push_back(layout.causal ? causal_cell(v, i, j) : number(v));
    }
    if (layout.row_sums) row.push_back(number(sum));
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace book
