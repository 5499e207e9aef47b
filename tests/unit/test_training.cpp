// Tests for chapter training: the schedule at hand-computed steps, clipping
// by the global norm on a two-tensor example, the windows sample_batch
// draws against a plain enumeration of every window, each rejected
// setting (with nothing changed), the determinism of train_step, and
// WindowSum's order with windows handed in out of order. The
// parameter file is tested with the neural-ngram chapter, which writes it
// (test_param_file.cpp).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/autograd.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "llm/threads.hpp"
#include "llm/training.hpp"
#include "message_of.hpp"
#include "same_bits.hpp"

namespace {

using llm::Batch;
using llm::NamedTensor;
using llm::Parameters;
using llm::Schedule;
using llm::Tensor;
using llm::TokenId;
using Docs = std::vector<std::vector<TokenId>>;

// Warm-up of 4 steps to 0.8, then 8 steps of cosine decay to 0.2.
const Schedule sched{.lr_max = 0.8, .lr_min = 0.2, .warmup = 4, .steps = 12};

}  // namespace

TEST_CASE("the schedule warms up linearly, then decays along a cosine",
          "[training]") {
  // Warm-up: lr_max (step + 1) / warmup, 0.8 / 4 = 0.2 per step.
  CHECK(llm::learning_rate(sched, 0) == Approx(0.2).epsilon(1e-15));
  CHECK(llm::learning_rate(sched, 1) == Approx(0.4).epsilon(1e-15));
  CHECK(llm::learning_rate(sched, 3) == 0.8);  // its end: 0.8 * 4 / 4
  // Decay: p = (step + 1 - 4) / 8. Step 5: p = 1/4, cos(pi/4) = sqrt(2)/2,
  // 0.2 + 0.6 (1 + 0.7071...) / 2 = 0.2 + 0.3 * 1.7071... = 0.7121320...
  CHECK(llm::learning_rate(sched, 5) ==
        Approx(0.2 + 0.3 * (1.0 + std::sqrt(0.5))).epsilon(1e-15));
  // The middle, p = 1/2 at step 7: cos(pi/2) = 0, halfway, 0.5.
  CHECK(llm::learning_rate(sched, 7) == Approx(0.5).epsilon(1e-15));
  // The last step, p = 1: cos(pi) is exactly -1, so exactly lr_min.
  CHECK(llm::learning_rate(sched, 11) == 0.2);
  // Without warm-up the first step is already one step into the decay.
  const Schedule none{.lr_max = 0.8, .lr_min = 0.2, .warmup = 0, .steps = 2};
  CHECK(llm::learning_rate(none, 0) == Approx(0.5).epsilon(1e-15));
  CHECK(llm::learning_rate(none, 1) == 0.2);
  CHECK(message_of<llm::IndexError>([] { llm::learning_rate(sched, 12); }) ==
        "learning_rate: step 12, expected a step below 12");
}

TEST_CASE("a schedule with bad settings is rejected, each in its own words",
          "[training]") {
  const auto error = [](Schedule s) {
    return message_of<llm::ConfigError>([&] { llm::validate(s); });
  };
  Schedule s = sched;
  s.steps = 0;
  s.warmup = 0;
  CHECK(error(s) == "schedule: steps is 0, expected > 0");
  s = sched;
  s.warmup = 13;
  CHECK(error(s) == "schedule: warmup of 13 steps is longer than the 12 "
                    "steps, expected warmup <= steps");
  s = sched;
  s.lr_min = 0.9;
  CHECK(error(s) == "schedule: lr_min is 0.900000, expected 0 < lr_min <= "
                    "lr_max = 0.800000");
  s.lr_min = 0.0;
  CHECK(error(s) == "schedule: lr_min is 0.000000, expected 0 < lr_min <= "
                    "lr_max = 0.800000");
  s = sched;
  s.lr_max = 0.0;
  CHECK(error(s) == "schedule: lr_max is 0.000000, expected a finite rate > 0");
  s = sched;
  s.warmup = 12;  // all warm-up is allowed
  CHECK(error(s) == "no exception");
  CHECK(llm::learning_rate(s, 11) == 0.8);
}

TEST_CASE("clipping scales every tensor by one factor, only above the "
          "threshold", "[training]") {
  // a = [3, 4], b = [12]: 9 + 16 + 144 = 169, so the global norm is 13.
  const auto grads = [] {
    return std::vector<NamedTensor>{{"a", Tensor({2}, {3.0, 4.0})},
                                    {"b", Tensor({1}, {12.0})}};
  };
  CHECK(llm::global_norm(grads()) == 13.0);
  CHECK(llm::global_norm({}) == 0.0);

  std::vector<NamedTensor> g = grads();
  CHECK(llm::clip_by_global_norm(g, 6.5) == 13.0);  // the norm before
  // 6.5 / 13 = 0.5 on both tensors: [1.5, 2] and [6], norm 6.5.
  CHECK(g[0].value.to_vector() == std::vector<double>{1.5, 2.0});
  CHECK(g[1].value.to_vector() == std::vector<double>{6.0});
  CHECK(llm::global_norm(g) == 6.5);

  for (double threshold : {13.0, 20.0}) {  // at or above the norm: as is
    g = grads();
    CHECK(llm::clip_by_global_norm(g, threshold) == 13.0);
    CHECK(g[0].value.to_vector() == std::vector<double>{3.0, 4.0});
    CHECK(g[1].value.to_vector() == std::vector<double>{12.0});
  }
}

TEST_CASE("clipping rejects a bad threshold or norm and changes nothing",
          "[training]") {
  std::vector<NamedTensor> g{{"a", Tensor({2}, {3.0, 4.0})}};
  for (double bad : {0.0, -1.0}) {
    CHECK(message_of<llm::ConfigError>([&] {
            llm::clip_by_global_norm(g, bad);
          }).starts_with("clip_by_global_norm: max_norm is "));
  }
  CHECK(g[0].value.to_vector() == std::vector<double>{3.0, 4.0});
  std::vector<NamedTensor> n{
      {"a", Tensor({2}, {std::numeric_limits<double>::quiet_NaN(), 1.0})}};
  CHECK(message_of<llm::DomainError>([&] {
          llm::clip_by_global_norm(n, 1.0);
        }) == "clip_by_global_norm: the gradient's norm is nan, expected a "
              "finite norm");
  CHECK(n[0].value.to_vector()[1] == 1.0);
}

namespace {

// Three documents: 3 ids (no window of 4), 10 ids (7 windows), 6 ids (3).
const Docs docs{{10, 11, 12},
                {20, 21, 22, 23, 24, 25, 26, 27, 28, 29},
                {100, 101, 102, 103, 104, 105}};

}  // namespace

TEST_CASE("sample_batch draws whole windows of one document, targets "
          "shifted by one", "[training]") {
  // Every window of T + 1 = 4 ids, in document order: the k-th is picked
  // when floor(u * 10) = k for the generator's next uniform u.
  std::vector<std::vector<TokenId>> windows;
  for (const auto& d : docs) {
    for (std::size_t s = 0; s + 4 <= d.size(); ++s) {
      windows.emplace_back(d.begin() + s, d.begin() + s + 4);
    }
  }
  REQUIRE(windows.size() == 10);
  llm::Rng rng(29), mirror(29);
  std::vector<int> seen(windows.size(), 0);
  for (int draw = 0; draw < 200; ++draw) {
    const Batch b = llm::sample_batch(docs, 2, 3, rng);
    REQUIRE(b.inputs.batch == 2);
    REQUIRE(b.inputs.length == 3);
    REQUIRE(b.targets.ids.size() == 6);
    for (std::size_t row = 0; row < 2; ++row) {
      const auto k = static_cast<std::size_t>(mirror.uniform() * 10.0);
      const std::vector<TokenId>& w = windows[k];
      ++seen[k];
      for (std::size_t t = 0; t < 3; ++t) {
        CHECK(b.inputs.ids[row * 3 + t] == w[t]);
        CHECK(b.targets.ids[row * 3 + t] == w[t + 1]);
      }
    }
  }
  for (int count : seen) CHECK(count > 0);  // every window can come up
}

TEST_CASE("sample_batch rejects bad sizes and draws nothing",
          "[training]") {
  llm::Rng rng(7);
  const std::uint64_t state = rng.state();
  CHECK(message_of<llm::ConfigError>([&] {
          llm::sample_batch(docs, 0, 3, rng);
        }) == "sample_batch: B = 0, T = 3, expected B, T > 0");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::sample_batch(docs, 2, 0, rng);
        }) == "sample_batch: B = 2, T = 0, expected B, T > 0");
  // The longest document has 10 ids: T = 10 needs 11.
  CHECK(message_of<llm::ConfigError>([&] {
          llm::sample_batch(docs, 2, 10, rng);
        }) == "sample_batch: the longest document holds 10 ids, expected "
              "T + 1 = 11");
  CHECK(rng.state() == state);
  CHECK(message_of<llm::ConfigError>([&] {
          llm::sample_batch(docs, 2, 9, rng);  // 9 + 1 = 10 fits, once
        }) == "no exception");
}

namespace {

// V = 7, d = 8, one block of two heads, f = 8, context 6.
const llm::ModelConfig tiny{.vocab = 7, .d_model = 8, .layers = 1,
                            .heads = 2, .ffn_width = 8, .context = 6};

Parameters tiny_params() {
  Parameters p(29);
  llm::add_model_parameters(p, tiny);
  return p;
}

const Docs tiny_docs{{0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3},
                     {6, 5, 4, 3, 2, 1, 0, 6, 5}};

Batch tiny_batch() {
  llm::Rng rng(3);
  return llm::sample_batch(tiny_docs, 3, 5, rng);
}

// Window w of `b` as a batch of one window, copied id by id.
Batch window_of(const Batch& b, std::size_t w) {
  Batch one{{1, b.inputs.length, {}}, {1, b.inputs.length, {}}};
  for (std::size_t t = 0; t < b.inputs.length; ++t) {
    one.inputs.ids.push_back(b.inputs.ids[w * b.inputs.length + t]);
    one.targets.ids.push_back(b.targets.ids[w * b.inputs.length + t]);
  }
  return one;
}

}  // namespace

TEST_CASE("train_step from the same state gives the same bits",
          "[training]") {
  const auto run = [] {
    Parameters p = tiny_params();
    llm::AdamW opt(p, {.lr = 1e-2, .weight_decay = 0.1});
    std::vector<llm::StepResult> r;
    for (int i = 0; i < 3; ++i) {
      r.push_back(llm::train_step(p, opt, tiny, tiny_batch(), 1e-2, 0.5));
    }
    return std::pair{r, p.fingerprint()};
  };
  const auto [a, fa] = run();
  const auto [b, fb] = run();
  CHECK(fa == fb);
  CHECK(fa != tiny_params().fingerprint());  // the steps did move it
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(std::bit_cast<std::uint64_t>(a[i].loss) ==
          std::bit_cast<std::uint64_t>(b[i].loss));
    CHECK(std::bit_cast<std::uint64_t>(a[i].grad_norm) ==
          std::bit_cast<std::uint64_t>(b[i].grad_norm));
    CHECK(a[i].lr == 1e-2);
  }
  // The first loss is the mean of the untouched model's losses on the
  // batch's windows, added in window order.
  const Batch batch = tiny_batch();
  double sum = 0.0;
  for (std::size_t w = 0; w < batch.inputs.batch; ++w) {
    sum += llm::evaluate_loss(tiny_params(), tiny, {window_of(batch, w)});
  }
  CHECK(a[0].loss == sum / double(batch.inputs.batch));
  CHECK(a[2].loss < a[0].loss);  // three steps on one batch learn it
}

namespace {

// The batch's gradient by hand: each window's on its own tape, seeded
// with 1/B, added element by element in window order.
std::vector<NamedTensor> batch_gradient_by_hand(const Parameters& q,
                                                const llm::ModelConfig& config,
                                                const Batch& batch) {
  std::vector<NamedTensor> g;
  const double share = 1.0 / double(batch.inputs.batch);
  for (std::size_t w = 0; w < batch.inputs.batch; ++w) {
    const Batch one = window_of(batch, w);
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, q);
    tape.backward(llm::next_token_loss(llm::model_forward(
                                           llm::model_weights(leaves, config),
                                           config, one.inputs)
                                           .logits,
                                       one.targets),
                  Tensor(llm::Shape{}, {share}));
    std::vector<NamedTensor> part = leaves.gradients();
    if (w == 0) {
      g = part;
      continue;
    }
    for (std::size_t i = 0; i < g.size(); ++i) {
      std::vector<double> sum = g[i].value.to_vector();
      const std::vector<double> add = part[i].value.to_vector();
      for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += add[j];
      g[i].value = Tensor(g[i].value.shape(), sum);
    }
  }
  return g;
}

}  // namespace

TEST_CASE("train_step reports the norm before clipping and moves like "
          "AdamW on the clipped gradient", "[training]") {
  // The reference: the same gradient computed by hand here, clipped, and
  // given to a second optimiser; both registries must end equal.
  Parameters p = tiny_params(), q = tiny_params();
  llm::AdamW opt(p, {.lr = 1e-2}), ref(q, {.lr = 1e-2});
  const Batch batch = tiny_batch();
  std::vector<NamedTensor> g = batch_gradient_by_hand(q, tiny, batch);
  const double norm = llm::global_norm(g);
  const double clip = norm / 4;  // well below: the step must clip
  for (NamedTensor& n : g) {
    std::vector<double> v = n.value.to_vector();
    for (double& x : v) x *= clip / norm;
    n.value = Tensor(n.value.shape(), v);
  }
  ref.set_lr(3e-3);
  ref.step(q, g);
  const llm::StepResult r = llm::train_step(p, opt, tiny, batch, 3e-3, clip);
  CHECK(r.grad_norm == norm);
  CHECK(r.lr == 3e-3);
  CHECK(p.fingerprint() == q.fingerprint());
  for (std::size_t i = 0; i < p.size(); ++i) {
    CHECK(p.list()[i].value.to_vector() == q.list()[i].value.to_vector());
  }
  CHECK(opt.options().lr == 3e-3);
}

TEST_CASE("a rejected train_step changes neither parameters nor optimiser",
          "[training]") {
  Parameters p = tiny_params();
  llm::AdamW opt(p, {.lr = 1e-2});
  const std::uint64_t before = p.fingerprint();
  CHECK(message_of<llm::ConfigError>([&] {
          llm::train_step(p, opt, tiny, tiny_batch(), 0.0, 1.0);
        }) == "train_step: lr is 0.000000, expected a finite rate > 0");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::train_step(p, opt, tiny, tiny_batch(), 1e-3, 0.0);
        }) == "clip_by_global_norm: max_norm is 0.000000, expected > 0");
  Batch bad = tiny_batch();
  bad.inputs.ids[0] = 7;  // V = 7: ids are 0 .. 6
  CHECK(message_of<llm::IndexError>([&] {
          llm::train_step(p, opt, tiny, bad, 1e-3, 1.0);
        }) == "train_step: inputs: id 7 at position 0, expected an id below "
              "V = 7");
  Batch late = tiny_batch();
  late.targets.ids[9] = 8;  // window 1, position 4: named in the batch
  CHECK(message_of<llm::IndexError>([&] {
          llm::train_step(p, opt, tiny, late, 1e-3, 1.0);
        }) == "train_step: targets: id 8 at position 9, expected an id below "
              "V = 7");
  Batch ragged = tiny_batch();
  ragged.targets.batch = 1;  // 15 ids for B = 1, T = 5
  CHECK(message_of<llm::ShapeError>([&] {
          llm::train_step(p, opt, tiny, ragged, 1e-3, 1.0);
        }) == "train_step: targets: 15 ids for B = 1, T = 5, expected B T "
              "ids with B, T > 0");
  // An optimiser made for another registry: AdamW refuses the step.
  Parameters other(29);
  other.add("w", Tensor({1}, {1.0}));
  llm::AdamW wrong(other, {.lr = 1e-2});
  CHECK_THROWS_AS(llm::train_step(p, wrong, tiny, tiny_batch(), 1e-3, 1.0),
                  llm::Error);
  CHECK(wrong.options().lr == 1e-2);
  CHECK(wrong.state().step == 0);
  CHECK(p.fingerprint() == before);
  CHECK(opt.state().step == 0);
  CHECK(opt.options().lr == 1e-2);
}

TEST_CASE("train_step sums the windows' gradients in window order on 1, 2 "
          "and 3 threads",
          "[training]") {
  // A table of 70 x 16 = 1120 elements; five windows add four terms to
  // the first. On 2 and 3 threads a window may finish before an earlier
  // one and wait to be added; timing decides whether it does here, and
  // the WindowSum test below takes that path by construction.
  struct Reset {
    ~Reset() { llm::set_threads(1); }
  } reset;
  const llm::ModelConfig wide{.vocab = 70, .d_model = 16, .layers = 1,
                              .heads = 2, .ffn_width = 24, .context = 6};
  Docs docs(2);
  llm::Rng ids(7);
  for (std::vector<TokenId>& doc : docs) {
    for (int t = 0; t < 40; ++t) doc.push_back(ids.next_u64() % 70);
  }
  llm::Rng rng(5);
  const Batch batch = llm::sample_batch(docs, 5, 6, rng);
  Parameters q(31);
  llm::add_model_parameters(q, wide);
  REQUIRE(q.list()[0].value.numel() == 1120);
  const std::vector<NamedTensor> g = batch_gradient_by_hand(q, wide, batch);
  // No clipping (a threshold far above the norm), so AdamW's first step
  // on g is the reference.
  llm::AdamW ref(q, {.lr = 1e-2});
  ref.step(q, g);
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    Parameters p(31);
    llm::add_model_parameters(p, wide);
    llm::AdamW opt(p, {.lr = 1e-2});
    const llm::StepResult r = llm::train_step(p, opt, wide, batch, 1e-2, 1e9);
    CHECK(std::bit_cast<std::uint64_t>(r.grad_norm) ==
          std::bit_cast<std::uint64_t>(llm::global_norm(g)));
    for (std::size_t i = 0; i < p.size(); ++i) {
      CHECK(::same_bits(p.list()[i].value.to_vector(),
                        q.list()[i].value.to_vector()));
    }
  }
}

TEST_CASE("train_step and evaluate_loss give the same bits on 1, 2 and 3 "
          "threads", "[training]") {
  struct Reset {
    ~Reset() { llm::set_threads(1); }
  } reset;
  const auto run = [](std::size_t threads) {
    llm::set_threads(threads);
    Parameters p = tiny_params();
    llm::AdamW opt(p, {.lr = 1e-2, .weight_decay = 0.1});
    std::vector<double> out;
    for (int i = 0; i < 3; ++i) {
      const llm::StepResult r =
          llm::train_step(p, opt, tiny, tiny_batch(), 1e-2, 0.5);
      out.push_back(r.loss);
      out.push_back(r.grad_norm);
    }
    out.push_back(llm::evaluate_loss(p, tiny, {tiny_batch(), tiny_batch()}));
    for (const NamedTensor& n : p.list()) {
      for (double x : n.value.to_vector()) out.push_back(x);
    }
    return out;
  };
  const std::vector<double> one = run(1);
  for (std::size_t threads : {2, 3}) {
    const std::vector<double> many = run(threads);
    REQUIRE(many.size() == one.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < one.size(); ++i) {
      differ += std::bit_cast<std::uint64_t>(one[i]) !=
                std::bit_cast<std::uint64_t>(many[i]);
    }
    CHECK(differ == 0);
  }
}

namespace {

// The same shape and byte-for-byte the same elements in row-major order.
bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && ::same_bits(a.to_vector(), b.to_vector());
}

using Vec = std::vector<double>;

struct ThreadsReset {
  ~ThreadsReset() { llm::set_threads(1); }
};

Tensor noise(const llm::Shape& shape, std::uint64_t seed) {
  llm::Rng rng(seed);
  return llm::init_tensor(shape, llm::fan_in_normal(3), rng);
}

// The loss and the gradients of u and E after one backward pass, with
// u = 1.5 * the rows of E that `ids` pick (so that E, the tied output,
// also gets the embedding's term), through next_token_loss (composed)
// or output_loss.
struct LossAndGrads {
  Tensor loss, du, de;
};

LossAndGrads tied_loss(bool composed, const Tensor& e,
                       const llm::TokenGrid& ids, const llm::TokenGrid& targets,
                       double seed) {
  llm::Tape tape;
  const llm::Var table = tape.leaf(e);
  const std::size_t d = e.shape()[1];
  const llm::Var x = llm::reshape(llm::embedding(table, ids.ids),
                                  {ids.batch, ids.length, d});
  const llm::Var u = llm::mul(x, tape.leaf(Tensor(llm::Shape{}, {1.5})));
  const llm::Var loss =
      composed ? llm::next_token_loss(
                     llm::linear(u, llm::transpose(table, 0, 1)), targets)
               : llm::output_loss(u, table, targets);
  tape.backward(loss, Tensor(llm::Shape{}, {seed}));
  return {loss.value(), u.grad(), table.grad()};
}

}  // namespace

TEST_CASE("output_loss gives next_token_loss's loss and gradients bit for "
          "bit",
          "[training]") {
  // Odd shapes: B 2, T 3, V 7, d 5; a target repeated within a row and
  // across windows; seeds of 1, an inexact 0.3, +0 and -0 (where the
  // 0.0 + of each accumulate decides the sign of every zero).
  const Tensor e = noise({7, 5}, 71);
  const llm::TokenGrid ids{2, 3, {4, 0, 6, 6, 1, 4}};
  const llm::TokenGrid targets{2, 3, {0, 6, 6, 4, 4, 0}};
  for (const double seed : {1.0, 0.3, 0.0, -0.0}) {
    const LossAndGrads a = tied_loss(true, e, ids, targets, seed);
    const LossAndGrads b = tied_loss(false, e, ids, targets, seed);
    CHECK(same_bits(a.loss, b.loss));
    CHECK(same_bits(a.du, b.du));
    CHECK(same_bits(a.de, b.de));
  }
  // Infinite and NaN logits, one table each: an output row with +inf
  // (or -inf) in one column makes that row's logit +-inf, by the sign
  // of u there, so some rows' maximum is +inf and others hold a -inf;
  // an output row with a NaN makes every row's maximum NaN (a NaN wins).
  for (const double odd_value : {INFINITY, -INFINITY, NAN}) {
    Vec odd = e.to_vector();
    odd[2 * 5 + 1] = odd_value;  // row 2, which no id picks: u is finite
    const Tensor e_odd({7, 5}, odd);
    for (const double seed : {1.0, 0.0}) {
      const LossAndGrads a = tied_loss(true, e_odd, ids, targets, seed);
      const LossAndGrads b = tied_loss(false, e_odd, ids, targets, seed);
      CHECK(same_bits(a.loss, b.loss));
      CHECK(same_bits(a.du, b.du));
      CHECK(same_bits(a.de, b.de));
    }
  }
  // Sizes that take several tiles, panels and groups of 32 rows (V 41,
  // d 13, B T = 2 x 20), large enough that the logits, dU and dE
  // products are split among threads, on 1 and 3 threads.
  ThreadsReset reset;
  const Tensor big = noise({41, 13}, 76);
  llm::TokenGrid big_ids{2, 20, {}}, big_targets{2, 20, {}};
  for (std::size_t k = 0; k < 40; ++k) {
    big_ids.ids.push_back(k * 7 % 41);
    big_targets.ids.push_back(k * 11 % 41);
  }
  for (const std::size_t threads : {1, 3}) {
    llm::set_threads(threads);
    const LossAndGrads a = tied_loss(true, big, big_ids, big_targets, 0.3);
    const LossAndGrads b = tied_loss(false, big, big_ids, big_targets, 0.3);
    CHECK(same_bits(a.loss, b.loss));
    CHECK(same_bits(a.du, b.du));
    CHECK(same_bits(a.de, b.de));
  }
  // A V of 1, where every row's only logit is its target.
  const Tensor one = noise({1, 4}, 72);
  const llm::TokenGrid zeros{1, 2, {0, 0}};
  const LossAndGrads a = tied_loss(true, one, zeros, zeros, 1.0);
  const LossAndGrads b = tied_loss(false, one, zeros, zeros, 1.0);
  CHECK(same_bits(a.loss, b.loss));
  CHECK(same_bits(a.du, b.du));
  CHECK(same_bits(a.de, b.de));
}

TEST_CASE("output_loss rejects what next_token_loss rejects, and two tapes",
          "[training]") {
  llm::Tape tape;
  const llm::Var u = tape.leaf(noise({2, 3, 5}, 73));
  const llm::Var e = tape.leaf(noise({7, 5}, 74));
  const llm::TokenGrid targets{2, 3, {0, 6, 6, 4, 4, 0}};
  CHECK(message_of<llm::ShapeError>([&] {
          llm::output_loss(u, tape.leaf(noise({7, 4}, 75)), targets);
        }) == "output_loss: u is [2,3,5], output is [7,4], targets are "
              "B = 2, T = 3, expected u [B, T, d] and output [V, d], V > 0");
  CHECK_THROWS_AS(llm::output_loss(u, e, llm::TokenGrid{3, 2, targets.ids}),
                  llm::ShapeError);
  CHECK_THROWS_AS(llm::output_loss(u, e, llm::TokenGrid{2, 3, {0, 6, 7, 4, 4, 0}}),
                  llm::IndexError);
  llm::Tape other;
  CHECK_THROWS_AS(llm::output_loss(u, other.leaf(noise({7, 5}, 74)), targets),
                  llm::ConfigError);
  CHECK(tape.size() == 3);  // nothing recorded by a rejected call
}

TEST_CASE("model_hidden and output_loss give model_forward's loss and every "
          "gradient bit for bit",
          "[training]") {
  const Batch batch = tiny_batch();
  const auto grads = [&](bool composed) {
    const Parameters p = tiny_params();
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    const llm::ModelWeights w = llm::model_weights(leaves, tiny);
    const llm::Var loss =
        composed
            ? llm::next_token_loss(
                  llm::model_forward(w, tiny, batch.inputs).logits,
                  batch.targets)
            : llm::output_loss(llm::model_hidden(w, tiny, batch.inputs),
                               w.output, batch.targets);
    tape.backward(loss);
    std::vector<Tensor> out{loss.value()};
    for (const NamedTensor& g : leaves.gradients()) out.push_back(g.value);
    return out;
  };
  const std::vector<Tensor> a = grads(true), b = grads(false);
  REQUIRE(a.size() == b.size());
  REQUIRE(a.size() > 10);  // the loss and every parameter's gradient
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(same_bits(a[i], b[i]));
}

namespace {

// One window's gradients of the registry below: p = [3], q = [2].
std::vector<NamedTensor> window_grads(std::vector<double> p,
                                      std::vector<double> q) {
  return {{"p", Tensor(llm::Shape{3}, std::move(p))},
          {"q", Tensor(llm::Shape{2}, std::move(q))}};
}

}  // namespace

TEST_CASE("WindowSum adds the windows in window order whatever order they "
          "are handed in, holds only those that wait, and refuses bad input "
          "unchanged",
          "[training]") {
  Parameters params(1);
  params.add("p", Tensor(llm::Shape{3}));
  params.add("q", Tensor(llm::Shape{2}));
  // Element 0 of p sums to 1 in window order, ((1 + 1e16) - 1e16) + 1,
  // since 1 + 1e16 rounds to 1e16 (doubles are 2 apart there, and ties
  // go to the even 1e16); in the order handed in below,
  // ((-1e16 + 1e16) + 1) + 1, it would be 2, and pairwise,
  // (1 + 1e16) + (-1e16 + 1), 0. Element 1 of p is ((1 + 1) + 1e16) +
  // 0.5 = 1e16 + 2 in window order (1e16 + 2.5 rounds down to it), but
  // 1e16 if 1e16 comes before either 1. Of the 24 orders only window
  // order and windows 1, 0, 2, 3 (which addition cannot tell apart) give
  // both. Element 1 of q is -0 in every window: -0 + -0 is -0, but a sum
  // started from +0 would end at +0.
  const double big = 1e16;
  REQUIRE(1.0 + big == big);
  REQUIRE(-big + 1.0 == -big);
  CHECK(message_of<llm::ConfigError>([&] { llm::WindowSum(0, params); }) ==
        "WindowSum: 0 windows, expected at least one");
  llm::WindowSum sum(4, params);
  std::vector<NamedTensor> g0 = window_grads({1, 1, 2}, {0.5, -0.0});
  std::vector<NamedTensor> g1 = window_grads({big, 1, 3}, {0.25, -0.0});
  std::vector<NamedTensor> g2 = window_grads({-big, big, 4}, {0.125, -0.0});
  std::vector<NamedTensor> g3 = window_grads({1, 0.5, 5}, {0, -0.0});
  const Tensor kept0 = g0[0].value;  // our own handle on window 0's p
  Tensor kept1 = g1[0].value;        // and on window 1's
  sum.add(2, std::move(g2));
  CHECK(sum.waiting() == 1);
  sum.add(1, std::move(g1));
  CHECK(sum.waiting() == 2);
  CHECK(kept1.sole_data() == nullptr);  // window 1 waits: held there too

  // Bad input is refused and changes nothing, not even what it was given.
  CHECK(message_of<llm::IndexError>([&] { sum.add(4, std::move(g0)); }) ==
        "WindowSum::add: window 4, expected a window below 4");
  CHECK(message_of<llm::IndexError>([&] { sum.add(2, std::move(g0)); }) ==
        "WindowSum::add: window 2 was handed in before");
  CHECK(message_of<llm::ShapeError>([&] {
          sum.add(0, {g0[0]});
        }) == "WindowSum::add: window 0: expected 2 gradients, got 1");
  CHECK(message_of<llm::ShapeError>([&] {
          sum.add(0, {g0[1], g0[0]});
        }) == "WindowSum::add: window 0: gradient 0 is named q, expected p");
  CHECK(message_of<llm::ShapeError>([&] {
          sum.add(0, {g0[0], {"q", Tensor(llm::Shape{3})}});
        }) ==
        "WindowSum::add: window 0: the gradient of q is [3], expected [2]");
  REQUIRE(g0.size() == 2);  // still ours after the refusals
  CHECK(message_of<llm::IndexError>([&] { sum.take(); }) ==
        "WindowSum::take: window 0 of 4 has not been handed in");
  CHECK(sum.waiting() == 2);

  sum.add(0, std::move(g0));  // windows 0, 1 and 2 are added now
  CHECK(sum.waiting() == 0);
  CHECK(kept1.sole_data() != nullptr);  // window 1 added and dropped
  sum.add(3, std::move(g3));
  CHECK(sum.waiting() == 0);
  const std::vector<NamedTensor> total = sum.take();
  REQUIRE(total.size() == 2);
  CHECK(total[0].name == "p");
  CHECK(total[1].name == "q");
  // By hand, in window order: p = ((1 + 1e16) - 1e16) + 1 = 1,
  // ((1 + 1) + 1e16) + 0.5 = 1e16 + 2, 2 + 3 + 4 + 5 = 14; q = 0.875
  // (exact), -0.
  CHECK(::same_bits(total[0].value.to_vector(), {1.0, big + 2.0, 14.0}));
  CHECK(::same_bits(total[1].value.to_vector(), {0.875, -0.0}));
  // Window 0's p, which we still hold, was not written: the sum went to
  // a buffer of its own.
  CHECK(::same_bits(kept0.to_vector(), {1.0, 1.0, 2.0}));
  CHECK(sum.take().empty());
}
