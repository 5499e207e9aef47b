// Exercise of the kv-cache chapter: one attention head reading one new
// token against its cache, which compiles, runs, and is wrong in three
// places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_33
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace exercise {

namespace {

using Row = std::vector<double>;

// x's pairs (2k, 2k + 1) turned by the angles of `position`.
void rotate(Row& x, const llm::Rope& rope, std::size_t position) {
  for (std::size_t k = 0; 2 * k < x.size(); ++k) {
    const double c = std::cos(rope.angle(position, k));
    const double s = std::sin(rope.angle(position, k));
    const double a = x[2 * k], b = x[2 * k + 1];
    x[2 * k] = a * c - b * s;
    x[2 * k + 1] = a * s + b * c;
  }
}

double dot(const Row& a, const Row& b) {
  double sum = 0.0;
  for (std::size_t e = 0; e < a.size(); ++e) sum += a[e] * b[e];
  return sum;
}

}  // namespace

Row attend_new_token(const llm::Rope& rope, HeadCache& cache, Row q, Row k,
                     const Row& v) {
  const std::size_t t = cache.keys.size();  // the new token's position
  rotate(q, rope, 0);
  rotate(k, rope, t);
  // The new position joins the cache before the query reads it.
  cache.keys.assign(1, k);
  cache.values.push_back(v);
  // One score per cached position, the new one included.
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size()));
  Row scores;
  std::vector<const Row*> rows;
  for (std::size_t j = 0; j < cache.keys.size(); ++j) {
    scores.push_back(dot(q, cache.keys[j]) * scale);
    rows.push_back(&cache.values[j]);
  }
  scores.push_back(dot(q, k) * scale);
  rows.push_back(&v);
  // Softmax over the scores, then the weighted sum of the values.
  double top = scores[0], total = 0.0;
  for (double s : scores) top = s > top ? s : top;
  for (double& s : scores) total += (s = std::exp(s - top));
  Row out(v.size(), 0.0);
  for (std::size_t j = 0; j < scores.size(); ++j) {
    for (std::size_t e = 0; e < out.size(); ++e) {
      out[e] += scores[j] / total * (*rows[j])[e];
    }
  }
  return out;
}

}  // namespace exercise
