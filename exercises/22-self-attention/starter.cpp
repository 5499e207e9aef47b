// Exercise of the self-attention chapter: one attention head written
// with plain loops, which compiles, runs, and is wrong in three places.
// Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_22
#include "exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  if (q.rank() != 2 || k.shape() != q.shape() || v.rank() != 2 ||
      v.shape()[0] != q.shape()[0]) {
    throw llm::ShapeError("exercise::attention: q is " +
                          llm::to_string(q.shape()) + ", k " +
                          llm::to_string(k.shape()) + ", v " +
                          llm::to_string(v.shape()) +
                          "; want [T, d_k], [T, d_k], [T, d_v]");
  }
  const std::size_t t = q.shape()[0], dk = q.shape()[1], dv = v.shape()[1];

  // Scores: every query against every key, s[i][j] at i * t + j.
  std::vector<double> s(t * t);
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < dk; ++c) dot += q.at({i, c}) * k.at({j, c});
      s[i * t + j] = dot / static_cast<double>(dk);
    }
  }
  // Probabilities: the stable softmax of each query's scores.
  for (std::size_t j = 0; j < t; ++j) {
    double m = s[j];
    for (std::size_t i = 1; i < t; ++i) m = std::max(m, s[i * t + j]);
    double total = 0.0;
    for (std::size_t i = 0; i < t; ++i) {
      s[i * t + j] = std::exp(s[i * t + j] - m);
      total += s[i * t + j];
    }
    for (std::size_t i = 0; i < t; ++i) s[i * t + j] /= total;
  }
  // Outputs: each query's weighted sum of the values.
  std::vector<double> out(t * dv, 0.0);
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) {
      for (std::size_t c = 0; c < dv; ++c) {
        out[i * dv + c] += s[j * t + i] * v.at({j, c});
      }
    }
  }
  return Tensor({t, dv}, std::move(out));
}

}  // namespace exercise
