// The function the residual-rmsnorm chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include "llm/tensor.hpp"

namespace exercise {

/// RMS normalisation of each row (the forward pass of llm::rms_norm):
/// y[..., j] = x[..., j] / sqrt(mean over the row of x^2 + eps) * gain[j],
/// x [..., d] -> [..., d], gain [d]. Throws llm::ShapeError unless the
/// shapes fit and llm::ConfigError unless eps is finite and > 0.
llm::Tensor rms_norm(const llm::Tensor& x, const llm::Tensor& gain,
                     double eps);

}  // namespace exercise
