// The exercise tests of the embeddings-linear chapter. They call
// exercise::embedding_backward (starter.cpp, once fixed) on lookups
// whose table gradient is worked out by hand: each output row sends
// its gradient to the table row it was copied from. Each test names
// what it checks, and a failure prints which table entry is wrong.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using llm::Tensor;

// Requires the table gradient to be `want`, row-major [vocab, d]; the
// sums are of small whole numbers, so exact.
void require_table_grad(const Tensor& grad_out,
                        const std::vector<std::size_t>& ids,
                        std::size_t vocab, const std::vector<double>& want) {
  const Tensor g = exercise::embedding_backward(grad_out, ids, vocab);
  const std::size_t d = grad_out.shape()[1];
  REQUIRE(g.shape() == llm::Shape{vocab, d});
  const std::vector<double> got = g.to_vector();
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("table row " << k / d << " (token id " << k / d << "), feature "
                      << k % d);
    CHECK(got[k] == want[k]);
  }
}

}  // namespace

TEST_CASE("each output row's gradient goes to the row it was read from") {
  // ids (2, 0, 1): output row 0 was table row 2, so table row 2 gets
  // (1, 2); row 0 gets output row 1's (3, 4); row 1 gets (5, 6). No id
  // is 3, so table row 3 gets nothing.
  require_table_grad(Tensor({3, 2}, {1, 2, 3, 4, 5, 6}), {2, 0, 1}, 4,
                     {3, 4, 5, 6, 1, 2, 0, 0});
}

TEST_CASE("a repeated id adds up the gradients of all its rows") {
  // ids (1, 2, 1): token 1 was read twice, by output rows 0 and 2, so
  // its row's gradient is 1 + 100 = 101; token 2's is 10.
  require_table_grad(Tensor({3, 1}, {1, 10, 100}), {1, 2, 1}, 3,
                     {0, 101, 10});
}

TEST_CASE("an id outside the vocabulary is rejected") {
  CHECK_THROWS_AS(exercise::embedding_backward(Tensor({1, 2}), {3}, 3),
                  llm::IndexError);
}
