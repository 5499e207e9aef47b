// The function the broadcasting-reductions chapter's exercise asks for.
// The exercise tests (tests.cpp) call it; starter.cpp defines it with
// three mistakes for the reader to find and fix.
#pragma once

#include <optional>

#include "llm/ops.hpp"

namespace exercise {

/// The common shape of `a` and `b` under broadcasting, as
/// llm::broadcast_shape: the shapes are aligned at their last axes, a
/// missing axis counts as extent 1, equal extents stay, and an extent 1
/// stretches to the other (even to 0). std::nullopt when two aligned
/// extents differ and neither is 1.
std::optional<llm::Shape> broadcast_shape(const llm::Shape& a,
                                          const llm::Shape& b);

}  // namespace exercise
