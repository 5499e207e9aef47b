// Shared by the unit tests from the tensor chapters on: the small
// fixtures and comparisons that many test files use alike. Each is
// written with plain loops, independently of the library beyond Tensor's
// constructor and element access.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/tensor.hpp"

// A tensor of `shape` holding start, start + step, start + 2 step, ... in
// row-major order.
inline llm::Tensor ramp(const llm::Shape& shape, double start, double step) {
  std::vector<double> v(llm::numel(shape));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = start + step * k;
  return llm::Tensor(shape, v);
}

// Smooth, varied, deterministic values of `shape`, in row-major order:
// shift + sin(0.7 k + phase) * scale for element k.
inline llm::Tensor wave(const llm::Shape& shape, double phase, double scale,
                        double shift = 0.0) {
  std::vector<double> v(llm::numel(shape));
  for (std::size_t k = 0; k < v.size(); ++k) {
    v[k] = shift + std::sin(0.7 * double(k) + phase) * scale;
  }
  return llm::Tensor(shape, v);
}

// The buffer positions a tensor reads, in its own row-major order.
inline std::vector<std::size_t> positions(const llm::Tensor& t) {
  std::vector<std::size_t> out;
  if (t.numel() == 0) return out;
  llm::Index index(t.rank(), 0);
  do {
    out.push_back(t.offset_of(index));
  } while (llm::next_index(index, t.shape()));
  return out;
}

// max |a[i] - b[i]| over two vectors that must have the same length.
inline double max_diff(const std::vector<double>& a,
                       const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::fmax(worst, std::fabs(a[i] - b[i]));
  }
  return worst;
}

// Requires a distribution over token ids, got, to equal want id by id to
// 1e-12, naming the id that differs.
inline void require_near(const std::vector<double>& got,
                         const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t v = 0; v < want.size(); ++v) {
    INFO("token " << v << ": got " << got[v] << ", want " << want[v]);
    CHECK(std::abs(got[v] - want[v]) <= 1e-12);
  }
}
