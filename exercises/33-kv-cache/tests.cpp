// The exercise tests of the kv-cache chapter. They call
// exercise::attend_new_token (starter.cpp, once fixed) on one head of
// width d_h = 4 with RoPE base 100, token after token, and check the
// cache after each token and every output against causal attention over
// the whole sequence, computed here with plain loops from the rotation
// written out in the rope chapter. Each test names what it checks, and a
// failure prints which position and feature are wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "exercise.hpp"

namespace {

using Row = std::vector<double>;

const llm::Rope rope(4, 8, 100.0);  // theta = 1 and 0.1 rad per position

// Five tokens' queries, keys and values, d_h = 4 each.
const std::vector<Row> qs = {{1, 0, 0.5, -1},   {0.2, 1, -0.3, 0.4},
                             {-1, 0.5, 1, 0},   {0.3, -0.7, 0.2, 1},
                             {0.9, 0.1, -1, 0.6}};
const std::vector<Row> ks = {{0.5, -1, 1, 0.25}, {1, 1, 0, -0.5},
                             {-0.4, 0.8, 0.6, 1}, {0, -1, 1, 1},
                             {0.7, 0.3, -0.2, -0.9}};
const std::vector<Row> vs = {{1, 2, 3, 4},      {-1, 0, 1, 0},
                             {0.5, 0.5, -2, 1}, {3, -1, 0, 2},
                             {0, 1, -1, 0.5}};

// x's pair k turned by p * theta_k, theta = (1, 0.1): plain loops.
Row turned(const Row& x, std::size_t p) {
  const double theta[2] = {1.0, 0.1};
  Row y(4);
  for (std::size_t k = 0; k < 2; ++k) {
    const double c = std::cos(double(p) * theta[k]);
    const double s = std::sin(double(p) * theta[k]);
    y[2 * k] = x[2 * k] * c - x[2 * k + 1] * s;
    y[2 * k + 1] = x[2 * k] * s + x[2 * k + 1] * c;
  }
  return y;
}

// The causal head's output at position t over tokens 0 .. t.
Row reference(std::size_t t) {
  const Row q = turned(qs[t], t);
  std::vector<double> w;
  double total = 0.0;
  for (std::size_t j = 0; j <= t; ++j) {
    const Row key = turned(ks[j], j);
    double s = 0.0;
    for (std::size_t e = 0; e < 4; ++e) s += q[e] * key[e];
    w.push_back(std::exp(s / 2.0));  // sqrt(d_h) = 2
    total += w.back();
  }
  Row out(4, 0.0);
  for (std::size_t j = 0; j <= t; ++j) {
    for (std::size_t e = 0; e < 4; ++e) out[e] += w[j] / total * vs[j][e];
  }
  return out;
}

void require_near(const Row& got, const Row& want, const char* what,
                  std::size_t t) {
  REQUIRE(got.size() == want.size());
  for (std::size_t e = 0; e < want.size(); ++e) {
    INFO(what << " at position " << t << ", feature " << e);
    CHECK(got[e] == Approx(want[e]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("the first token sees only itself: its output is its value") {
  exercise::HeadCache cache;
  require_near(exercise::attend_new_token(rope, cache, qs[0], ks[0], vs[0]),
               vs[0], "output", 0);
}

TEST_CASE("after t tokens the cache holds t rows: key j turned for "
          "position j, value j as given") {
  exercise::HeadCache cache;
  for (std::size_t t = 0; t < qs.size(); ++t) {
    exercise::attend_new_token(rope, cache, qs[t], ks[t], vs[t]);
    INFO("after " << t + 1 << " tokens");
    REQUIRE(cache.keys.size() == t + 1);
    REQUIRE(cache.values.size() == t + 1);
    for (std::size_t j = 0; j <= t; ++j) {
      require_near(cache.keys[j], turned(ks[j], j), "cached key", j);
      require_near(cache.values[j], vs[j], "cached value", j);
    }
  }
}

TEST_CASE("every output equals causal attention over the whole sequence") {
  exercise::HeadCache cache;
  for (std::size_t t = 0; t < qs.size(); ++t) {
    require_near(exercise::attend_new_token(rope, cache, qs[t], ks[t], vs[t]),
                 reference(t), "output", t);
  }
}
