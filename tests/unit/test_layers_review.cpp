// Tests for the layers review: the small model's parameter count by
// hand, the decay rule on its registry, its gradients against central
// differences, and that AdamW training lowers its token-weighted loss.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/autograd.hpp"
#include "llm/batch.hpp"
#include "llm/gradcheck.hpp"
#include "llm/layers.hpp"
#include "llm/model_ops.hpp"
#include "llm/params.hpp"
#include "llm/rmsnorm.hpp"
#include "llm/swiglu.hpp"
#include "llm/tensor.hpp"

namespace {

using llm::Tape;
using llm::Var;

const llm::TokenBatch batch =
    llm::make_batch({{0, 1, 2, 3, 4, 5, 0, 1, 2}, {3, 4, 5, 0}, {2, 3}});

llm::Parameters model() {
  llm::Parameters p(21);
  llm::add_embedding(p, "embed", 6, 4);
  llm::add_rms_norm(p, "norm1", 4);
  llm::add_swiglu(p, "ffn", 4, 12);
  llm::add_rms_norm(p, "norm2", 4);
  llm::add_linear(p, "head", 4, 6, false);
  return p;
}

Var loss(const std::vector<Var>& w) {
  const Var x0 = llm::embedding(w[0], batch.inputs);
  const Var x1 = llm::add(
      x0, llm::swiglu(llm::rms_norm(x0, w[1]), w[2], w[3], w[4]));
  const Var z = llm::linear(llm::rms_norm(x1, w[5]), w[6]);
  return llm::batch_nll(llm::log_softmax(z), batch);
}

}  // namespace

TEST_CASE("the review model's count and decay rule", "[layers-review]") {
  // E 6*4 + g1 4 + W_gate, W_up 4*12 each + W_down 12*4 + g2 4 + head 4*6.
  const llm::Parameters p = model();
  CHECK(llm::swiglu_hidden(4, 4) == 12);  // floor(32 / 3) = 10, up to 12
  CHECK(p.scalar_count() == 24 + 4 + 48 + 48 + 48 + 4 + 24);
  const llm::AdamW opt(p);
  for (const llm::NamedTensor& n : p.list()) {
    CHECK(opt.decays(n.name) == (n.value.rank() == 2));
  }
  CHECK_FALSE(opt.decays("norm1.gain"));
  CHECK(opt.decays("embed.weight"));
}

TEST_CASE("the review model passes the central-difference check",
          "[layers-review]") {
  const llm::Parameters p = model();
  std::vector<llm::Tensor> inputs;
  for (const llm::NamedTensor& n : p.list()) inputs.push_back(n.value);
  for (const llm::GradientError& e : llm::check_tape_gradients(
           [](Tape&, const std::vector<Var>& w) { return loss(w); }, inputs)) {
    CHECK(e.max_abs < 1e-8);
  }
}

TEST_CASE("AdamW lowers the review model's loss", "[layers-review]") {
  llm::Parameters p = model();
  llm::AdamW opt(p, {.lr = 0.05, .weight_decay = 0.01});
  double first = 0.0, last = 0.0;
  for (int t = 0; t < 30; ++t) {
    Tape tape;
    const llm::ParameterLeaves w(tape, p);
    const Var l = loss(w.list());
    (t == 0 ? first : last) = l.value().at({});
    tape.backward(l);
    opt.step(p, w.gradients());
  }
  // Near-uniform predictions at the start: about log 6 = 1.79. The
  // batch is a repeated cycle, so 30 steps should learn most of it.
  CHECK(std::abs(first - std::log(6.0)) < 0.5);
  CHECK(last < 0.5 * first);
}
