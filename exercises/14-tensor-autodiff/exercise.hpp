// The function the tensor-autodiff chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// The same contract as llm::sum_to: sums the gradient `g` over the
/// axes that broadcasting stretched, down to `shape` (the VJP of
/// broadcasting a tensor of `shape` to g's shape). Leading axes that
/// broadcasting added are summed away; an axis of extent 1 in `shape`
/// that g stretches is summed and kept as 1. Throws llm::ShapeError
/// unless g's shape is a broadcast of `shape`.
llm::Tensor sum_to(const llm::Tensor& g, const llm::Shape& shape);

}  // namespace exercise
