// Tests for chapter decoder-model: configuration and registration (names,
// order, shapes, the count by formula and by registry, the initialisation
// rule), the forward pass against a composition written here with plain
// loops around the decoder blocks (which the decoder-block tests check
// against a plain-loop block), the loss against a plain log-sum-exp,
// causality, the tied gradient, a central-difference check of every
// coordinate of every parameter, and every rejected input. Uses only what
// chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_block.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/ops.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "parameter_check.hpp"
#include "tape_check.hpp"

namespace {

using llm::ModelConfig;
using llm::Parameters;
using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::TokenGrid;
using llm::Var;
using Vec = std::vector<double>;

// V = 5, d = 4, two blocks of two heads of width 2, f = 6, context 5.
const ModelConfig small{.vocab = 5, .d_model = 4, .layers = 2, .heads = 2,
                        .ffn_width = 6, .context = 5, .rope_base = 100.0};

// The registry of `small` with every tensor replaced by a wave of the
// same shape (gains near 1, a large embedding), so that no gradient is
// tiny because of the initialisation.
Parameters waved() {
  Parameters init(5);
  llm::add_model_parameters(init, small);
  Parameters p(5);
  double phase = 0.1;
  for (const llm::NamedTensor& n : init.list()) {
    const bool gain = n.value.rank() == 1;
    p.add(n.name, wave(n.value.shape(), phase, gain ? 0.2 : 0.6,
                       gain ? 1.0 : 0.0));
    phase += 0.9;
  }
  return p;
}

// B = 2 sequences of T = 4 ids, and the ids that follow them.
const TokenGrid inputs{.batch = 2, .length = 4, .ids = {1, 3, 0, 3, 4, 2, 2, 1}};
const TokenGrid targets{.batch = 2, .length = 4, .ids = {3, 0, 3, 2, 2, 2, 1, 0}};

// Model weights from leaves in registry order: E, 9 per block, gain.
llm::ModelWeights weights_of(const Vars& v, std::size_t layers) {
  llm::ModelWeights w{v[0], {}, v[1 + 9 * layers], v[0]};
  for (std::size_t l = 0; l < layers; ++l) {
    const Var* b = &v[1 + 9 * l];
    w.blocks.push_back({b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                        b[8]});
  }
  return w;
}

Tensor logits_of(const Parameters& p, const ModelConfig& c,
                 const TokenGrid& in) {
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  return llm::model_forward(llm::model_weights(leaves, c), c, in)
      .logits.value();
}

// ---- the model composed by hand around the library's blocks ---------

Vec composed_logits(const Parameters& p, const ModelConfig& c,
                    const TokenGrid& in) {
  const std::size_t d = c.d_model, n = in.ids.size();
  const Vec e = p.at("embed.weight").to_vector();
  Vec x;  // row i of E for each id: [B T, d]
  for (std::size_t id : in.ids) {
    for (std::size_t j = 0; j < d; ++j) x.push_back(e[id * d + j]);
  }
  Tensor stream({in.batch, in.length, d}, x);
  for (std::size_t l = 0; l < c.layers; ++l) {
    Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    stream = llm::decoder_block(
                 tape.leaf(stream),
                 llm::decoder_block_weights(leaves,
                                            "block" + std::to_string(l)),
                 llm::block_config(c))
                 .out.value();
  }
  const Vec h = stream.to_vector(), g = p.at("final_norm.gain").to_vector();
  Vec z;
  for (std::size_t i = 0; i < n; ++i) {
    double ms = 0.0;
    for (std::size_t j = 0; j < d; ++j) ms += h[i * d + j] * h[i * d + j];
    const double r = std::sqrt(ms / double(d) + c.eps);
    for (std::size_t v = 0; v < c.vocab; ++v) {  // u . E_v
      double dot = 0.0;
      for (std::size_t j = 0; j < d; ++j) {
        dot += h[i * d + j] / r * g[j] * e[v * d + j];
      }
      z.push_back(dot);
    }
  }
  return z;
}

}  // namespace

TEST_CASE("a model configuration needs V, N and a context > 0 and a "
          "valid block",
          "[decoder-model]") {
  REQUIRE_NOTHROW(llm::validate(small));
  ModelConfig c = small;
  const auto error = [&] {
    return message_of<llm::ConfigError>([&] { llm::validate(c); });
  };
  c.vocab = 0;
  REQUIRE(error() == "decoder model: vocab is 0, expected > 0");
  c = small;
  c.layers = 0;
  REQUIRE(error() == "decoder model: layers is 0, expected > 0");
  c = small;
  c.context = 0;
  REQUIRE(error() == "decoder model: context is 0, expected > 0");
  c = small;
  c.heads = 3;  // does not divide d = 4
  REQUIRE_THROWS_AS(llm::validate(c), llm::ConfigError);
  c = small;
  c.ffn_width = 0;
  REQUIRE(error() == "decoder block: ffn_width is 0, expected > 0");
  Parameters params(1);
  REQUIRE_THROWS_AS(llm::add_model_parameters(params, c), llm::ConfigError);
  REQUIRE(params.size() == 0);
}

TEST_CASE("the model registers its tensors in a fixed order, "
          "V d + N(2d + 4d^2 + 3df) + d scalars",
          "[decoder-model]") {
  Parameters params(3);
  llm::add_model_parameters(params, small);
  const std::vector<std::string> parts = {
      ".norm1.gain", ".attn.w_q",   ".attn.w_k", ".attn.w_v", ".attn.w_o",
      ".norm2.gain", ".ffn.w_gate", ".ffn.w_up", ".ffn.w_down"};
  std::vector<std::string> names = {"embed.weight"};
  for (const char* b : {"block0", "block1"}) {
    for (const std::string& part : parts) names.push_back(b + part);
  }
  names.push_back("final_norm.gain");
  REQUIRE(params.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    REQUIRE(params.list()[i].name == names[i]);
  }
  REQUIRE(params.at("embed.weight").shape() == Shape{5, 4});
  REQUIRE(params.at("block1.ffn.w_down").shape() == Shape{6, 4});
  REQUIRE(params.at("final_norm.gain").shape() == Shape{4});
  // 5 * 4 + 2 * (2 * 4 + 4 * 16 + 3 * 4 * 6) + 4 = 20 + 2 * 144 + 4.
  REQUIRE(params.scalar_count() == 312);
  REQUIRE(llm::model_parameter_count(small) == 312);
  // d = 128, N = 4, f = 384, V = 1024: 131072 + 4 * 213248 + 128.
  const ModelConfig large{.vocab = 1024, .d_model = 128, .layers = 4,
                          .heads = 4, .ffn_width = 384, .context = 128};
  REQUIRE(llm::model_parameter_count(large) == 984192);
}

TEST_CASE("initialisation: a small embedding, scaled output projections, "
          "unit gains, reproducible from the seed",
          "[decoder-model]") {
  Parameters params(7);
  llm::add_model_parameters(params, small);
  // The blocks are drawn as add_decoder_block_parameters draws them
  // from the same seed and name; W_O and W_down are then multiplied by
  // 1 / sqrt(2N) = 1/2 for N = 2 (a power of two: exact).
  REQUIRE(llm::residual_init_scale(2) == 0.5);
  Parameters plain(7);
  llm::add_decoder_block_parameters(plain, llm::block_config(small),
                                    "block1");
  REQUIRE(params.at("block1.attn.w_q").to_vector() ==
          plain.at("block1.attn.w_q").to_vector());
  for (const char* name : {"block1.attn.w_o", "block1.ffn.w_down"}) {
    const Vec a = params.at(name).to_vector(), b = plain.at(name).to_vector();
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a[i] == 0.5 * b[i]);
  }
  REQUIRE(params.at("final_norm.gain").to_vector() == Vec{1, 1, 1, 1});
  REQUIRE(params.at("block0.norm2.gain").to_vector() == Vec{1, 1, 1, 1});
  // The embedding's sample standard deviation over 64 * 32 = 2048
  // draws is within a few percent of 0.02 (its own spread is about
  // 0.02 / sqrt(2 * 2048), 1.6 %); 10 % is a loose bound.
  const ModelConfig wide{.vocab = 64, .d_model = 32, .layers = 1,
                         .heads = 2, .ffn_width = 8, .context = 4};
  Parameters w(9);
  llm::add_model_parameters(w, wide);
  double sq = 0.0;
  const Vec e = w.at("embed.weight").to_vector();
  for (double v : e) sq += v * v;
  const double sd = std::sqrt(sq / double(e.size()));
  REQUIRE(sd > 0.9 * llm::embedding_init_std);
  REQUIRE(sd < 1.1 * llm::embedding_init_std);
  // Same seed, same model; another seed, another model.
  Parameters again(7), other(8);
  llm::add_model_parameters(again, small);
  llm::add_model_parameters(other, small);
  REQUIRE(again.fingerprint() == params.fingerprint());
  REQUIRE(other.fingerprint() != params.fingerprint());
}

TEST_CASE("add_model_parameters rejects a taken name and adds nothing",
          "[decoder-model]") {
  Parameters params(3);
  params.add("final_norm.gain", Tensor({1}));  // the last name it adds
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_model_parameters(params, small);
          }) == "add_model_parameters: final_norm.gain is already a "
                "parameter, expected a new name");
  REQUIRE(params.size() == 1);
}

TEST_CASE("the model equals embedding rows, the blocks, a final RMSNorm "
          "and u E^T composed by hand",
          "[decoder-model]") {
  const Parameters p = waved();
  const Tensor z = logits_of(p, small, inputs);
  REQUIRE(z.shape() == Shape{2, 4, 5});
  REQUIRE(max_diff(z.to_vector(), composed_logits(p, small, inputs)) <
          1e-12);
  // The trace's stream: each block's input is the previous one's out.
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const llm::ModelTrace tr =
      llm::model_forward(llm::model_weights(leaves, small), small, inputs);
  REQUIRE(tr.blocks.size() == 2);
  REQUIRE(tr.embedded.shape() == Shape{2, 4, 4});
  REQUIRE(tr.blocks[1].norm1.value().to_vector() !=
          tr.blocks[0].norm1.value().to_vector());
  REQUIRE(tr.final_norm.shape() == Shape{2, 4, 4});
}

TEST_CASE("the loss is the mean of log-sum-exp minus the target's logit",
          "[decoder-model]") {
  const Parameters p = waved();
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const Var z =
      llm::model_forward(llm::model_weights(leaves, small), small, inputs)
          .logits;
  const Var loss = llm::next_token_loss(z, targets);
  REQUIRE(loss.shape() == Shape{});
  const Vec zv = z.value().to_vector();
  double total = 0.0;
  for (std::size_t i = 0; i < 8; ++i) {
    double top = -1e300, s = 0.0;
    for (std::size_t v = 0; v < 5; ++v) top = std::fmax(top, zv[i * 5 + v]);
    for (std::size_t v = 0; v < 5; ++v) s += std::exp(zv[i * 5 + v] - top);
    total += top + std::log(s) - zv[i * 5 + targets.ids[i]];
  }
  REQUIRE(std::fabs(loss.value().at({}) - total / 8.0) < 1e-12);
}

TEST_CASE("changing token t leaves every earlier position's logits "
          "bitwise unchanged",
          "[decoder-model]") {
  const Parameters p = waved();
  const Tensor a = logits_of(p, small, inputs);
  for (std::size_t t = 0; t < 4; ++t) {
    TokenGrid changed = inputs;
    changed.ids[t] = (changed.ids[t] + 1) % 5;  // sequence 0, token t
    const Tensor b = logits_of(p, small, changed);
    REQUIRE(a.slice(0, 0, 1).slice(1, 0, t).to_vector() ==
            b.slice(0, 0, 1).slice(1, 0, t).to_vector());
    REQUIRE(a.slice(0, 0, 1).slice(1, t, t + 1).to_vector() !=
            b.slice(0, 0, 1).slice(1, t, t + 1).to_vector());
    REQUIRE(a.slice(0, 1, 2).to_vector() == b.slice(0, 1, 2).to_vector());
  }
}

TEST_CASE("every coordinate of every parameter passes a central-"
          "difference check of the loss",
          "[decoder-model]") {
  const llm::TapeFunction f = [](Tape&, const Vars& v) {
    return llm::next_token_loss(
        llm::model_forward(weights_of(v, 2), small, inputs).logits,
        targets);
  };
  const ParameterCheck checked = check_every_parameter(f, waved());
  REQUIRE(checked.parameters == 20);
  REQUIRE(checked.coordinates == 312);
}

TEST_CASE("the tied embedding's gradient is the sum of its input and "
          "output uses",
          "[decoder-model]") {
  const Parameters p = waved();
  // Token 4 is in no input (nor in any target).
  const TokenGrid in{.batch = 2, .length = 4,
                     .ids = {1, 3, 0, 3, 0, 2, 2, 1}};
  const auto grads = [&](bool tie) {
    Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    llm::ModelWeights w = llm::model_weights(leaves, small);
    if (!tie) w.output = tape.leaf(p.at("embed.weight"));
    tape.backward(llm::next_token_loss(
        llm::model_forward(w, small, in).logits, targets));
    return std::vector<Tensor>{w.embedding.grad().contiguous(),
                               w.output.grad().contiguous()};
  };
  const std::vector<Tensor> tied = grads(true), split = grads(false);
  // Tied, the leaf receives the output's gradient first (the logits
  // are recorded last) and then the embedding's: 0 + g_out + g_in,
  // which is g_in + g_out bit for bit.
  REQUIRE(tied[0].to_vector() == llm::add(split[0], split[1]).to_vector());
  // The embedding's backward scatter-adds into the rows of the ids it
  // read, so row 4 of the input use is exactly zero.
  REQUIRE(split[0].slice(0, 4, 5).to_vector() == Vec{0, 0, 0, 0});
  REQUIRE(split[0].slice(0, 3, 4).to_vector() != Vec{0, 0, 0, 0});
  // Through the softmax, the output use reaches every row of E.
  bool output_reaches_all = true;
  for (std::size_t v = 0; v < 5; ++v) {
    bool any = false;
    for (double g : split[1].slice(0, v, v + 1).to_vector()) any = any || g != 0;
    output_reaches_all = output_reaches_all && any;
  }
  REQUIRE(output_reaches_all);
}

TEST_CASE("an untrained model's loss is close to log V",
          "[decoder-model]") {
  // V = 256, d = 64: logits of spread about 0.02 sqrt(64) = 0.16, so the
  // expected loss is about log V + 0.16^2 / 2 = log V + 0.013. The mean
  // over 32 positions varies by about 0.16 / sqrt(32) = 0.03 around it;
  // 0.1 is a bound that an embedding of std 1 (spread 8) fails by far.
  const ModelConfig c{.vocab = 256, .d_model = 64, .layers = 2, .heads = 2,
                      .ffn_width = 64, .context = 16};
  Parameters p(4);
  llm::add_model_parameters(p, c);
  llm::Rng rng(4);
  TokenGrid in{.batch = 2, .length = 16, .ids = {}}, out = in;
  for (std::size_t i = 0; i < 32; ++i) {
    in.ids.push_back(static_cast<std::size_t>(rng.uniform() * 256.0));
    out.ids.push_back(static_cast<std::size_t>(rng.uniform() * 256.0));
  }
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const Var z = llm::model_forward(llm::model_weights(leaves, c), c, in)
                    .logits;
  double sq = 0.0;
  for (double v : z.value().to_vector()) sq += v * v;
  const double rms = std::sqrt(sq / double(z.value().numel()));
  REQUIRE(rms > 0.8 * 0.16);
  REQUIRE(rms < 1.25 * 0.16);
  const double loss = llm::next_token_loss(z, out).value().at({});
  REQUIRE(std::fabs(loss - std::log(256.0)) < 0.1);
}

TEST_CASE("model_forward rejects bad tokens and records nothing",
          "[decoder-model]") {
  const Parameters p = waved();
  const auto attempt = [&](const TokenGrid& g, const std::string& message) {
    Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    const llm::ModelWeights w = llm::model_weights(leaves, small);
    REQUIRE_THROWS_WITH(llm::model_forward(w, small, g), message);
    REQUIRE(tape.size() == 20);  // the leaves only
  };
  attempt({.batch = 2, .length = 4, .ids = {1, 2, 3}},
          "model_forward: 3 ids for B = 2, T = 4, expected B T ids with "
          "B, T > 0");
  attempt({.batch = 0, .length = 4, .ids = {}},
          "model_forward: 0 ids for B = 0, T = 4, expected B T ids with "
          "B, T > 0");
  attempt({.batch = 1, .length = 2, .ids = {4, 5}},
          "model_forward: id 5 at position 1, expected an id below V = 5");
  attempt({.batch = 1, .length = 6, .ids = {0, 1, 2, 3, 4, 0}},
          "model_forward: T = 6 tokens exceed the context of 5");
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  REQUIRE_THROWS_AS(
      llm::model_forward(llm::model_weights(leaves, small), small,
                         {.batch = 1, .length = 1, .ids = {9}}),
      llm::IndexError);
}

TEST_CASE("model_forward rejects weights that do not fit the "
          "configuration",
          "[decoder-model]") {
  const Parameters p = waved();
  Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  llm::ModelWeights w = llm::model_weights(leaves, small);
  w.blocks.pop_back();
  REQUIRE_THROWS_WITH(llm::model_forward(w, small, inputs),
                      "model_forward: 1 blocks of weights, expected N = 2");
  w = llm::model_weights(leaves, small);
  w.output = w.final_gain;
  REQUIRE_THROWS_AS(llm::model_forward(w, small, inputs), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::model_forward(w, small, inputs),
                      "model_forward: output is [4], expected [5,4]");
  Tape other;
  w = llm::model_weights(leaves, small);
  w.output = other.leaf(p.at("embed.weight"));
  REQUIRE_THROWS_AS(llm::model_forward(w, small, inputs), llm::ConfigError);
  REQUIRE(tape.size() == 20);
  // A registry without the model's names.
  Parameters empty(1);
  const llm::ParameterLeaves none(tape, empty);
  REQUIRE_THROWS_AS(llm::model_weights(none, small), llm::IndexError);
}

TEST_CASE("next_token_loss rejects targets that do not fit the logits",
          "[decoder-model]") {
  Tape tape;
  const Var z = tape.leaf(Tensor({2, 3, 5}));
  REQUIRE_THROWS_WITH(
      llm::next_token_loss(z, {.batch = 3, .length = 2, .ids = {0, 0, 0, 0, 0, 0}}),
      "next_token_loss: logits are [2,3,5], targets are B = 3, T = 2, "
      "expected logits [B, T, V]");
  REQUIRE_THROWS_WITH(
      llm::next_token_loss(z, {.batch = 2, .length = 3, .ids = {0, 1, 2, 3, 4, 5}}),
      "next_token_loss: id 5 at position 5, expected an id below V = 5");
  REQUIRE(tape.size() == 1);
  // Zero logits: every probability is 1/5 and the loss is log 5.
  const Var loss = llm::next_token_loss(
      z, {.batch = 2, .length = 3, .ids = {0, 1, 2, 3, 4, 0}});
  REQUIRE(std::fabs(loss.value().at({}) - std::log(5.0)) < 1e-15);
}
