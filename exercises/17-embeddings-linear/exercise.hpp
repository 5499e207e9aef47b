// The function the embeddings-linear chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with two
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/tensor.hpp"

namespace exercise {

/// The backward pass of an embedding lookup: given d(loss)/d(out) for
/// out = rows `ids` of a [vocab, d] table (grad_out [n, d], one row per
/// id), the gradient of the table, [vocab, d]: row v adds up the rows of
/// grad_out whose id is v, and is 0 when no id is v. Throws
/// llm::ShapeError unless grad_out is [ids.size(), d], llm::IndexError
/// for an id >= vocab.
llm::Tensor embedding_backward(const llm::Tensor& grad_out,
                               const std::vector<std::size_t>& ids,
                               std::size_t vocab);

}  // namespace exercise
