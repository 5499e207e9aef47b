// Shared by the unit tests of whole models (neural-ngram, decoder-model):
// the central-difference check of a loss with respect to every parameter.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/params.hpp"

// What check_every_parameter checked.
struct ParameterCheck {
  std::size_t parameters = 0, coordinates = 0;
};

// Checks the tape's gradient of f, which reads the parameters of p in
// p's order, against central differences: every parameter within 1e-7,
// naming one that is not.
inline ParameterCheck check_every_parameter(const llm::TapeFunction& f,
                                            const llm::Parameters& p) {
  std::vector<llm::Tensor> in;
  for (const llm::NamedTensor& n : p.list()) in.push_back(n.value);
  const std::vector<llm::GradientError> errors =
      llm::check_tape_gradients(f, in);
  REQUIRE(errors.size() == in.size());  // one error report per parameter
  ParameterCheck checked{in.size(), 0};
  for (std::size_t i = 0; i < errors.size(); ++i) {
    INFO(p.list()[i].name);
    CHECK(errors[i].max_rel < 1e-7);
    checked.coordinates += in[i].numel();
  }
  return checked;
}
