// Tests for chapter neural-ngram: the configuration and its parameters
// (names, shapes, the count by formula and by registry), the examples cut
// from documents and their padding (the ids Kneser-Ney scores), batch
// sampling, the forward pass against a plain-loop model written here, the
// loss against a plain log-sum-exp, a central-difference check of every
// coordinate of every parameter, the test-set sum, every rejected input
// (each leaving things as they were), and bitwise reproducible training.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/kneser_ney.hpp"
#include "llm/layers.hpp"
#include "llm/ngram.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "parameter_check.hpp"

namespace {

using llm::NgramBatch;
using llm::NgramConfig;
using llm::Parameters;
using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;
using Vec = std::vector<double>;
using Docs = std::vector<std::vector<llm::TokenId>>;

// V = 5, n = 3 (two context ids), d = 2, so c = 4; f = 3.
const NgramConfig tiny{.vocab = 5, .order = 3, .embed = 2, .hidden = 3};

// The registry of `tiny` with every tensor replaced by a wave of the same
// shape, so that no gradient is small because of the initialisation (the
// bias would otherwise start at zero).
Parameters waved() {
  Parameters init(3);
  llm::add_ngram_parameters(init, tiny);
  Parameters p(3);
  double phase = 0.3;
  for (const llm::NamedTensor& n : init.list()) {
    p.add(n.name, wave(n.value.shape(), phase, 0.8));
    phase += 1.1;
  }
  return p;
}

// Three examples of two context ids each.
const NgramBatch three{.context = 2,
                       .contexts = {1, 4, 0, 0, 3, 2},
                       .targets = {2, 1, 4}};

llm::NgramWeights of(const std::vector<Var>& v) {
  return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

double silu(double x) { return x / (1.0 + std::exp(-x)); }

// The model with plain loops: u = [E_a E_b], h = u + (silu(u Wg) *
// (u Wu)) Wd, z = h W + b. Row-major [N, V].
Vec plain_logits(const Parameters& p, const NgramBatch& b) {
  const Vec e = p.at("embed.weight").to_vector(),
            wg = p.at("ffn.w_gate").to_vector(),
            wu = p.at("ffn.w_up").to_vector(),
            wd = p.at("ffn.w_down").to_vector(),
            w = p.at("out.weight").to_vector(),
            bias = p.at("out.bias").to_vector();
  const std::size_t d = 2, c = 4, f = 3, v = 5;
  Vec z;
  for (std::size_t i = 0; i < b.size(); ++i) {
    Vec u;
    for (std::size_t k = 0; k < 2; ++k) {
      for (std::size_t j = 0; j < d; ++j) {
        u.push_back(e[b.contexts[i * 2 + k] * d + j]);
      }
    }
    Vec g(f, 0.0), up(f, 0.0), h = u;
    for (std::size_t q = 0; q < f; ++q) {
      for (std::size_t j = 0; j < c; ++j) {
        g[q] += u[j] * wg[j * f + q];
        up[q] += u[j] * wu[j * f + q];
      }
    }
    for (std::size_t j = 0; j < c; ++j) {
      for (std::size_t q = 0; q < f; ++q) {
        h[j] += silu(g[q]) * up[q] * wd[q * c + j];
      }
    }
    for (std::size_t o = 0; o < v; ++o) {
      double s = bias[o];
      for (std::size_t j = 0; j < c; ++j) s += h[j] * w[j * v + o];
      z.push_back(s);
    }
  }
  return z;
}

Tensor logits_of(const Parameters& p, const NgramBatch& b) {
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  return llm::ngram_logits(llm::ngram_weights(leaves), tiny, b).value();
}

}  // namespace

TEST_CASE("an n-gram configuration needs n >= 2 and V, d, f > 0",
          "[neural-ngram]") {
  // The message of the ConfigError validate(c) throws.
  const auto error = [](const NgramConfig& c) {
    return message_of<llm::ConfigError>([&] { llm::validate(c); });
  };
  CHECK(error({.vocab = 5, .order = 1, .embed = 2, .hidden = 3}) ==
        "n-gram model: order n is 1, expected n >= 2");
  CHECK(error({.vocab = 0, .order = 3, .embed = 2, .hidden = 3}) ==
        "n-gram model: vocab is 0, expected > 0");
  CHECK(error({.vocab = 5, .order = 3, .embed = 0, .hidden = 3}) ==
        "n-gram model: embed is 0, expected > 0");
  CHECK(error({.vocab = 5, .order = 3, .embed = 2, .hidden = 0}) ==
        "n-gram model: hidden is 0, expected > 0");
  CHECK_NOTHROW(llm::validate(tiny));
}

TEST_CASE("the parameters: names, shapes and the count by formula",
          "[neural-ngram]") {
  Parameters p(3);
  llm::add_ngram_parameters(p, tiny);
  const std::vector<std::string> names = {"embed.weight", "ffn.w_gate",
                                          "ffn.w_up",     "ffn.w_down",
                                          "out.weight",   "out.bias"};
  const std::vector<Shape> shapes = {{5, 2}, {4, 3}, {4, 3},
                                     {3, 4}, {4, 5}, {5}};
  REQUIRE(p.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(p.list()[i].name == names[i]);
    CHECK(p.list()[i].value.shape() == shapes[i]);
  }
  // V d + 3 c f + c V + V = 10 + 36 + 20 + 5, and the registry agrees.
  CHECK(llm::ngram_parameter_count(tiny) == 71);
  CHECK(p.scalar_count() == 71);
  CHECK(llm::context_width(tiny) == 4);
  CHECK(p.at("out.bias").to_vector() == Vec(5, 0.0));
}

TEST_CASE("add_ngram_parameters adds nothing when it fails",
          "[neural-ngram]") {
  Parameters p(3);
  p.add("out.bias", Tensor({1}, {7.0}));
  const std::uint64_t before = p.fingerprint();
  CHECK(message_of<llm::ConfigError>([&] {
          llm::add_ngram_parameters(p, tiny);
        }) == "add_ngram_parameters: out.bias is already a parameter, "
              "expected a new name");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::add_ngram_parameters(
              p, NgramConfig{.vocab = 5, .order = 1, .embed = 2,
                             .hidden = 3});
        }) == "n-gram model: order n is 1, expected n >= 2");
  CHECK(p.size() == 1);
  CHECK(p.fingerprint() == before);
}

TEST_CASE("examples are the windows of n ids inside each document",
          "[neural-ngram]") {
  // n = 3 over [5 6 7 8] and [1 2 3]: contexts (5,6) (6,7) and (1,2),
  // targets 7, 8 and 3; no window crosses from one document to the next.
  const NgramBatch b = llm::ngram_examples({{5, 6, 7, 8}, {1, 2, 3}}, 3);
  CHECK(b.context == 2);
  CHECK(b.contexts == std::vector<std::size_t>{5, 6, 6, 7, 1, 2});
  CHECK(b.targets == std::vector<std::size_t>{7, 8, 3});
  CHECK(b.size() == 3);
  // n = 2 gives the bigram's pairs.
  const NgramBatch pairs = llm::ngram_examples({{0, 1, 2}}, 2);
  CHECK(pairs.contexts == std::vector<std::size_t>{0, 1});
  CHECK(pairs.targets == std::vector<std::size_t>{1, 2});
}

TEST_CASE("padding repeats BOS so every id after it is predicted",
          "[neural-ngram]") {
  // BOS = 9: [9 4 5] padded for n = 4 is [9 9 9 4 5]; its windows predict
  // 4 and 5, the two ids the bigram predicts after BOS.
  const Docs padded = llm::pad_documents({{9, 4, 5}, {9, 6}}, 4);
  CHECK(padded == Docs{{9, 9, 9, 4, 5}, {9, 9, 9, 6}});
  const NgramBatch b = llm::ngram_examples(padded, 4);
  CHECK(b.contexts == std::vector<std::size_t>{9, 9, 9, 9, 9, 4, 9, 9, 9});
  CHECK(b.targets == std::vector<std::size_t>{4, 5, 6});
  // n = 2 pads nothing.
  CHECK(llm::pad_documents({{9, 4}}, 2) == Docs{{9, 4}});
}

TEST_CASE("padded windows predict the ids Kneser-Ney scores in order",
          "[neural-ngram]") {
  // evaluate scores every id after each document's first (BOS); padding
  // with n - 2 more BOS gives every such id a full window ending at it,
  // so the windows' targets are those ids, in order, at every order n.
  const Docs docs = {{0, 1, 2, 1, 2, 4}, {0, 3, 2, 4}, {0, 2},
                     {0, 1, 1, 3, 2, 2, 4}};
  std::vector<std::size_t> after_bos;
  for (const std::vector<llm::TokenId>& d : docs) {
    after_bos.insert(after_bos.end(), d.begin() + 1, d.end());
  }
  for (std::size_t n = 2; n <= 5; ++n) {
    const NgramBatch b = llm::ngram_examples(llm::pad_documents(docs, n), n);
    CHECK(b.targets == after_bos);
    const llm::KneserNey kn(docs, 5, static_cast<int>(n));
    CHECK(llm::evaluate(kn, docs, 1).predictions == b.size());
  }
}

TEST_CASE("bad documents and orders are rejected with their own message",
          "[neural-ngram]") {
  CHECK(message_of<llm::ConfigError>([] {
          llm::ngram_examples({{1, 2, 3}, {4, 5}}, 3);
        }) == "ngram_examples: document 1 has 2 ids, expected at least "
              "n = 3: its context is longer");
  CHECK(message_of<llm::ConfigError>([] {
          llm::ngram_examples({{1, 2, 3}}, 1);
        }) == "ngram_examples: order n is 1, expected n >= 2");
  CHECK(message_of<llm::ConfigError>([] { llm::ngram_examples({}, 3); }) ==
        "ngram_examples: expected documents, got none");
  CHECK(message_of<llm::ConfigError>([] {
          llm::pad_documents({{1}, {}}, 3);
        }) == "pad_documents: document 1 is empty, expected at least "
              "its BOS");
  CHECK(message_of<llm::ConfigError>([] { llm::pad_documents({{1}}, 0); }) ==
        "pad_documents: order n is 0, expected n >= 2");
}

TEST_CASE("a sampled batch holds whole examples, the same for the same "
          "seed",
          "[neural-ngram]") {
  const NgramBatch all = llm::ngram_examples({{5, 6, 7, 8, 9, 10}}, 3);
  llm::Rng a(11), b(11), other(12);
  const NgramBatch x = llm::sample_batch(all, 20, a);
  const NgramBatch y = llm::sample_batch(all, 20, b);
  const NgramBatch z = llm::sample_batch(all, 20, other);
  CHECK(x.contexts == y.contexts);
  CHECK(x.targets == y.targets);
  CHECK(x.targets != z.targets);
  REQUIRE(x.size() == 20);
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Every window of [5 .. 10] is (t - 2, t - 1) -> t.
    CHECK(x.contexts[2 * i] + 2 == x.targets[i]);
    CHECK(x.contexts[2 * i + 1] + 1 == x.targets[i]);
  }
  const NgramBatch rows = llm::batch_rows(all, 1, 3);
  CHECK(rows.contexts == std::vector<std::size_t>{6, 7, 7, 8});
  CHECK(rows.targets == std::vector<std::size_t>{8, 9});
}

// The chapter's demo replays the batch seed to mark which training
// examples a run draws; that replay is right only while each draw is
// row next_u64() % N, in order.
TEST_CASE("sample_batch draws row next_u64() % N for each example",
          "[neural-ngram]") {
  const NgramBatch all =
      llm::ngram_examples({{5, 6, 7, 8, 9, 10, 11, 12, 13}}, 3);
  llm::Rng rng(2020), replay(2020);
  const NgramBatch b = llm::sample_batch(all, 50, rng);
  REQUIRE(b.size() == 50);
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::size_t row = replay.next_u64() % all.size();
    CHECK(b.targets[i] == all.targets[row]);
    CHECK(b.contexts[2 * i] == all.contexts[2 * row]);
  }
  CHECK(rng.state() == replay.state());
}

TEST_CASE("an empty batch is rejected", "[neural-ngram]") {
  const NgramBatch all = llm::ngram_examples({{5, 6, 7}}, 3);
  llm::Rng rng(1);
  const std::uint64_t state = rng.state();
  CHECK(message_of<llm::ConfigError>([&] {
          llm::sample_batch(all, 0, rng);
        }) == "sample_batch: 0 examples from 1, expected both > 0");
  CHECK(rng.state() == state);  // nothing was drawn
  CHECK(message_of<llm::IndexError>([&] { llm::batch_rows(all, 1, 1); }) ==
        "batch_rows: rows 1 .. 1 of 1, expected begin < end <= N");
  const Parameters p = waved();
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const std::size_t nodes = tape.size();
  const NgramBatch empty{.context = 2, .contexts = {}, .targets = {}};
  CHECK(message_of<llm::ConfigError>([&] {
          llm::ngram_logits(llm::ngram_weights(leaves), tiny, empty);
        }) == "ngram_logits: an empty batch, expected at least one example");
  CHECK(tape.size() == nodes);
}

TEST_CASE("the forward pass equals the model written with plain loops",
          "[neural-ngram]") {
  const Parameters p = waved();
  const Tensor z = logits_of(p, three);
  REQUIRE(z.shape() == Shape{3, 5});
  const Vec want = plain_logits(p, three), got = z.to_vector();
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("logit " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-12));
  }
}

TEST_CASE("the n-gram loss is the mean of log-sum-exp minus the target logit",
          "[neural-ngram]") {
  const Parameters p = waved();
  const Vec z = plain_logits(p, three);
  double total = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    double s = 0.0;
    for (std::size_t v = 0; v < 5; ++v) s += std::exp(z[i * 5 + v]);
    total += std::log(s) - z[i * 5 + three.targets[i]];
  }
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const Var loss = llm::ngram_loss(
      llm::ngram_logits(llm::ngram_weights(leaves), tiny, three), three);
  CHECK(loss.value().at({}) == Approx(total / 3).margin(1e-12));
  // The sum over the split is N times the mean, in any chunk size.
  for (std::size_t chunk : {1, 2, 3, 10}) {
    CHECK(llm::ngram_nll_sum(p, tiny, three, chunk) ==
          Approx(total).margin(1e-12));
  }
  CHECK(message_of<llm::ConfigError>([&] {
          llm::ngram_nll_sum(p, tiny, three, 0);
        }) == "ngram_nll_sum: chunk is 0, expected > 0");
}

TEST_CASE("every coordinate of every n-gram parameter passes a central-"
          "difference check of the loss",
          "[neural-ngram]") {
  const llm::TapeFunction f = [](Tape&, const std::vector<Var>& v) {
    return llm::ngram_loss(llm::ngram_logits(of(v), tiny, three), three);
  };
  const ParameterCheck checked = check_every_parameter(f, waved());
  REQUIRE(checked.parameters == 6);
  CHECK(checked.coordinates == 71);
}

TEST_CASE("bad ids and contexts are rejected before anything is recorded",
          "[neural-ngram]") {
  const Parameters p = waved();
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const llm::NgramWeights w = llm::ngram_weights(leaves);
  const std::size_t nodes = tape.size();
  NgramBatch bad = three;
  bad.contexts[3] = 5;
  CHECK(message_of<llm::IndexError>([&] {
          llm::ngram_logits(w, tiny, bad);
        }) == "ngram_logits: context id 5 at position 3, expected an id "
              "below V = 5");
  bad = three;
  bad.targets[2] = 9;
  CHECK(message_of<llm::IndexError>([&] {
          llm::ngram_logits(w, tiny, bad);
        }) == "ngram_logits: target id 9 at position 2, expected an id "
              "below V = 5");
  bad = three;
  bad.contexts.pop_back();
  CHECK(message_of<llm::ShapeError>([&] {
          llm::ngram_logits(w, tiny, bad);
        }) == "ngram_logits: 5 context ids, 2 per example, for 3 "
              "examples, expected 2 per example");
  const NgramConfig wider{.vocab = 5, .order = 3, .embed = 2, .hidden = 4};
  CHECK(message_of<llm::ShapeError>([&] {
          llm::ngram_logits(w, wider, three);
        }) == "ngram_logits: ffn.w_gate is [4,3], expected [4,4]");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::ngram_logits(w, NgramConfig{.vocab = 5, .order = 1,
                                           .embed = 2, .hidden = 3},
                            three);
        }) == "n-gram model: order n is 1, expected n >= 2");
  CHECK(tape.size() == nodes);
  const Var z = llm::ngram_logits(w, tiny, three);
  CHECK(message_of<llm::ShapeError>([&] {
          llm::ngram_loss(z, llm::batch_rows(three, 0, 2));
        }) == "ngram_loss: logits are [3,5] for 2 targets, expected [N, V]");
}

TEST_CASE("training is bitwise reproducible, and the seeds matter",
          "[neural-ngram]") {
  const NgramBatch all =
      llm::ngram_examples({{0, 1, 2, 3, 4, 0, 2, 4, 1, 3}}, 3);
  struct Run {
    std::uint64_t fingerprint;
    double first, last, full;  // first and last batch loss, mean on all
  };
  const auto run = [&](std::uint64_t init_seed, std::uint64_t batch_seed) {
    Parameters p(init_seed);
    llm::add_ngram_parameters(p, tiny);
    llm::AdamW opt(p, {.lr = 0.05});
    llm::Rng rng(batch_seed);
    double first = 0.0, last = 0.0;
    for (int s = 0; s < 20; ++s) {
      const NgramBatch b = llm::sample_batch(all, 4, rng);
      Tape tape;
      const llm::ParameterLeaves w(tape, p);
      const Var loss = llm::ngram_loss(
          llm::ngram_logits(llm::ngram_weights(w), tiny, b), b);
      tape.backward(loss);
      opt.step(p, w.gradients());
      (s == 0 ? first : last) = loss.value().at({});
    }
    const double full = llm::ngram_nll_sum(p, tiny, all, 3) / 8.0;
    return Run{p.fingerprint(), first, last, full};
  };
  const Run a = run(3, 9), b = run(3, 9);
  CHECK(a.fingerprint == b.fingerprint);  // every parameter, bit for bit
  CHECK(a.first == b.first);
  CHECK(a.last == b.last);
  CHECK(a.full == b.full);
  CHECK(run(3, 10).fingerprint != a.fingerprint);  // other batches
  CHECK(run(4, 9).fingerprint != a.fingerprint);   // another start
  // Twenty steps on eight examples learn them: the loss falls.
  CHECK(a.full < a.first);
}
