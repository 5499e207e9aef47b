// Tests for chapter residual-rmsnorm: rms_norm against hand values and a
// plain-loop reference, its VJP against hand derivations and central
// differences, its errors, and the identity term of a residual path.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "message_of.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/params.hpp"
#include "llm/rmsnorm.hpp"
#include "llm/swiglu.hpp"
#include "llm/tensor.hpp"
#include "tape_check.hpp"

namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;

Tensor ones(std::size_t d) { return Tensor({d}, std::vector<double>(d, 1.0)); }

// eps so small that adding it to a mean square of order 1 changes nothing.
const double no_eps = 1e-300;

}  // namespace

TEST_CASE("rms_norm divides by the root mean square",
          "[residual-rmsnorm]") {
  // (1, 2, 2, 4): mean square 25/4, r = 5/2.
  Tape tape;
  const Var x = tape.leaf(Tensor({1, 4}, {1, 2, 2, 4}));
  const Var y = llm::rms_norm(x, tape.leaf(ones(4)), no_eps);
  REQUIRE(y.shape() == Shape{1, 4});
  REQUIRE(y.value().to_vector() == std::vector<double>{0.4, 0.8, 0.8, 1.6});
}

TEST_CASE("rms_norm and its VJP by hand", "[residual-rmsnorm]") {
  // The exercise: x = (3, -4), gain (1, 2), r = 5/sqrt(2),
  // y = (3 sqrt2/5, -8 sqrt2/5); loss y1 + y2 gives
  // dx = sqrt2/5 * (1.6, 1.2), dgain = xhat = (3 sqrt2/5, -4 sqrt2/5).
  Tape tape;
  const Var x = tape.leaf(Tensor({2}, {3, -4}));
  const Var g = tape.leaf(Tensor({2}, {1, 2}));
  const Var y = llm::rms_norm(x, g, no_eps);
  const double s = std::sqrt(2.0) / 5.0;
  REQUIRE(y.value().at({0}) == Approx(3 * s));
  REQUIRE(y.value().at({1}) == Approx(-8 * s));
  tape.backward(y, Tensor({2}, {1, 1}));
  REQUIRE(x.grad().at({0}) == Approx(1.6 * s));
  REQUIRE(x.grad().at({1}) == Approx(1.2 * s));
  REQUIRE(g.grad().at({0}) == Approx(3 * s));
  REQUIRE(g.grad().at({1}) == Approx(-4 * s));
}

TEST_CASE("the gain's gradient sums over rows and ignores scale",
          "[residual-rmsnorm]") {
  // Rows (1, 0) and (0, 2): xhat = (sqrt2, 0) and (0, sqrt2); the sum of
  // outputs gives dgain = (sqrt2, sqrt2). Rows (5, 0), (0, 7): the same.
  for (const Tensor& rows : {Tensor({2, 2}, {1, 0, 0, 2}),
                             Tensor({2, 2}, {5, 0, 0, 7})}) {
    Tape tape;
    const Var g = tape.leaf(ones(2));
    const Var y = llm::rms_norm(tape.leaf(rows), g, no_eps);
    tape.backward(y, Tensor({2, 2}, {1, 1, 1, 1}));
    REQUIRE(g.grad().at({0}) == Approx(std::sqrt(2.0)));
    REQUIRE(g.grad().at({1}) == Approx(std::sqrt(2.0)));
  }
}

TEST_CASE("rms_norm equals a plain-loop reference with eps",
          "[residual-rmsnorm]") {
  const Tensor x = ramp({2, 3, 4}, -1.1, 0.1);
  const Tensor g = Tensor({4}, {0.5, -1.0, 2.0, 1.5});
  Tape tape;
  const Var y = llm::rms_norm(tape.leaf(x), tape.leaf(g), 1e-2);
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t t = 0; t < 3; ++t) {
      double ms = 0.0;
      for (std::size_t j = 0; j < 4; ++j) {
        ms += x.at({b, t, j}) * x.at({b, t, j}) / 4.0;
      }
      for (std::size_t j = 0; j < 4; ++j) {
        const double want =
            x.at({b, t, j}) / std::sqrt(ms + 1e-2) * g.at({j});
        REQUIRE(y.value().at({b, t, j}) == Approx(want).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("rms_norm passes the finite-difference check",
          "[residual-rmsnorm]") {
  const Tensor g = Tensor({5}, {0.5, -1.0, 2.0, 1.5, 0.8});
  for (const double eps : {1e-5, 0.1, 3.0}) {
    REQUIRE(worst_tape_error([eps](Tape&, const Vars& v) {
              return llm::rms_norm(v[0], v[1], eps);
            }, {ramp({2, 3, 5}, -1.3, 0.09), g}) < grad_tol);
  }
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            return llm::rms_norm(v[0], v[1]);
          }, {ramp({5}, 0.4, -0.3), g}) < grad_tol);
  // A transposed (non-contiguous) input: [5, 3] viewed as [3, 5].
  REQUIRE(worst_tape_error([](Tape&, const Vars& v) {
            return llm::rms_norm(llm::transpose(v[0], 0, 1), v[1]);
          }, {ramp({5, 3}, -0.7, 0.11), g}) < grad_tol);
}

TEST_CASE("rms_norm is scale invariant up to eps and odd",
          "[residual-rmsnorm]") {
  const Tensor x = ramp({3, 4}, -0.9, 0.17);
  Tape tape;
  const Var g = tape.leaf(ones(4));
  const std::vector<double> base =
      llm::rms_norm(tape.leaf(x), g, 1e-12).value().to_vector();
  for (const double c : {0.5, 3.0, 1000.0}) {
    std::vector<double> v = x.to_vector();
    for (double& e : v) e *= c;
    const std::vector<double> y =
        llm::rms_norm(tape.leaf(Tensor({3, 4}, v)), g, 1e-12)
            .value().to_vector();
    for (std::size_t k = 0; k < y.size(); ++k) {
      REQUIRE(y[k] == Approx(base[k]).margin(1e-10));
    }
  }
  std::vector<double> neg = x.to_vector();
  for (double& e : neg) e = -e;
  const std::vector<double> y =
      llm::rms_norm(tape.leaf(Tensor({3, 4}, neg)), g, 1e-12)
          .value().to_vector();
  for (std::size_t k = 0; k < y.size(); ++k) REQUIRE(y[k] == -base[k]);
}

TEST_CASE("the input gradient is orthogonal to the input",
          "[residual-rmsnorm]") {
  Tape tape;
  const Var x = tape.leaf(ramp({6}, -1.0, 0.45));
  tape.backward(llm::rms_norm(x, tape.leaf(ones(6)), no_eps),
                ramp({6}, 0.3, -0.2));
  double dot = 0.0;
  for (std::size_t j = 0; j < 6; ++j) {
    dot += x.grad().at({j}) * x.value().at({j});
  }
  REQUIRE(dot == Approx(0.0).margin(1e-14));
}

TEST_CASE("an all-zero row gives zeros and a finite gradient",
          "[residual-rmsnorm]") {
  // r = sqrt(eps): y = 0; dx = u / sqrt(eps) since xhat = 0.
  Tape tape;
  const Var x = tape.leaf(Tensor({1, 2}));
  const Var y = llm::rms_norm(x, tape.leaf(ones(2)), 0.25);
  tape.backward(y, Tensor({1, 2}, {1, -1}));
  REQUIRE(y.value().to_vector() == std::vector<double>{0, 0});
  REQUIRE(x.grad().to_vector() == std::vector<double>{2, -2});
}

TEST_CASE("rms_norm rejects bad shapes and eps before recording",
          "[residual-rmsnorm]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2, 3}));
  const Var g3 = tape.leaf(ones(3)), g4 = tape.leaf(ones(4));
  const Var g2d = tape.leaf(Tensor({1, 3})), g0 = tape.leaf(Tensor({0}));
  const Var x0 = tape.leaf(Tensor({2, 0})), s = tape.leaf(Tensor(Shape{}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::rms_norm(x, g4), llm::ShapeError);
  REQUIRE(message_of<llm::ShapeError>([&] { llm::rms_norm(x, g4); }) ==
          "rms_norm: x is [2,3], gain is [4], expected [..., d] and [d], "
          "d > 0");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::rms_norm(x, g2d); }) ==
          "rms_norm: x is [2,3], gain is [1,3], expected [..., d] and [d], "
          "d > 0");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::rms_norm(x0, g0); }) ==
          "rms_norm: x is [2,0], gain is [0], expected [..., d] and [d], "
          "d > 0");
  REQUIRE(message_of<llm::ShapeError>([&] { llm::rms_norm(s, g3); }) ==
          "rms_norm: x is [], gain is [3], expected [..., d] and [d], d > 0");
  REQUIRE_THROWS_AS(llm::rms_norm(x, g3, 0.0), llm::ConfigError);
  REQUIRE(message_of<llm::ConfigError>([&] { llm::rms_norm(x, g3, 0.0); }) ==
          "rms_norm: expected a finite eps > 0, got 0.000000");
  REQUIRE(message_of<llm::ConfigError>([&] { llm::rms_norm(x, g3, -1.0); }) ==
          "rms_norm: expected a finite eps > 0, got -1.000000");
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::rms_norm(x, g3, std::numeric_limits<double>::infinity());
          }) == "rms_norm: expected a finite eps > 0, got inf");
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::rms_norm(x, g3, std::nan(""));
          }) == "rms_norm: expected a finite eps > 0, got nan");
  REQUIRE(tape.size() == before);
  Tape other;
  const Var g_other = other.leaf(ones(3));
  REQUIRE(message_of<llm::ConfigError>([&] { llm::rms_norm(x, g_other); }) ==
          "rms_norm: operands are on different tapes");
}

TEST_CASE("add_rms_norm registers a gain of ones",
          "[residual-rmsnorm]") {
  llm::Parameters p(1);
  const Tensor g = llm::add_rms_norm(p, "norm", 3);
  REQUIRE(p.list()[0].name == "norm.gain");
  REQUIRE(g.to_vector() == std::vector<double>(3, 1.0));
  REQUIRE_THROWS_AS(llm::add_rms_norm(p, "norm", 3), llm::ConfigError);
  REQUIRE(p.size() == 1);
}

TEST_CASE("a residual path adds the seed to the branch's gradient",
          "[residual-rmsnorm]") {
  const Tensor x = ramp({2, 4}, -0.8, 0.21), seed = ramp({2, 4}, 1.0, -0.3);
  const Tensor wg = ramp({4, 6}, 0.6, -0.05), wu = ramp({4, 6}, -0.3, 0.04);
  const Tensor zero({6, 4});
  // Pre-norm block x + f(RMSNorm(x)) with a zero output matrix: dx = seed.
  {
    Tape tape;
    const Var in = tape.leaf(x);
    const Var f = llm::swiglu(llm::rms_norm(in, tape.leaf(ones(4))),
                              tape.leaf(wg), tape.leaf(wu), tape.leaf(zero));
    tape.backward(llm::add(in, f), seed);
    REQUIRE(in.grad().to_vector() == seed.to_vector());
  }
  // Post-norm RMSNorm(x + f(x)) with the same zero branch: dx is the
  // RMSNorm VJP of the seed, which is not the seed.
  {
    Tape tape;
    const Var in = tape.leaf(x);
    const Var f = llm::swiglu(in, tape.leaf(wg), tape.leaf(wu),
                              tape.leaf(zero));
    tape.backward(llm::rms_norm(llm::add(in, f), tape.leaf(ones(4))), seed);
    REQUIRE(in.grad().to_vector() != seed.to_vector());
  }
  // A non-zero branch: residual gradient = branch gradient + seed.
  const Tensor wd = ramp({6, 4}, 0.2, 0.03);
  Tape a, b;
  const Var xa = a.leaf(x), xb = b.leaf(x);
  a.backward(llm::add(xa, llm::swiglu(xa, a.leaf(wg), a.leaf(wu),
                                      a.leaf(wd))), seed);
  b.backward(llm::swiglu(xb, b.leaf(wg), b.leaf(wu), b.leaf(wd)), seed);
  for (std::size_t k = 0; k < 8; ++k) {
    REQUIRE(xa.grad().to_vector()[k] ==
            Approx(xb.grad().to_vector()[k] + seed.to_vector()[k])
                .margin(1e-15));
  }
}

TEST_CASE("rms_norm's change under scaling is eps / (2 r^2) to first order",
          "[residual-rmsnorm]") {
  // y(c x)_j = x_j / sqrt(m + eps / c^2) with m the mean square, so
  // y(3x) - y(x) = xhat_j * eps / (2 m) * (1 - 1/9) + O(eps^2), with
  // xhat = x / sqrt(m). (1, 2, 2, 4): m = 25/4, xhat = x / (5/2).
  const double eps = 1e-5, m = 25.0 / 4.0;
  Tape tape;
  const Var g = tape.leaf(ones(4));
  const Tensor y1 =
      llm::rms_norm(tape.leaf(Tensor({4}, {1, 2, 2, 4})), g, eps).value();
  const Tensor y3 =
      llm::rms_norm(tape.leaf(Tensor({4}, {3, 6, 6, 12})), g, eps).value();
  const double x[] = {1, 2, 2, 4};
  for (std::size_t j = 0; j < 4; ++j) {
    const double want = x[j] / 2.5 * eps / (2.0 * m) * (8.0 / 9.0);
    REQUIRE(y3.at({j}) - y1.at({j}) == Approx(want).epsilon(1e-5));
  }
}

TEST_CASE("each row's input gradient is orthogonal to the row, any gain",
          "[residual-rmsnorm]") {
  // sum_k dx_k x_k = (u . x - (xhat . x)(u . xhat) / d) / r, and with
  // eps = 0, xhat . x = r d and u . x = r u . xhat: zero whatever u = gy g.
  const Tensor x = ramp({3, 5}, -1.2, 0.17);
  Tape tape;
  const Var in = tape.leaf(x);
  tape.backward(llm::rms_norm(in, tape.leaf(Tensor({5}, {0.5, -1.0, 2.0,
                                                         1.5, 0.8})),
                              no_eps),
                ramp({3, 5}, 0.9, -0.11));
  for (std::size_t i = 0; i < 3; ++i) {
    double dot = 0.0, grad = 0.0;
    for (std::size_t j = 0; j < 5; ++j) {
      dot += in.grad().at({i, j}) * x.at({i, j});
      grad += std::fabs(in.grad().at({i, j}));
    }
    REQUIRE(grad > 0.1);  // not orthogonal by being zero
    REQUIRE(dot == Approx(0.0).margin(1e-14));
  }
}

TEST_CASE("a zero output matrix makes x + f(x) the identity both ways",
          "[residual-rmsnorm]") {
  // The demo's block (width 8, hidden 24, registered from seed 21) with
  // W_down set to zeros. By hand: every output of the branch is a sum of
  // products with 0, so exactly 0, and x + 0 is x bit for bit; backward,
  // add hands the seed to x, and the branch's contribution starts as
  // seed W_down^T = 0, so x's gradient is the seed bit for bit.
  llm::Parameters p(21);
  llm::add_rms_norm(p, "block0.norm", 8);
  llm::add_swiglu(p, "block0.ffn", 8, 24);
  const Tensor w_down = p.at("block0.ffn.w_down");  // [24, 8]
  const Tensor zeros(w_down.shape());
  const Tensor x = wave({4, 8}, 0.3, 1.1), seed = wave({4, 8}, 1.9, 0.8);
  Tape tape;
  const Var in = tape.leaf(x);
  const Var n = llm::rms_norm(in, tape.leaf(p.at("block0.norm.gain")));
  const Var f = llm::swiglu(n, tape.leaf(p.at("block0.ffn.w_gate")),
                            tape.leaf(p.at("block0.ffn.w_up")),
                            tape.leaf(zeros));
  const Var y = llm::add(in, f);
  tape.backward(y, seed);
  REQUIRE(y.value().to_vector() == x.to_vector());
  REQUIRE(in.grad().to_vector() == seed.to_vector());
  // The branch itself does pass a gradient when W_down is not zero, so
  // the equalities above are the zero matrix's doing.
  Tape other;
  const Var in2 = other.leaf(x);
  const Var f2 = llm::swiglu(
      llm::rms_norm(in2, other.leaf(p.at("block0.norm.gain"))),
      other.leaf(p.at("block0.ffn.w_gate")),
      other.leaf(p.at("block0.ffn.w_up")), other.leaf(w_down));
  other.backward(llm::add(in2, f2), seed);
  REQUIRE(in2.grad().to_vector() != seed.to_vector());
}
