// Tests for chapter scalar-autodiff: the Value graph, local derivatives
// of every operation, topological order, accumulation on reuse, and a
// finite-difference check of every operation with the gradient-checking
// chapter's numeric_gradient. Uses only what chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "llm/error.hpp"
#include "llm/gradcheck.hpp"
#include "llm/scalar.hpp"

namespace {

using llm::Value;

Value named(Value v, const std::string& label) {
  v.set_label(label);
  return v;
}

// Labels of a graph in topological order, joined by spaces.
std::string order_labels(const Value& output) {
  std::string text;
  for (const Value& v : output.topological_order()) {
    text += (text.empty() ? "" : " ") + v.label();
  }
  return text;
}

using Expr = std::function<Value(const Value&, const Value&)>;

// The largest relative difference between backward and central
// differences (h = 1e-6) for e at the point (a, b).
double check(const Expr& e, double a_value, double b_value) {
  const Value a = a_value, b = b_value;
  Value out = e(a, b);
  out.backward();
  const std::vector<double> numeric = llm::numeric_gradient(
      [&](const std::vector<double>& p) { return e(p[0], p[1]).data(); },
      {a_value, b_value}, 1e-6);
  return llm::compare_gradients({a.grad(), b.grad()}, numeric).max_rel;
}

// The exercise's relu, written with the public extension point.
Value relu(const Value& a) {
  const bool positive = a.data() > 0.0;
  return Value::from_op("relu", positive ? a.data() : 0.0,
                        {{a, positive ? 1.0 : 0.0}});
}

}  // namespace

TEST_CASE("a leaf holds its number and has no inputs",
          "[scalar-autodiff]") {
  const Value x = 2.5;
  REQUIRE(x.data() == 2.5);
  REQUIRE(x.grad() == 0.0);
  REQUIRE(x.op() == "leaf");
  REQUIRE(x.label().empty());
  REQUIRE(x.inputs().empty());
  REQUIRE(x.local_grads().empty());
}

TEST_CASE("the chapter's graph: values, gradients and order",
          "[scalar-autodiff]") {
  // L = (a + b)(a - b) / b at a = 3, b = 2: s = 5, d = 1, p = 5, L = 2.5.
  const Value a = named(3.0, "a"), b = named(2.0, "b");
  const Value s = named(a + b, "s"), d = named(a - b, "d");
  const Value p = named(s * d, "p");
  Value L = named(p / b, "L");
  REQUIRE(L.data() == 2.5);
  L.backward();
  // Lbar = 1; pbar = 1/b = 0.5; sbar = pbar * d = 0.5; dbar = pbar * s
  // = 2.5; abar = sbar + dbar = 3 = 2a/b; bbar = sbar - dbar - p/b^2 =
  // 0.5 - 2.5 - 1.25 = -3.25 = -a^2/b^2 - 1.
  REQUIRE(L.grad() == 1.0);
  REQUIRE(p.grad() == 0.5);
  REQUIRE(s.grad() == 0.5);
  REQUIRE(d.grad() == 2.5);
  REQUIRE(a.grad() == 3.0);
  REQUIRE(b.grad() == -3.25);
  // Post-order depth-first search from L: a, b, then s, d, p, L.
  REQUIRE(order_labels(L) == "a b s d p L");
  // The division stored 1/b = 0.5 and -p/b^2 = -1.25 for its inputs.
  REQUIRE(L.op() == "/");
  REQUIRE(L.local_grads() == std::vector<double>{0.5, -1.25});
  REQUIRE(L.inputs()[0].label() == "p");
  REQUIRE(L.inputs()[1].label() == "b");
}

TEST_CASE("exercise: the graph table at a = 4, b = 2",
          "[scalar-autodiff]") {
  // s = 6, d = 2, p = 12, L = 6; abar = 2a/b = 4, bbar = -a^2/b^2 - 1
  // = -5; sbar = 0.5 * 2 = 1, dbar = 0.5 * 6 = 3.
  const Value a = 4.0, b = 2.0;
  const Value s = a + b, d = a - b;
  Value L = s * d / b;
  REQUIRE(L.data() == 6.0);
  L.backward();
  REQUIRE(s.grad() == 1.0);
  REQUIRE(d.grad() == 3.0);
  REQUIRE(a.grad() == 4.0);
  REQUIRE(b.grad() == -5.0);
}

TEST_CASE("each operation stores its local derivatives",
          "[scalar-autodiff]") {
  const Value a = 3.0, b = -2.0;
  // d(a+b) = (1, 1); d(a-b) = (1, -1); d(ab) = (b, a) = (-2, 3).
  REQUIRE((a + b).local_grads() == std::vector<double>{1.0, 1.0});
  REQUIRE((a - b).local_grads() == std::vector<double>{1.0, -1.0});
  REQUIRE((a * b).local_grads() == std::vector<double>{-2.0, 3.0});
  // d(a/b) = (1/b, -a/b^2) = (-0.5, -0.75); a/b = -1.5.
  REQUIRE((a / b).data() == -1.5);
  REQUIRE((a / b).local_grads() == std::vector<double>{-0.5, -0.75});
  // d(-a) = -1.
  REQUIRE((-a).data() == -3.0);
  REQUIRE((-a).local_grads() == std::vector<double>{-1.0});
  // At 0: exp' = e^0 = 1, tanh' = 1 - tanh(0)^2 = 1; log'(2) = 1/2.
  const Value zero = 0.0, two = 2.0;
  REQUIRE(exp(zero).data() == 1.0);
  REQUIRE(exp(zero).local_grads() == std::vector<double>{1.0});
  REQUIRE(tanh(zero).data() == 0.0);
  REQUIRE(tanh(zero).local_grads() == std::vector<double>{1.0});
  REQUIRE(log(two).local_grads() == std::vector<double>{0.5});
  REQUIRE((a * b).op() == "*");
  REQUIRE(exp(zero).op() == "exp");
}

TEST_CASE("a value used twice accumulates both contributions",
          "[scalar-autodiff]") {
  // d(x*x)/dx = x + x = 6 at x = 3; d(x+x)/dx = 1 + 1 = 2.
  const Value x = 3.0;
  Value square = x * x;
  square.backward();
  REQUIRE(x.grad() == 6.0);
  Value twice = x + x;
  twice.backward();
  REQUIRE(x.grad() == 2.0);
  // x^3 = (x*x)*x at x = 2: 3x^2 = 12 = (2 + 2) * 2 + 4.
  const Value y = 2.0;
  Value cube = y * y * y;
  cube.backward();
  REQUIRE(y.grad() == 12.0);
  // Two leaves holding equal numbers are not reuse: d(yz)/dy = z = 3.
  const Value u = 3.0, v = 3.0;
  Value product = u * v;
  product.backward();
  REQUIRE(u.grad() == 3.0);
  REQUIRE(v.grad() == 3.0);
}

TEST_CASE("backward clears the graph first, so it can be repeated",
          "[scalar-autodiff]") {
  const Value x = 3.0;
  Value square = x * x;
  square.backward();
  square.backward();
  REQUIRE(x.grad() == 6.0);  // not 12
  REQUIRE(square.grad() == 1.0);
}

TEST_CASE("a node reached along several paths is visited once",
          "[scalar-autodiff]") {
  // z = (x * x) + (x * x) built from one shared product m.
  const Value x = named(2.0, "x");
  const Value m = named(x * x, "m");
  Value z = named(m + m, "z");
  REQUIRE(order_labels(z) == "x m z");
  z.backward();
  // dz/dm = 2, dz/dx = 2 * 2x = 8.
  REQUIRE(m.grad() == 2.0);
  REQUIRE(x.grad() == 8.0);
}

TEST_CASE("the graph keeps its inputs alive",
          "[scalar-autodiff]") {
  // Only the output handle survives the block; its nodes still exist.
  Value out = 0.0;
  {
    const Value a = named(1.5, "a");
    out = exp(a) * a;
  }
  REQUIRE(out.inputs().size() == 2);
  REQUIRE(out.inputs()[1].label() == "a");
  out.backward();
  // d(a e^a)/da = e^a (1 + a) at a = 1.5.
  REQUIRE(out.inputs()[1].grad() == Approx(std::exp(1.5) * 2.5));
}

TEST_CASE("every operation agrees with central differences",
          "[scalar-autodiff]") {
  const std::vector<Expr> ops = {
      [](const Value& a, const Value& b) { return a + b; },
      [](const Value& a, const Value& b) { return a - b; },
      [](const Value& a, const Value& b) { return a * b; },
      [](const Value& a, const Value& b) { return a / b; },
      [](const Value& a, const Value&) { return -a; },
      [](const Value& a, const Value&) { return exp(a); },
      [](const Value& a, const Value&) { return log(a); },
      [](const Value& a, const Value&) { return tanh(a); }};
  // Points with no special values, several signs and sizes (log needs
  // a > 0, division b != 0).
  const std::vector<std::vector<double>> points = {
      {0.5, -1.5}, {1.7, 0.3}, {2.2, -0.9}, {0.05, 3.1}};
  for (const auto& p : points) {
    for (const Expr& e : ops) {
      REQUIRE(check(e, p[0], p[1]) < 1e-7);
    }
  }
}

TEST_CASE("a composite expression agrees with central differences",
          "[scalar-autodiff]") {
  const Expr e = [](const Value& a, const Value& b) {
    return tanh(a * b - exp(-a)) / log(a * a + 1.0) + b * b * a;
  };
  REQUIRE(check(e, 0.5, -1.5) < 1e-7);
  REQUIRE(check(e, -1.2, 0.8) < 1e-7);
}

TEST_CASE("exercise: relu through from_op",
          "[scalar-autodiff]") {
  const Value pos = 1.5, neg = -0.5;
  // relu' = 1 for a > 0, 0 for a < 0; away from the kink the check passes.
  REQUIRE(relu(pos).local_grads() == std::vector<double>{1.0});
  REQUIRE(relu(neg).data() == 0.0);
  REQUIRE(relu(neg).local_grads() == std::vector<double>{0.0});
  const Expr r = [](const Value& a, const Value&) { return relu(a); };
  REQUIRE(check(r, 1.5, 0.0) < 1e-8);
  REQUIRE(check(r, -0.5, 0.0) < 1e-8);
  // At the kink the central difference is (h - 0) / 2h = 0.5 for any h.
  const std::vector<double> at_kink = llm::numeric_gradient(
      [](const std::vector<double>& p) { return relu(p[0]).data(); }, {0.0},
      0.25);
  REQUIRE(at_kink[0] == 0.5);
}

TEST_CASE("log and division reject arguments outside their domain",
          "[scalar-autodiff]") {
  const Value zero = 0.0, minus_one = -1.0, one = 1.0;
  REQUIRE_THROWS_AS(log(zero), llm::DomainError);
  REQUIRE_THROWS_WITH(log(zero), "log: argument must be positive, got 0");
  REQUIRE_THROWS_WITH(log(minus_one),
                      "log: argument must be positive, got -1");
  REQUIRE_THROWS_AS(one / zero, llm::DomainError);
  REQUIRE_THROWS_WITH(one / zero,
                      "operator/: divisor must be nonzero, got 0");
  // A DomainError is an llm::Error like every other library error.
  REQUIRE_THROWS_AS(log(zero), llm::Error);
}
