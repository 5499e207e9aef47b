// Tests for chapter decoder-block: the block's forward values against an
// independent plain-loop block written here, parameter registration and
// count, causality, the identity path, gradients of the input and every
// parameter by central differences, and every rejected input. Uses only
// what chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_block.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"
#include "tape_check.hpp"

namespace {

using llm::DecoderBlockConfig;
using llm::Parameters;
using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;
using Vec = std::vector<double>;

// d = 4, two heads of width 2, f = 6, base 100, positions 0 .. 4.
const DecoderBlockConfig small{
    .attention = {.d_model = 4, .heads = 2, .rope_base = 100.0,
                  .capacity = 5},
    .ffn_width = 6};

// The nine parameters in registry order, with gains that are not 1 so
// that the gain path is exercised.
std::vector<Tensor> small_weights() {
  return {wave({4}, 0.3, 0.2) , wave({4, 4}, 0.1, 0.6),
          wave({4, 4}, 1.7, 0.6), wave({4, 4}, 2.9, 0.6),
          wave({4, 4}, 0.8, 0.6), wave({4}, 2.2, 0.2),
          wave({4, 6}, 1.3, 0.5), wave({4, 6}, 0.4, 0.5),
          wave({6, 4}, 2.5, 0.4)};
}

std::vector<Tensor> with_unit_gains(std::vector<Tensor> w) {
  // Gains near 1: 1 + the small wave values.
  for (std::size_t i : {0, 5}) {
    Vec g = w[i].to_vector();
    for (double& v : g) v += 1.0;
    w[i] = Tensor({4}, g);
  }
  return w;
}

llm::DecoderBlockWeights weights_of(const Vars& v) {
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
}

// ---- an independent plain-loop decoder block -------------------------

// y[t] = x[t] W for rows of width n, W [n, m].
Vec rows_times(const Vec& x, std::size_t n, const Vec& w, std::size_t m) {
  Vec y(x.size() / n * m, 0.0);
  for (std::size_t t = 0; t < x.size() / n; ++t) {
    for (std::size_t j = 0; j < m; ++j) {
      for (std::size_t i = 0; i < n; ++i) {
        y[t * m + j] += x[t * n + i] * w[i * m + j];
      }
    }
  }
  return y;
}

Vec rms_rows(const Vec& x, std::size_t d, const Vec& g, double eps) {
  Vec y(x.size());
  for (std::size_t t = 0; t < x.size() / d; ++t) {
    double ms = 0.0;
    for (std::size_t j = 0; j < d; ++j) ms += x[t * d + j] * x[t * d + j];
    const double r = std::sqrt(ms / double(d) + eps);
    for (std::size_t j = 0; j < d; ++j) y[t * d + j] = x[t * d + j] / r * g[j];
  }
  return y;
}

// Causal attention with RoPE for one sequence of T rows of width d.
Vec attention(const Vec& x, std::size_t t_len, const std::vector<Vec>& w,
              std::size_t d, std::size_t heads, double base) {
  Vec q = rows_times(x, d, w[1], d), k = rows_times(x, d, w[2], d);
  const Vec v = rows_times(x, d, w[3], d);
  const std::size_t dh = d / heads;
  for (Vec* m : {&q, &k}) {  // rotate pair p of each head at position t
    for (std::size_t t = 0; t < t_len; ++t) {
      for (std::size_t hd = 0; hd < heads; ++hd) {
        for (std::size_t p = 0; p < dh / 2; ++p) {
          const double a = double(t) * std::pow(base, -2.0 * p / dh);
          double& u0 = (*m)[t * d + hd * dh + 2 * p];
          double& u1 = (*m)[t * d + hd * dh + 2 * p + 1];
          const double r0 = u0 * std::cos(a) - u1 * std::sin(a);
          const double r1 = u0 * std::sin(a) + u1 * std::cos(a);
          u0 = r0;
          u1 = r1;
        }
      }
    }
  }
  Vec concat(t_len * d, 0.0);
  for (std::size_t hd = 0; hd < heads; ++hd) {
    for (std::size_t i = 0; i < t_len; ++i) {
      Vec s(i + 1);  // keys 0 .. i only
      double top = -1e300, total = 0.0;
      for (std::size_t j = 0; j <= i; ++j) {
        double dot = 0.0;
        for (std::size_t c = 0; c < dh; ++c) {
          dot += q[i * d + hd * dh + c] * k[j * d + hd * dh + c];
        }
        s[j] = dot / std::sqrt(double(dh));
        top = std::fmax(top, s[j]);
      }
      for (double& e : s) total += (e = std::exp(e - top));
      for (std::size_t j = 0; j <= i; ++j) {
        for (std::size_t c = 0; c < dh; ++c) {
          concat[i * d + hd * dh + c] += s[j] / total * v[j * d + hd * dh + c];
        }
      }
    }
  }
  return rows_times(concat, d, w[4], d);
}

// The whole block for x [B, T, d] and the nine weights in registry order.
Vec plain_block(const Tensor& x, const std::vector<Tensor>& weights,
                const DecoderBlockConfig& c) {
  std::vector<Vec> w;
  for (const Tensor& t : weights) w.push_back(t.to_vector());
  const std::size_t b_len = x.shape()[0], t_len = x.shape()[1];
  const std::size_t d = c.attention.d_model, f = c.ffn_width;
  const Vec all = x.to_vector();
  Vec out;
  for (std::size_t b = 0; b < b_len; ++b) {
    const std::size_t n = t_len * d;  // one sequence
    const Vec xs(all.begin() + b * n, all.begin() + (b + 1) * n);
    const Vec a = attention(rms_rows(xs, d, w[0], c.eps), t_len, w, d,
                            c.attention.heads, c.attention.rope_base);
    Vec h(xs.size());
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = xs[i] + a[i];
    const Vec n2 = rms_rows(h, d, w[5], c.eps);
    const Vec gate = rows_times(n2, d, w[6], f);
    const Vec up = rows_times(n2, d, w[7], f);
    Vec hidden(gate.size());
    for (std::size_t i = 0; i < gate.size(); ++i) {
      hidden[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
    }
    const Vec ffn = rows_times(hidden, f, w[8], d);
    for (std::size_t i = 0; i < h.size(); ++i) out.push_back(h[i] + ffn[i]);
  }
  return out;
}

// Leaves for x and the weights on `tape`, and the block's trace.
struct Run {
  Var x;
  Vars w;
  llm::DecoderBlockTrace trace;
};

Run run_block(Tape& tape, const Tensor& x, const std::vector<Tensor>& w,
              std::size_t offset = 0) {
  const Var in = tape.leaf(x);
  Vars leaves;
  for (const Tensor& t : w) leaves.push_back(tape.leaf(t));
  return {in, leaves,
          llm::decoder_block(in, weights_of(leaves), small, offset)};
}

}  // namespace

TEST_CASE("the block equals an independent plain-loop block",
          "[decoder-block]") {
  const std::vector<Tensor> w = with_unit_gains(small_weights());
  const Tensor x = wave({2, 3, 4}, 0.5, 1.3);  // B = 2, T = 3, d = 4
  Tape tape;
  const Run r = run_block(tape, x, w);
  REQUIRE(r.trace.out.shape() == Shape{2, 3, 4});
  REQUIRE(max_diff(r.trace.out.value().to_vector(),
                   plain_block(x, w, small)) < 1e-12);
  // The trace's pieces add up: h = x + MHA, y = h + SwiGLU, exactly.
  const Vec xv = x.to_vector(), a = r.trace.attention.out.value().to_vector();
  const Vec h = r.trace.h.value().to_vector();
  const Vec f = r.trace.ffn.value().to_vector();
  const Vec y = r.trace.out.value().to_vector();
  for (std::size_t i = 0; i < xv.size(); ++i) {
    REQUIRE(h[i] == xv[i] + a[i]);
    REQUIRE(y[i] == h[i] + f[i]);
  }
}

TEST_CASE("the block's output rows do not read later tokens",
          "[decoder-block]") {
  const std::vector<Tensor> w = with_unit_gains(small_weights());
  const Tensor x = wave({2, 3, 4}, 0.5, 1.3);
  Tensor changed = x.contiguous();
  changed.set({0, 2, 1}, 7.5);  // only the last token of sequence 0
  Tape tape;
  const Tensor a = run_block(tape, x, w).trace.out.value();
  const Tensor b = run_block(tape, changed, w).trace.out.value();
  const auto rows = [](const Tensor& y, std::size_t s, std::size_t t0,
                       std::size_t t1) {
    return y.slice(0, s, s + 1).slice(1, t0, t1).to_vector();
  };
  // Rows 0 and 1 read input rows 0 and 1 only; the sequences of a
  // batch never meet, so sequence 1 is untouched.
  REQUIRE(rows(a, 0, 0, 2) == rows(b, 0, 0, 2));
  REQUIRE(rows(a, 1, 0, 3) == rows(b, 1, 0, 3));
  REQUIRE(rows(a, 0, 2, 3) != rows(b, 0, 2, 3));
}

TEST_CASE("zero output projections make the block the identity",
          "[decoder-block]") {
  std::vector<Tensor> w = small_weights();
  w[4] = Tensor({4, 4});  // W_O = 0
  w[8] = Tensor({6, 4});  // W_down = 0
  const Tensor x = wave({2, 3, 4}, 0.5, 1.3);
  Tape tape;
  const Run r = run_block(tape, x, w);
  // Both branches are 0 * (finite values) = 0, so y = x + 0 + 0 = x.
  REQUIRE(r.trace.out.value().to_vector() == x.to_vector());
  const Tensor seed = ramp({2, 3, 4}, -1.0, 0.09);
  tape.backward(r.trace.out, seed);
  REQUIRE(r.x.grad().to_vector() == seed.to_vector());
  // dW_O = concat^T g and dW_down = hidden^T g are not zero; every
  // other parameter sits behind a zero matrix and gets exactly zero.
  for (std::size_t i = 0; i < 9; ++i) {
    bool nonzero = false;
    for (double g : r.w[i].grad().to_vector()) nonzero = nonzero || g != 0.0;
    REQUIRE(nonzero == (i == 4 || i == 8));
  }
}

TEST_CASE("the input's and every parameter's gradient pass a "
          "central-difference check",
          "[decoder-block]") {
  std::vector<Tensor> in = {wave({2, 3, 4}, 0.5, 1.3)};
  for (const Tensor& t : with_unit_gains(small_weights())) in.push_back(t);
  const llm::TapeFunction f = [](Tape&, const Vars& v) {
    const Vars w(v.begin() + 1, v.end());
    return llm::decoder_block(v[0], weights_of(w), small, 1).out;
  };
  const std::vector<llm::GradientError> errors =
      llm::check_tape_gradients(f, in);
  REQUIRE(errors.size() == 10);
  for (const llm::GradientError& e : errors) REQUIRE(e.max_rel < 1e-7);
}

TEST_CASE("the block registers nine parameters, 2d + 4d^2 + 3df scalars",
          "[decoder-block]") {
  Parameters params(3);
  llm::add_decoder_block_parameters(params, small, "b0");
  const std::vector<std::string> names = {
      "b0.norm1.gain", "b0.attn.w_q", "b0.attn.w_k", "b0.attn.w_v",
      "b0.attn.w_o",   "b0.norm2.gain", "b0.ffn.w_gate", "b0.ffn.w_up",
      "b0.ffn.w_down"};
  const std::vector<Shape> shapes = {{4},    {4, 4}, {4, 4}, {4, 4}, {4, 4},
                                     {4},    {4, 6}, {4, 6}, {6, 4}};
  REQUIRE(params.size() == 9);
  for (std::size_t i = 0; i < 9; ++i) {
    REQUIRE(params.list()[i].name == names[i]);
    REQUIRE(params.list()[i].value.shape() == shapes[i]);
  }
  // 2 * 4 + 4 * 16 + 3 * 4 * 6 = 8 + 64 + 72 = 144.
  REQUIRE(params.scalar_count() == 144);
  REQUIRE(llm::decoder_block_parameter_count(small) == 144);
  REQUIRE(params.at("b0.norm2.gain").to_vector() == Vec{1, 1, 1, 1});
  // A second block under another prefix coexists.
  llm::add_decoder_block_parameters(params, small, "b1");
  REQUIRE(params.scalar_count() == 288);
}

TEST_CASE("registered parameters bound by name drive the block",
          "[decoder-block]") {
  Parameters params(11);
  llm::add_decoder_block_parameters(params, small);
  std::vector<Tensor> w;
  for (const llm::NamedTensor& n : params.list()) w.push_back(n.value);
  const Tensor x = wave({1, 4, 4}, 1.0, 0.8);
  Tape tape;
  const llm::ParameterLeaves leaves(tape, params);
  const Var y = llm::decoder_block(tape.leaf(x),
                                   llm::decoder_block_weights(leaves), small)
                    .out;
  REQUIRE(max_diff(y.value().to_vector(), plain_block(x, w, small)) < 1e-12);
  REQUIRE_THROWS_AS(llm::decoder_block_weights(leaves, "b7"),
                    llm::IndexError);
}

TEST_CASE("add_decoder_block_parameters rejects a taken name and adds "
          "nothing",
          "[decoder-block]") {
  Parameters params(3);
  params.add("block.ffn.w_up", Tensor({1}));
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::add_decoder_block_parameters(params, small);
          }) == "add_decoder_block_parameters: block.ffn.w_up is already a "
                "parameter, expected a new name");
  REQUIRE(params.size() == 1);
}

TEST_CASE("a block configuration needs a valid attention, f > 0 and "
          "eps > 0",
          "[decoder-block]") {
  DecoderBlockConfig c = small;
  const auto error = [&] {
    return message_of<llm::ConfigError>([&] { llm::validate(c); });
  };
  c.ffn_width = 0;
  REQUIRE(error() == "decoder block: ffn_width is 0, expected > 0");
  c = small;
  c.eps = 0.0;
  REQUIRE(error() == "decoder block: eps is 0, expected a finite number > 0");
  c.eps = std::numeric_limits<double>::quiet_NaN();
  REQUIRE(error() ==
          "decoder block: eps is nan, expected a finite number > 0");
  c = small;
  c.attention.heads = 0;
  REQUIRE_THROWS_AS(llm::validate(c), llm::ConfigError);
  Parameters params(1);
  REQUIRE_THROWS_AS(llm::add_decoder_block_parameters(params, c),
                    llm::ConfigError);
  REQUIRE(params.size() == 0);
}

TEST_CASE("decoder_block rejects an input that is not [B, T, d], T > 0",
          "[decoder-block]") {
  const std::vector<Tensor> w = small_weights();
  for (const Shape& s : {Shape{3, 4}, Shape{1, 3, 5}, Shape{1, 0, 4}}) {
    Tape tape;
    REQUIRE_THROWS_AS(run_block(tape, Tensor(s), w), llm::ShapeError);
    Tape again;
    REQUIRE_THROWS_WITH(run_block(again, Tensor(s), w),
                        "decoder_block: x is " + llm::to_string(s) +
                            ", expected [B, T, 4] with T > 0");
    REQUIRE(again.size() == 10);  // the leaves only: nothing recorded
  }
}

TEST_CASE("decoder_block rejects a weight of the wrong shape",
          "[decoder-block]") {
  std::vector<Tensor> w = small_weights();
  w[6] = Tensor({6, 4});  // w_gate transposed
  Tape tape;
  REQUIRE_THROWS_AS(run_block(tape, Tensor({1, 2, 4}), w), llm::ShapeError);
  Tape again;
  REQUIRE_THROWS_WITH(run_block(again, Tensor({1, 2, 4}), w),
                      "decoder_block: w_gate is [6,4], expected [4,6]");
  REQUIRE(again.size() == 10);
}

TEST_CASE("decoder_block rejects weights on another tape",
          "[decoder-block]") {
  const std::vector<Tensor> w = small_weights();
  Tape tape, other;
  const Var x = other.leaf(Tensor({1, 2, 4}));
  Vars leaves;
  for (const Tensor& t : w) leaves.push_back(tape.leaf(t));
  REQUIRE_THROWS_AS(llm::decoder_block(x, weights_of(leaves), small),
                    llm::ConfigError);
  REQUIRE(tape.size() == 9);
  REQUIRE(other.size() == 1);
}

TEST_CASE("decoder_block rejects positions beyond the capacity",
          "[decoder-block]") {
  const std::vector<Tensor> w = small_weights();
  Tape tape;
  // Positions 3, 4, 5 with a capacity of 5 (0 .. 4).
  REQUIRE_THROWS_AS(run_block(tape, Tensor({1, 3, 4}), w, 3),
                    llm::IndexError);
  Tape again;
  REQUIRE_THROWS_WITH(run_block(again, Tensor({1, 3, 4}), w, 3),
                      "decoder_block: positions offset 3 + T 3 exceed "
                      "capacity 5");
  REQUIRE(again.size() == 10);
  const std::size_t top = std::numeric_limits<std::size_t>::max();
  Tape third;
  REQUIRE_THROWS_WITH(run_block(third, Tensor({1, 3, 4}), w, top),
                      "decoder_block: positions offset " +
                          std::to_string(top) +
                          " + T 3 exceed capacity 5");
}

TEST_CASE("a single token gives W_Q and W_K no gradient",
          "[decoder-block]") {
  const std::vector<Tensor> w = with_unit_gains(small_weights());
  Tape tape;
  const Run r = run_block(tape, wave({3, 1, 4}, 0.2, 1.1), w);  // T = 1
  tape.backward(r.trace.out, ramp({3, 1, 4}, 0.5, -0.1));
  // One visible key: p = 1 for any score, and p (g - g p) = 0.
  for (std::size_t i = 0; i < 9; ++i) {
    bool nonzero = false;
    for (double g : r.w[i].grad().to_vector()) nonzero = nonzero || g != 0.0;
    REQUIRE(nonzero == (i != 1 && i != 2));
  }
}
