// Exercise of the sampling chapter: a top-p (nucleus) distribution that
// compiles, runs, and is wrong in three places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_32
#include "exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

namespace exercise {

std::vector<double> top_p_distribution(const std::vector<double>& logits,
                                       double p) {
  if (!(p > 0.0 && p <= 1.0)) {
    throw llm::ConfigError("top_p_distribution: p is " + std::to_string(p) +
                           ", expected 0 < p <= 1");
  }
  const std::size_t n = logits.size();

  // The softmax, shifted by the largest logit.
  const double m = *std::max_element(logits.begin(), logits.end());
  std::vector<double> prob(n);
  double total = 0.0;
  for (std::size_t v = 0; v < n; ++v) {
    prob[v] = std::exp(logits[v] - m);
    total += prob[v];
  }
  for (double& x : prob) x /= total;

  // Rank the ids, most probable first; equal probabilities by id.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return prob[a] > prob[b] || (prob[a] == prob[b] && a > b);
  });

  // Keep the fewest ranked tokens whose mass reaches p.
  std::size_t keep = n;
  double running = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    running += prob[order[i]];
    if (running > p) {
      keep = i + 1;
      break;
    }
  }

  // Renormalise the survivors; everything else gets 0.
  double mass = 0.0;
  for (std::size_t i = 0; i < n; ++i) mass += prob[order[i]];
  std::vector<double> q(n, 0.0);
  for (std::size_t i = 0; i < keep; ++i) q[order[i]] = prob[order[i]] / mass;
  return q;
}

}  // namespace exercise
