// The function the batches-adamw chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstdint>
#include <vector>

#include "llm/adamw.hpp"

namespace exercise {

/// What AdamW carries from one step of one parameter to the next.
struct Moments {
  std::uint64_t step = 0;  ///< steps taken so far
  std::vector<double> m;   ///< first moments; empty before the first step
  std::vector<double> v;   ///< second moments; empty before the first step
};

/// One AdamW step of one parameter, the update llm::AdamW::step makes:
/// t = step + 1, m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2, then
/// theta -= lr (m / (1 - b1^t) / (sqrt(v / (1 - b2^t)) + eps) +
/// lambda theta), with lambda = options.weight_decay when `decay` and 0
/// otherwise (options.decays is not consulted). Throws llm::ShapeError
/// unless `grad` has one number per weight.
void adamw_step(std::vector<double>& theta, const std::vector<double>& grad,
                Moments& state, const llm::AdamWOptions& options,
                bool decay);

}  // namespace exercise
