// Shared by the tape's unit tests (tensor-autodiff and later chapters):
// the type of a tape function's inputs, the largest relative error of
// the tape's gradients against central differences, over every input of
// f, and the bound those tests hold it to.
#pragma once

#include <vector>

#include "llm/autograd.hpp"

// The inputs of a tape function, as the tests' lambdas take them:
// [](llm::Tape&, const Vars& v) { ... } is an llm::TapeFunction.
using Vars = std::vector<llm::Var>;

// The largest relative error a gradient check of these tests accepts.
inline constexpr double grad_tol = 1e-8;

inline double worst_tape_error(const llm::TapeFunction& f,
                               const std::vector<llm::Tensor>& in) {
  double worst = 0.0;
  for (const llm::GradientError& e : llm::check_tape_gradients(f, in)) {
    worst = e.max_rel > worst ? e.max_rel : worst;
  }
  return worst;
}
