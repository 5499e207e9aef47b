// Tests for chapter kv-cache: decode_step's logits against model_forward
// on the whole prefix, bit for bit, at every position of two prompts; the
// cache's rows against the rotated keys and the values model_forward
// computes; the work formulas against hand counts; and every rejected
// input, each with its own message and nothing changed. model_forward is
// the reference: the decoder-model tests check it against plain loops.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/kv_cache.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"
#include "message_of.hpp"

namespace {

using llm::KvCache;
using llm::ModelConfig;
using llm::Parameters;
using llm::Shape;
using llm::Tensor;

// V = 7, d = 8, three blocks of two heads of width 4, f = 12, context 6;
// RoPE base 100 so that the angles differ a lot between positions.
const ModelConfig small{.vocab = 7, .d_model = 8, .layers = 3, .heads = 2,
                        .ffn_width = 12, .context = 6, .rope_base = 100.0};

Parameters model(const ModelConfig& c, std::uint64_t seed = 33) {
  Parameters p(seed);
  llm::add_model_parameters(p, c);
  return p;
}

// What model_forward gives for one sequence: the logits [T, V] and, per
// block, the rotated keys and the values [h, T, d_h].
struct Full {
  Tensor logits;
  std::vector<Tensor> keys, values;
};

Full full_forward(const Parameters& p, const std::vector<std::size_t>& ids) {
  llm::Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const llm::TokenGrid grid{.batch = 1, .length = ids.size(), .ids = ids};
  const llm::ModelTrace trace =
      llm::model_forward(llm::model_weights(leaves, small), small, grid);
  Full f{trace.logits.value().contiguous().reshape({ids.size(), small.vocab}),
         {}, {}};
  const std::size_t h = small.heads, d_h = small.d_model / h;
  for (const llm::DecoderBlockTrace& b : trace.blocks) {
    const Shape s{h, ids.size(), d_h};
    f.keys.push_back(b.attention.k.value().contiguous().reshape(s));
    f.values.push_back(b.attention.v.value().contiguous().reshape(s));
  }
  return f;
}

// The bits of every element (== would call -0 and +0 equal).
std::vector<std::uint64_t> bits(const Tensor& t) {
  std::vector<std::uint64_t> out;
  for (double v : t.to_vector()) out.push_back(std::bit_cast<std::uint64_t>(v));
  return out;
}

Tensor row(const Tensor& m, std::size_t r) {
  return m.slice(0, r, r + 1).contiguous().reshape({m.shape()[1]});
}

const std::vector<std::vector<std::size_t>> prompts = {
    {3, 1, 4, 1, 5, 2}, {6, 6, 0, 2, 5, 3}};

}  // namespace

TEST_CASE("decode_step equals model_forward on the whole prefix, bit for "
          "bit, at every position", "[kv-cache]") {
  const Parameters p = model(small);
  for (const std::vector<std::size_t>& prompt : prompts) {
    const Full whole = full_forward(p, prompt);
    KvCache cache(small);
    for (std::size_t t = 0; t < prompt.size(); ++t) {
      INFO("position " << t << " of prompt starting " << prompt[0]);
      const Tensor cached = llm::decode_step(p, small, cache, prompt[t]);
      REQUIRE(cached.shape() == Shape{small.vocab});
      // The uncached way: the whole prefix 0 .. t, its last row.
      const std::vector<std::size_t> prefix(prompt.begin(),
                                            prompt.begin() + t + 1);
      const Full uncached = full_forward(p, prefix);
      CHECK(bits(cached) == bits(row(uncached.logits, t)));
      // By causality also row t of the run on the whole prompt.
      CHECK(bits(cached) == bits(row(whole.logits, t)));
    }
  }
}

TEST_CASE("decode_step equals model_forward with weights unlike an "
          "initialisation: gains far from 1, a large embedding",
          "[kv-cache]") {
  // Every tensor replaced by a wave of its shape, different per tensor,
  // so that a gain read for the wrong norm or a weight of the wrong
  // block changes the logits (at initialisation every gain is 1).
  const Parameters init = model(small);
  Parameters p(33);
  double phase = 0.3;
  for (const llm::NamedTensor& n : init.list()) {
    std::vector<double> v(n.value.numel());
    const bool gain = n.name.ends_with(".gain");
    for (std::size_t k = 0; k < v.size(); ++k) {
      const double w = std::sin(0.9 * double(k) + phase);
      v[k] = gain ? 1.0 + 0.5 * w : 0.6 * w;
    }
    p.add(n.name, Tensor(n.value.shape(), v));
    phase += 0.7;
  }
  for (const std::vector<std::size_t>& prompt : prompts) {
    const Full whole = full_forward(p, prompt);
    KvCache cache(small);
    for (std::size_t t = 0; t < prompt.size(); ++t) {
      INFO("position " << t << " of prompt starting " << prompt[0]);
      CHECK(bits(llm::decode_step(p, small, cache, prompt[t])) ==
            bits(row(whole.logits, t)));
    }
  }
}

TEST_CASE("after t tokens the cache holds exactly t rows per layer: the "
          "rotated keys and the values of model_forward", "[kv-cache]") {
  const Parameters p = model(small);
  const std::vector<std::size_t>& prompt = prompts[0];
  KvCache cache(small);
  CHECK(cache.size() == 0);
  for (std::size_t t = 1; t <= prompt.size(); ++t) {
    llm::decode_step(p, small, cache, prompt[t - 1]);
    INFO("after " << t << " tokens");
    REQUIRE(cache.size() == t);
    const Full f = full_forward(p, std::vector<std::size_t>(
                                       prompt.begin(), prompt.begin() + t));
    for (std::size_t l = 0; l < small.layers; ++l) {
      INFO("layer " << l);
      REQUIRE(cache.keys(l).shape() == Shape{2, t, 4});
      REQUIRE(cache.values(l).shape() == Shape{2, t, 4});
      CHECK(cache.key_rows(l).size() == t * small.d_model);
      CHECK(bits(cache.keys(l)) == bits(f.keys[l]));
      CHECK(bits(cache.values(l)) == bits(f.values[l]));
    }
  }
}

TEST_CASE("cached and uncached work by formula, against hand counts",
          "[kv-cache]") {
  // d = 8, f = 12, N = 3, V = 7: a block's projections cost 4 d^2 = 256,
  // its SwiGLU 3 d f = 288, the logits V d = 56 per position.
  // Cached at t = 0: 3 (256 + 288 + 2*1*8) + 56 = 1736.
  CHECK(llm::cached_step_work(small, 0) == 1736);
  // One token: the full forward does the same work.
  CHECK(llm::uncached_step_work(small, 0) == 1736);
  // t = 5: cached 3 (544 + 2*6*8) + 56 = 1976; uncached
  // 6 (3*544 + 56) + 2*3*36*8 = 10128 + 1728 = 11856.
  CHECK(llm::cached_step_work(small, 5) == 1976);
  CHECK(llm::uncached_step_work(small, 5) == 11856);
}

namespace {

// Every number a cache holds, to see that a rejected call changed none.
std::vector<std::vector<std::uint64_t>> snapshot(const KvCache& c) {
  std::vector<std::vector<std::uint64_t>> s;
  for (std::size_t l = 0; l < c.config().layers; ++l) {
    s.push_back(bits(c.keys(l)));
    s.push_back(bits(c.values(l)));
  }
  return s;
}

}  // namespace

TEST_CASE("decode_step rejects a full cache, another model's cache, an id "
          "out of range and a bad parameter, changing nothing",
          "[kv-cache]") {
  const Parameters p = model(small);
  KvCache cache(small);
  for (std::size_t t = 0; t < 2; ++t) llm::decode_step(p, small, cache, t);
  const auto before = snapshot(cache);

  CHECK(message_of<llm::IndexError>([&] {
          llm::decode_step(p, small, cache, 7);
        }) == "decode_step: id 7, expected an id below V = 7");

  ModelConfig other = small;
  other.context = 5;
  KvCache foreign(other);
  CHECK(message_of<llm::ConfigError>([&] {
          llm::decode_step(p, small, foreign, 0);
        }) == "decode_step: the cache is for V 7, d 8, N 3, h 2, f 12, "
              "context 5, rope_base 100, eps 1e-05, expected V 7, d 8, "
              "N 3, h 2, f 12, context 6, rope_base 100, eps 1e-05");
  CHECK(foreign.size() == 0);

  // A difference past %g's six digits is still another model.
  ModelConfig close = small;
  close.eps = small.eps * (1.0 + 1e-9);
  KvCache near(close);
  CHECK_THROWS_AS(llm::decode_step(p, small, near, 0), llm::ConfigError);
  CHECK(near.size() == 0);

  // A registry with block1.ffn.w_up one column too wide.
  Parameters wide(33);
  for (const llm::NamedTensor& n : p.list()) {
    wide.add(n.name, n.name == "block1.ffn.w_up" ? Tensor(Shape{8, 13})
                                                 : n.value);
  }
  CHECK(message_of<llm::ShapeError>([&] {
          llm::decode_step(wide, small, cache, 0);
        }) == "decode_step: block1.ffn.w_up is [8,13], expected [8,12]");
  // A registry of two blocks for a model of three.
  ModelConfig two = small;
  two.layers = 2;
  CHECK(message_of<llm::IndexError>([&] {
          llm::decode_step(model(two), small, cache, 0);
        }) == "Parameters::at: no parameter named 'block2.norm1.gain' "
              "among 20");
  CHECK(cache.size() == 2);
  CHECK(snapshot(cache) == before);

  // Fill the context, then one more position is one too many.
  for (std::size_t t = 2; t < small.context; ++t) {
    llm::decode_step(p, small, cache, t % small.vocab);
  }
  const auto full = snapshot(cache);
  CHECK(message_of<llm::IndexError>([&] {
          llm::decode_step(p, small, cache, 0);
        }) == "decode_step: position 6 is beyond the context of 6 "
              "positions (0 .. 5)");
  CHECK(cache.size() == small.context);
  CHECK(snapshot(cache) == full);
}

TEST_CASE("a rejected step leaves a cache that still gives the uncached "
          "logits", "[kv-cache]") {
  const Parameters p = model(small);
  const std::vector<std::size_t>& prompt = prompts[1];
  const Full whole = full_forward(p, prompt);
  KvCache cache(small);
  for (std::size_t t = 0; t < prompt.size(); ++t) {
    CHECK_THROWS_AS(llm::decode_step(p, small, cache, 99), llm::IndexError);
    CHECK(bits(llm::decode_step(p, small, cache, prompt[t])) ==
          bits(row(whole.logits, t)));
  }
}

TEST_CASE("KvCache checks its configuration and every append",
          "[kv-cache]") {
  ModelConfig odd = small;
  odd.heads = 3;  // 8 is not a multiple of 3
  CHECK_THROWS_AS(KvCache(odd), llm::ConfigError);

  KvCache cache(small);
  const std::vector<double> row8(8, 0.5), row7(7, 0.5);
  CHECK(message_of<llm::IndexError>([&] { cache.append(3, row8, row8); }) ==
        "KvCache::append: layer 3, expected a layer below N = 3");
  CHECK(message_of<llm::ShapeError>([&] { cache.append(0, row8, row7); }) ==
        "KvCache::append: key has 8 numbers, value 7, expected d = 8 each");
  CHECK(message_of<llm::IndexError>([&] { cache.append(1, row8, row8); }) ==
        "KvCache::append: layer 1 holds 0 positions, expected layer 1 to "
        "be the next due for position 0");
  CHECK(cache.key_rows(0).empty());
  cache.append(0, row8, row8);
  CHECK(message_of<llm::IndexError>([&] { cache.append(0, row8, row8); }) ==
        "KvCache::append: layer 0 holds 1 positions, expected layer 0 to "
        "be the next due for position 0");
  CHECK(cache.size() == 0);  // layers 1 and 2 have not got position 0
  cache.append(1, row8, row8);
  cache.append(2, row8, row8);
  CHECK(cache.size() == 1);
  CHECK(cache.keys(2).shape() == Shape{2, 1, 4});
}
