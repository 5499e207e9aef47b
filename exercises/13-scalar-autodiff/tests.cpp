// The exercise tests of the scalar-autodiff chapter. They call
// exercise::gradients (starter.cpp, once fixed) on graphs written out by
// hand, with their gradients derived in the comments, then on the graph
// of a neuron built with the chapter's llm::Value, against
// Value::backward.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "exercise.hpp"
#include "llm/scalar.hpp"

namespace {

using exercise::Node;

}  // namespace

TEST_CASE("a chain: each gradient waits for the node after it") {
  // x = 2, a = 3x, f = a^2: nodes x, a (input x, local 3), f (input a,
  // local 2a = 12). df/da = 12, df/dx = 12 * 3 = 36.
  const std::vector<Node> g = {{}, {{0}, {3.0}}, {{1}, {12.0}}};
  const std::vector<double> grad = exercise::gradients(g, 2);
  CHECK(grad[2] == 1.0);
  INFO("df/da is known only after f has sent its gradient back");
  CHECK(grad[1] == 12.0);
  CHECK(grad[0] == 36.0);
}

TEST_CASE("a value used twice: its contributions add up") {
  // x = 3, y = 4, p = x y, f = p + x: nodes x, y, p (inputs x, y; locals
  // y = 4, x = 3), f (inputs p, x; locals 1, 1). df/dx = y + 1 = 5 (one
  // path through p, one straight), df/dy = x = 3.
  const std::vector<Node> g = {{}, {}, {{0, 1}, {4.0, 3.0}}, {{2, 0}, {1.0, 1.0}}};
  const std::vector<double> grad = exercise::gradients(g, 3);
  INFO("x reaches f by two paths");
  CHECK(grad[0] == 5.0);
  CHECK(grad[1] == 3.0);
  CHECK(grad[2] == 1.0);
}

TEST_CASE("the gradients of a neuron equal Value::backward's") {
  // tanh(w1 x1 + w2 x2 + b) with x1 used a second time in the sum.
  llm::Value x1(0.5), x2(-1.5), w1(0.8), w2(-0.3), b(0.1);
  llm::Value f = llm::tanh(w1 * x1 + w2 * x2 + b + x1);
  f.backward();
  // The graph as a list: label each node with its position, then read
  // each node's inputs back through their labels.
  const std::vector<llm::Value> order = f.topological_order();
  for (std::size_t i = 0; i < order.size(); ++i) {
    llm::Value v = order[i];
    v.set_label(std::to_string(i));
  }
  std::vector<Node> g;
  for (const llm::Value& v : order) {
    Node n;
    for (const llm::Value& in : v.inputs()) n.inputs.push_back(std::stoul(in.label()));
    n.local_grads = v.local_grads();
    g.push_back(n);
  }
  const std::vector<double> grad = exercise::gradients(g, order.size() - 1);
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("node " << i << " (" << order[i].op() << ")");
    CHECK(grad[i] == Approx(order[i].grad()).margin(1e-15));
  }
}
