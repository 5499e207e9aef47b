// Tests for chapter batches-adamw: token-weighted batches against a
// plain-loop mean, AdamW against hand derivations, every rejected
// configuration with its message and bitwise-unchanged parameters and
// state, and save/restore against uninterrupted training. The PyTorch
// cross-check is the CTest test reference-adamw-torch.
#include <catch2/catch.hpp>

#include "message_of.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/autograd.hpp"
#include "llm/batch.hpp"
#include "llm/error.hpp"
#include "llm/model_ops.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"

namespace {

using llm::AdamW;
using llm::AdamWOptions;
using llm::NamedTensor;
using llm::Parameters;
using llm::Shape;
using llm::Tensor;
using Grads = std::vector<NamedTensor>;

// The bits of every double of a list of named tensors, names included.
std::vector<std::uint64_t> bits(const std::vector<NamedTensor>& list) {
  std::vector<std::uint64_t> out;
  for (const NamedTensor& n : list) {
    out.push_back(llm::fnv1a64(n.name));
    for (const double x : n.value.to_vector()) {
      std::uint64_t b = 0;
      std::memcpy(&b, &x, sizeof b);
      out.push_back(b);
    }
  }
  return out;
}

// A matrix and a gain, as a model would register them.
Parameters two_params() {
  Parameters p(7);
  p.add("w", Tensor({2, 2}, {1.0, -2.0, 0.5, 3.0}));
  p.add("gain", Tensor({2}, {1.0, 1.0}));
  return p;
}

Grads two_grads(double scale) {
  return {{"w", Tensor({2, 2}, {0.5 * scale, -1.0 * scale, 0.25, 2.0})},
          {"gain", Tensor({2}, {-0.3 * scale, 0.1})}};
}

// Everything an optimiser and its registry hold, as bits.
struct Snapshot {
  std::vector<std::uint64_t> params, m, v;
  std::uint64_t step;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const Parameters& p, const AdamW& opt) {
  return {bits(p.list()), bits(opt.state().m), bits(opt.state().v),
          opt.state().step};
}

}  // namespace

TEST_CASE("make_batch concatenates next-token pairs",
          "[batches-adamw][batches]") {
  const llm::TokenBatch b = llm::make_batch({{4, 5, 6}, {7, 8}});
  CHECK(b.inputs == std::vector<std::size_t>{4, 5, 7});
  CHECK(b.targets == std::vector<std::size_t>{5, 6, 8});
  CHECK(b.starts == std::vector<std::size_t>{0, 2, 3});
}

TEST_CASE("make_batch rejects an empty batch and a short sequence",
          "[batches-adamw][batches]") {
  CHECK(message_of<llm::ConfigError>([] { llm::make_batch({}); }) ==
        "make_batch: expected at least one sequence, got 0");
  CHECK(message_of<llm::ConfigError>([] {
          llm::make_batch({{1, 2}, {3}});
        }) == "make_batch: sequence 1 has 1 ids, expected at least 2");
}

TEST_CASE("batch_nll is the token mean, not the mean of sequence means",
          "[batches-adamw][batches]") {
  // Logits that do not depend on the input: log-probabilities of the
  // three ids are log(e^a / (e^0 + e^1 + e^2)) for a = 0, 1, 2.
  const llm::TokenBatch b = llm::make_batch({{0, 1, 2, 0}, {1, 2}});
  llm::Tape tape;
  const std::vector<double> row = {0.0, 1.0, 2.0};
  std::vector<double> logits;
  for (std::size_t i = 0; i < b.targets.size(); ++i) {
    logits.insert(logits.end(), row.begin(), row.end());
  }
  const llm::Var lp =
      llm::log_softmax(tape.leaf(Tensor({b.targets.size(), 3}, logits)));
  const double z = std::log(1.0 + std::exp(1.0) + std::exp(2.0));
  // Targets 1, 2, 0 | 2: losses z-1, z-2, z | z-2.
  const double token = ((z - 1) + (z - 2) + z + (z - 2)) / 4.0;
  const double seq = (((z - 1) + (z - 2) + z) / 3.0 + (z - 2)) / 2.0;
  const double loss = llm::batch_nll(lp, b).value().at({});
  CHECK(loss == Approx(token).epsilon(1e-14));
  CHECK(std::abs(loss - seq) > 0.1);  // z - 1.25 against z - 1.5
}

TEST_CASE("batch_nll does not depend on how tokens are grouped",
          "[batches-adamw][batches]") {
  // [0,1,2] and [2,1,0] hold the pairs of [0,1,2,1,0], in the same order.
  const llm::TokenBatch one = llm::make_batch({{0, 1, 2, 1, 0}});
  const llm::TokenBatch two = llm::make_batch({{0, 1, 2}, {2, 1, 0}});
  REQUIRE(one.targets == two.targets);
  llm::Tape tape;
  const llm::Var lp = llm::log_softmax(
      tape.leaf(Tensor({4, 3}, {1, 2, 3, 0, 0, 1, -1, 2, 0, 3, 1, 1})));
  CHECK(llm::batch_nll(lp, one).value().at({}) ==
        llm::batch_nll(lp, two).value().at({}));
}

TEST_CASE("batch_nll checks the rows", "[batches-adamw][batches]") {
  llm::Tape tape;
  const llm::Var lp = tape.leaf(Tensor({2, 3}));
  const llm::TokenBatch b = llm::make_batch({{0, 1, 2, 0}});
  CHECK(message_of<llm::ShapeError>([&] { llm::batch_nll(lp, b); }) ==
        "batch_nll: expected logp [3, V], got [2,3]");
}

TEST_CASE("AdamW's first step by hand", "[batches-adamw][adamw]") {
  // m1 = 0.1 g, v1 = 0.001 g^2, so m_hat = g and v_hat = g^2 exactly in
  // real arithmetic: the step is lr * (g / (|g| + eps) + wd * theta).
  Parameters p(0);
  p.add("w", Tensor({1, 1}, {1.0}));
  AdamW opt(p, {.lr = 0.1, .weight_decay = 0.1});
  opt.step(p, {{"w", Tensor({1, 1}, {0.5})}});
  // 1 - 0.1 * (0.5 / 0.50000001 + 0.1) = 0.89 + 0.1 * 1e-8 / 0.50000001
  CHECK(p.at("w").at({0, 0}) ==
        Approx(0.89 + 0.1 * 1e-8 / 0.50000001).epsilon(1e-14));
  CHECK(opt.state().m[0].value.at({0, 0}) == Approx(0.05).epsilon(1e-14));
  CHECK(opt.state().v[0].value.at({0, 0}) == Approx(0.00025).epsilon(1e-14));
  CHECK(opt.state().step == 1);
}

TEST_CASE("AdamW's first step is the chapter's formula to the last bit",
          "[batches-adamw][adamw]") {
  // The formula written out as the chapter writes it, in the same order
  // of operations: m = (1 - b1) g, v = (1 - b2) g^2, the two
  // corrections at t = 1, then theta - lr (m_hat / (sqrt(v_hat) + eps)
  // + wd theta). Each operation rounds the same way in the library, so
  // the doubles agree exactly, not merely to a tolerance.
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8, lr = 0.1, wd = 0.1;
  const double theta = 1.0, g = 0.5;
  const double m = (1 - b1) * g, v = (1 - b2) * g * g;
  const double m_hat = m / (1 - b1), v_hat = v / (1 - b2);
  const double by_hand =
      theta - lr * (m_hat / (std::sqrt(v_hat) + eps) + wd * theta);
  Parameters p(0);
  p.add("w", Tensor({1, 1}, {theta}));
  AdamW opt(p, {.lr = lr, .weight_decay = wd});
  opt.step(p, {{"w", Tensor({1, 1}, {g})}});
  CHECK(p.at("w").at({0, 0}) == by_hand);
}

TEST_CASE("AdamW's second step by hand", "[batches-adamw][adamw]") {
  // Gradients 0.5 then -0.25, lr 0.1, no decay:
  // m2 = 0.9 * 0.05 + 0.1 * (-0.25) = 0.02, v2 = 0.999 * 0.00025 +
  // 0.001 * 0.0625 = 0.00031225; corrections 1 - 0.81 = 0.19 and
  // 1 - 0.998001 = 0.001999.
  Parameters p(0);
  p.add("w", Tensor({1, 1}, {1.0}));
  AdamW opt(p, {.lr = 0.1, .weight_decay = 0.0});
  opt.step(p, {{"w", Tensor({1, 1}, {0.5})}});
  const double theta1 = 1.0 - 0.1 * 0.5 / (0.5 + 1e-8);
  opt.step(p, {{"w", Tensor({1, 1}, {-0.25})}});
  const double m_hat = 0.02 / 0.19, v_hat = 0.00031225 / 0.001999;
  const double theta2 = theta1 - 0.1 * m_hat / (std::sqrt(v_hat) + 1e-8);
  CHECK(p.at("w").at({0, 0}) == Approx(theta2).epsilon(1e-13));
}

TEST_CASE("AdamW's first step has size lr whatever the gradient's scale",
          "[batches-adamw][adamw]") {
  for (const double g : {1e-3, 0.5, 50.0, -7e4}) {
    Parameters p(0);
    p.add("w", Tensor({1, 1}, {1.0}));
    AdamW opt(p, {.lr = 0.01, .weight_decay = 0.0});
    opt.step(p, {{"w", Tensor({1, 1}, {g})}});
    // |g| / (|g| + eps) differs from 1 by about eps / |g| <= 1e-5, so
    // the step differs from lr by at most 1e-7.
    CHECK(p.at("w").at({0, 0}) ==
          Approx(1.0 - 0.01 * (g > 0 ? 1 : -1)).margin(2e-7));
  }
}

TEST_CASE("AdamW decays matrices and not gains by default",
          "[batches-adamw][adamw]") {
  // A zero gradient leaves m = v = 0, so only decay moves a parameter:
  // a decayed scalar becomes theta (1 - lr wd).
  Parameters p = two_params();
  AdamW opt(p, {.lr = 0.1, .weight_decay = 0.5});
  CHECK(opt.decays("w"));
  CHECK_FALSE(opt.decays("gain"));
  opt.step(p, {{"w", Tensor({2, 2})}, {"gain", Tensor({2})}});
  const std::vector<double> w0 = {1.0, -2.0, 0.5, 3.0};
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(p.at("w").to_vector()[k] == Approx(0.95 * w0[k]).epsilon(1e-15));
  }
  CHECK(p.at("gain").to_vector() == std::vector<double>{1.0, 1.0});
  CHECK(message_of<llm::IndexError>([&] { (void)opt.decays("nope"); }) ==
        "AdamW::decays: no parameter named 'nope'");
}

TEST_CASE("AdamW follows the caller's decay rule", "[batches-adamw][adamw]") {
  Parameters p = two_params();
  AdamW opt(p, {.lr = 0.1, .weight_decay = 0.5,
                .decays = [](const std::string& name, const Shape&) {
                  return name == "gain";
                }});
  CHECK_FALSE(opt.decays("w"));
  CHECK(opt.decays("gain"));
  opt.step(p, {{"w", Tensor({2, 2})}, {"gain", Tensor({2})}});
  CHECK(p.at("w").to_vector() == std::vector<double>{1.0, -2.0, 0.5, 3.0});
  CHECK(p.at("gain").at({0}) == Approx(0.95).epsilon(1e-15));
  CHECK(p.at("gain").at({1}) == Approx(0.95).epsilon(1e-15));
}

TEST_CASE("AdamW writes through shared handles", "[batches-adamw][adamw]") {
  Parameters p(0);
  const Tensor handle = p.add("w", Tensor({1, 2}, {1.0, 2.0}));
  AdamW opt(p, {.lr = 0.5, .weight_decay = 0.0});
  opt.step(p, {{"w", Tensor({1, 2}, {1.0, -1.0})}});
  CHECK(handle.at({0, 0}) == Approx(0.5).epsilon(1e-7));
  CHECK(handle.at({0, 1}) == Approx(2.5).epsilon(1e-7));
}

TEST_CASE("AdamW rejects each bad option with its own message",
          "[batches-adamw][adamw]") {
  const Parameters p = two_params();
  const std::uint64_t print = p.fingerprint();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto build = [&](AdamWOptions o) {
    return message_of<llm::ConfigError>([&] { AdamW opt(p, o); });
  };
  CHECK(build({.lr = 0.0}) == "AdamW: expected lr > 0, got 0.000000");
  CHECK(build({.lr = -0.1}) == "AdamW: expected lr > 0, got -0.100000");
  CHECK(build({.lr = nan}) == "AdamW: expected lr > 0, got nan");
  CHECK(build({.beta1 = 1.0}) ==
        "AdamW: expected beta1 in [0, 1), got 1.000000");
  CHECK(build({.beta1 = -0.1}) ==
        "AdamW: expected beta1 in [0, 1), got -0.100000");
  CHECK(build({.beta2 = 1.5}) ==
        "AdamW: expected beta2 in [0, 1), got 1.500000");
  CHECK(build({.eps = 0.0}) == "AdamW: expected eps > 0, got 0.000000");
  CHECK(build({.weight_decay = -0.01}) ==
        "AdamW: expected weight_decay >= 0, got -0.010000");
  CHECK(build({.decays = nullptr}) ==
        "AdamW: expected a decay rule, got none");
  CHECK(p.fingerprint() == print);
}

TEST_CASE("set_lr rejects a bad rate and keeps the old one",
          "[batches-adamw][adamw]") {
  const Parameters p = two_params();
  AdamW opt(p, {.lr = 0.1});
  CHECK(message_of<llm::ConfigError>([&] { opt.set_lr(0.0); }) ==
        "AdamW::set_lr: expected lr > 0, got 0.000000");
  CHECK(opt.options().lr == 0.1);
  opt.set_lr(0.02);
  CHECK(opt.options().lr == 0.02);
}

TEST_CASE("a rejected step leaves parameters and state bitwise intact",
          "[batches-adamw][adamw]") {
  Parameters p = two_params();
  AdamW opt(p, {.lr = 0.1, .weight_decay = 0.1});
  opt.step(p, two_grads(1.0));  // non-zero moments to protect
  const Snapshot before = snapshot(p, opt);
  const Grads good = two_grads(2.0);

  SECTION("a missing gradient") {
    CHECK(message_of<llm::ConfigError>([&] {
            opt.step(p, {good[0]});
          }) == "AdamW::step: no gradient for 'gain'");
  }
  SECTION("a gradient of the wrong shape") {
    CHECK(message_of<llm::ShapeError>([&] {
            opt.step(p, {good[0], {"gain", Tensor({3})}});
          }) == "AdamW::step: gradient of 'gain' is [3], parameter is [2]");
  }
  SECTION("a gradient for an unknown parameter") {
    CHECK(message_of<llm::ConfigError>([&] {
            opt.step(p, {good[0], good[1], {"bias", Tensor({2})}});
          }) == "AdamW::step: gradient for unknown parameter 'bias'");
  }
  SECTION("two gradients for one parameter") {
    CHECK(message_of<llm::ConfigError>([&] {
            opt.step(p, {good[0], good[1], good[1]});
          }) == "AdamW::step: two gradients for 'gain'");
  }
  SECTION("a non-finite gradient") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(message_of<llm::DomainError>([&] {
            opt.step(p, {good[0], {"gain", Tensor({2}, {0.0, inf})}});
          }) == "AdamW::step: gradient of 'gain' holds inf");
  }
  SECTION("a different registry") {
    Parameters other(7);
    other.add("w", Tensor({2, 2}));
    other.add("bias", Tensor({2}));
    CHECK(message_of<llm::ConfigError>([&] {
            opt.step(other, {good[0], {"bias", Tensor({2})}});
          }) == "AdamW::step: parameter 1 is 'bias' [2], built for 'gain' [2]");
    Parameters fewer(7);
    fewer.add("w", Tensor({2, 2}));
    CHECK(message_of<llm::ConfigError>([&] {
            opt.step(fewer, {good[0]});
          }) == "AdamW::step: built for 2 parameters, got 1");
  }
  CHECK(snapshot(p, opt) == before);
  opt.step(p, good);  // still usable, and the good step changes things
  CHECK_FALSE(snapshot(p, opt) == before);
}

TEST_CASE("a restored optimiser continues bitwise like the original",
          "[batches-adamw][adamw]") {
  const AdamWOptions o{.lr = 0.05, .weight_decay = 0.1};
  Parameters a = two_params(), b = two_params();
  AdamW opt_a(a, o), opt_b(b, o);
  for (int t = 0; t < 3; ++t) opt_a.step(a, two_grads(1.0 + t));
  for (int t = 0; t < 3; ++t) opt_b.step(b, two_grads(1.0 + t));
  const llm::AdamWState saved = opt_b.state();
  const std::vector<std::uint64_t> saved_m = bits(saved.m);
  opt_b.step(b, two_grads(9.0));  // training goes on after the save
  CHECK(bits(saved.m) == saved_m);  // the save is a copy

  Parameters c = two_params();
  AdamW opt_c(c, o);
  for (int t = 0; t < 3; ++t) opt_c.step(c, two_grads(1.0 + t));
  AdamW resumed(c, o);
  resumed.restore(saved);
  CHECK(resumed.state().step == 3);
  for (int t = 3; t < 6; ++t) {
    opt_a.step(a, two_grads(1.0 + t));
    resumed.step(c, two_grads(1.0 + t));
  }
  CHECK(snapshot(c, resumed) == snapshot(a, opt_a));
  CHECK(c.fingerprint() == a.fingerprint());
}

TEST_CASE("a fresh optimiser after a pause does not continue like the "
          "original",
          "[batches-adamw][adamw]") {
  // Forgetting the state: after three steps the parameters go on with a
  // new AdamW. Its moments and step count restart at zero, so its first
  // step moves each scalar by lr (sign(g) + wd theta) up to eps / |g|
  // (the first-step rule), where the original's moments, shaped by the
  // three earlier gradients, give a different step.
  const AdamWOptions o{.lr = 0.05, .weight_decay = 0.1};
  Parameters a = two_params(), c = two_params();
  AdamW opt_a(a, o), opt_c(c, o);
  for (int t = 0; t < 3; ++t) opt_a.step(a, two_grads(1.0 + t));
  for (int t = 0; t < 3; ++t) opt_c.step(c, two_grads(1.0 + t));
  REQUIRE(c.fingerprint() == a.fingerprint());
  AdamW fresh(c, o);
  const double before = c.at("w").at({0, 0});
  const Grads g = two_grads(4.0);  // w's first gradient is 2.0 > 0
  fresh.step(c, g);
  opt_a.step(a, g);
  CHECK(c.at("w").at({0, 0}) ==
        Approx(before - 0.05 * (1.0 + 0.1 * before)).margin(1e-9));
  CHECK(a.at("w").at({0, 0}) != c.at("w").at({0, 0}));
  for (int t = 5; t < 6; ++t) {
    opt_a.step(a, two_grads(1.0 + t));
    fresh.step(c, two_grads(1.0 + t));
  }
  CHECK(fresh.state().step == 2);
  CHECK(opt_a.state().step == 5);
  CHECK(c.fingerprint() != a.fingerprint());
}

TEST_CASE("restore rejects a state of other parameters and keeps its own",
          "[batches-adamw][adamw]") {
  Parameters p = two_params();
  AdamW opt(p, {.lr = 0.1});
  opt.step(p, two_grads(1.0));
  const Snapshot before = snapshot(p, opt);
  llm::AdamWState renamed = opt.state();
  renamed.v[1].name = "bias";
  CHECK(message_of<llm::ConfigError>([&] { opt.restore(renamed); }) ==
        "AdamW::restore: moment 1 is 'bias' [2], expected 'gain' [2]");
  llm::AdamWState reshaped = opt.state();
  reshaped.m[0].value = Tensor({4});
  CHECK(message_of<llm::ConfigError>([&] { opt.restore(reshaped); }) ==
        "AdamW::restore: moment 0 is 'w' [4], expected 'w' [2,2]");
  llm::AdamWState short_state = opt.state();
  short_state.m.pop_back();
  CHECK(message_of<llm::ConfigError>([&] { opt.restore(short_state); }) ==
        "AdamW::restore: expected moments of 2 parameters, got 1 and 2");
  CHECK(snapshot(p, opt) == before);
}
