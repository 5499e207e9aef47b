// Tests for chapter multi-head-attention: the configuration rules, split
// and merge of heads, the causal multi-head layer with RoPE against hand
// derivations of the chapter's fixture and against an independent
// plain-loop implementation written below (no tape, no library helper),
// its gradients, its parameters, its errors, and the workbench view.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/gradcheck.hpp"
#include "llm/multi_head_attention.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"
#include "message_of.hpp"
#include "tape_check.hpp"

namespace {

using llm::AttentionConfig;
using llm::Shape;
using llm::Tape;
using llm::Tensor;
using llm::Var;
using Values = std::vector<double>;

// ---- an independent multi-head attention, plain loops only -------------

struct Reference {
  Values probs;   // [B, h, T, T]
  Values concat;  // [B, T, d]
  Values out;     // [B, T, d]
};

// x is [B, T, d] and each w is [d, d], all row-major. Causal, with RoPE
// on the queries and keys of every head; no tape, no library code.
Reference reference_mha(const Values& x, std::size_t B, std::size_t T,
                        std::size_t d, std::size_t h, const Values& wq,
                        const Values& wk, const Values& wv,
                        const Values& wo, double base,
                        std::size_t offset) {
  const std::size_t dh = d / h;
  auto project = [&](const Values& in, const Values& w) {
    Values y(B * T * d, 0.0);
    for (std::size_t r = 0; r < B * T; ++r) {
      for (std::size_t j = 0; j < d; ++j) {
        double s = 0.0;
        for (std::size_t i = 0; i < d; ++i) s += in[r * d + i] * w[i * d + j];
        y[r * d + j] = s;
      }
    }
    return y;
  };
  // Head `hd` owns features hd*dh .. hd*dh + dh - 1; its pair p is
  // (hd*dh + 2p, hd*dh + 2p + 1), turned by (offset + t) base^(-2p/dh).
  auto rope = [&](Values& y) {
    for (std::size_t b = 0; b < B; ++b) {
      for (std::size_t t = 0; t < T; ++t) {
        for (std::size_t hd = 0; hd < h; ++hd) {
          for (std::size_t p = 0; p < dh / 2; ++p) {
            const double angle =
                static_cast<double>(offset + t) *
                std::pow(base, -2.0 * static_cast<double>(p) /
                                   static_cast<double>(dh));
            const std::size_t i = (b * T + t) * d + hd * dh + 2 * p;
            const double a = y[i], c = y[i + 1];
            y[i] = a * std::cos(angle) - c * std::sin(angle);
            y[i + 1] = a * std::sin(angle) + c * std::cos(angle);
          }
        }
      }
    }
  };
  Values q = project(x, wq), k = project(x, wk);
  const Values v = project(x, wv);
  rope(q);
  rope(k);
  Reference r{Values(B * h * T * T, 0.0), Values(B * T * d, 0.0), {}};
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t hd = 0; hd < h; ++hd) {
      for (std::size_t t = 0; t < T; ++t) {
        Values s(t + 1);  // only keys j <= t are visible
        double top = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j <= t; ++j) {
          double dot = 0.0;
          for (std::size_t c = 0; c < dh; ++c) {
            dot += q[(b * T + t) * d + hd * dh + c] *
                   k[(b * T + j) * d + hd * dh + c];
          }
          s[j] = dot / std::sqrt(static_cast<double>(dh));
          top = std::fmax(top, s[j]);
        }
        double z = 0.0;
        for (std::size_t j = 0; j <= t; ++j) z += std::exp(s[j] - top);
        for (std::size_t j = 0; j <= t; ++j) {
          const double p = std::exp(s[j] - top) / z;
          r.probs[((b * h + hd) * T + t) * T + j] = p;
          for (std::size_t c = 0; c < dh; ++c) {
            r.concat[(b * T + t) * d + hd * dh + c] +=
                p * v[(b * T + j) * d + hd * dh + c];
          }
        }
      }
    }
  }
  r.out = project(r.concat, wo);
  return r;
}

// ---- the chapter's fixture ---------------------------------------------

const double c1 = std::cos(1.0), s1 = std::sin(1.0);
const double c2 = std::cos(2.0), s2 = std::sin(2.0);

// B = 1, T = 3, d_model = 4: rows [1,0,1,0], [cos 1,-sin 1,0,1],
// [cos 2,-sin 2,1,1].
Tensor fixture_x() {
  return Tensor({1, 3, 4}, {1, 0, 1, 0, c1, -s1, 0, 1, c2, -s2, 1, 1});
}

Tensor identity4() {
  Tensor w({4, 4});
  for (std::size_t i = 0; i < 4; ++i) w.set({i, i}, 1.0);
  return w;
}

// Swaps the two 2-wide blocks: [a,b,c,d] W_O = [c,d,a,b].
Tensor block_swap() {
  return Tensor({4, 4}, {0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0});
}

const AttentionConfig fixture_config{
    .d_model = 4, .heads = 2, .rope_base = 100.0, .capacity = 6};

const Values upstream = {1,   -0.5, 0.25, 0.75, -0.3, 0.8,
                         1.2, -0.4, 0.6,  0.1,  -0.7, 0.9};

struct Layer {
  Var x, wq, wk, wv, wo;
};

Layer leaves(Tape& tape, const Tensor& x, const Tensor& wq,
             const Tensor& wk, const Tensor& wv, const Tensor& wo) {
  return {tape.leaf(x), tape.leaf(wq), tape.leaf(wk), tape.leaf(wv),
          tape.leaf(wo)};
}

Layer fixture_leaves(Tape& tape) {
  return leaves(tape, fixture_x(), identity4(), identity4(), identity4(),
                block_swap());
}

llm::MultiHeadTrace run(const Layer& l, const AttentionConfig& config,
                        std::size_t offset = 0) {
  return llm::multi_head_attention(l.x, l.wq, l.wk, l.wv, l.wo, config,
                                   offset);
}

// Deterministic, irregular values: sin(1.7 k + phase) * scale.
Values wave(std::size_t n, double phase, double scale) {
  Values v(n);
  for (std::size_t k = 0; k < n; ++k) {
    v[k] = std::sin(1.7 * static_cast<double>(k) + phase) * scale;
  }
  return v;
}

double max_abs_diff(const Values& a, const Values& b) {
  REQUIRE(a.size() == b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::fmax(worst, std::fabs(a[i] - b[i]));
  }
  return worst;
}

// The message of the ConfigError validate(c) throws ("no exception" if
// it throws none).
std::string config_error(const AttentionConfig& c) {
  return message_of<llm::ConfigError>([&] { llm::validate(c); });
}

}  // namespace

// ---- configuration -------------------------------------------------------

TEST_CASE("validate accepts the fixture and the even divisors",
          "[multi-head-attention]") {
  REQUIRE_NOTHROW(llm::validate(fixture_config));
  // d_model = 6: h = 1 (d_h 6) and h = 3 (d_h 2) pass; h = 2 (d_h 3) and
  // h = 6 (d_h 1) are odd; h = 4 does not divide 6.
  for (std::size_t h : {1, 3}) {
    REQUIRE_NOTHROW(llm::validate({6, h, 100.0, 6}));
  }
  for (std::size_t h : {2, 4, 6}) {
    REQUIRE_THROWS_AS(llm::validate({6, h, 100.0, 6}), llm::ConfigError);
  }
}

TEST_CASE("validate rejects a zero width", "[multi-head-attention]") {
  REQUIRE(config_error({0, 2, 100.0, 6}) ==
          "attention config: d_model is 0, expected d_model > 0");
}

TEST_CASE("validate rejects zero heads", "[multi-head-attention]") {
  REQUIRE(config_error({4, 0, 100.0, 6}) ==
          "attention config: heads is 0, expected heads > 0");
}

TEST_CASE("validate rejects a width the heads do not divide",
          "[multi-head-attention]") {
  REQUIRE(config_error({4, 3, 100.0, 6}) ==
          "attention config: d_model % heads is 1 (d_model 4, heads 3), "
          "expected 0");
}

TEST_CASE("validate rejects an odd head width: h = 4 with d_model = 4",
          "[multi-head-attention]") {
  // 4 divides 4, but each head would be 1 wide and RoPE turns pairs.
  REQUIRE(config_error({4, 4, 100.0, 6}) ==
          "attention config: head width d_model / heads is 1 (d_model 4, "
          "heads 4), expected an even width");
}

TEST_CASE("validate rejects a zero capacity and a bad RoPE base",
          "[multi-head-attention]") {
  REQUIRE(config_error({4, 2, 100.0, 0}) ==
          "attention config: capacity is 0, expected capacity > 0");
  REQUIRE(config_error({4, 2, 1.0, 6}) ==
          "attention config: rope_base is 1, expected a finite base > 1");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_AS(llm::validate({4, 2, nan, 6}), llm::ConfigError);
}

// ---- split and merge -------------------------------------------------------

TEST_CASE("split_heads takes contiguous slices and merge_heads undoes it",
          "[multi-head-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({2, 3, 6}, wave(36, 0.3, 1.0)));
  const Var s = llm::split_heads(x, 3);  // [B, h, T, d_h] = [2, 3, 3, 2]
  REQUIRE(s.shape() == Shape{2, 3, 3, 2});
  // Head hd, position t, coordinate c is feature hd*2 + c of token t.
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t hd = 0; hd < 3; ++hd) {
      for (std::size_t t = 0; t < 3; ++t) {
        for (std::size_t c = 0; c < 2; ++c) {
          REQUIRE(s.value().at({b, hd, t, c}) ==
                  x.value().at({b, t, hd * 2 + c}));
        }
      }
    }
  }
  const Var m = llm::merge_heads(s);
  REQUIRE(m.shape() == Shape{2, 3, 6});
  REQUIRE(m.value().to_vector() == x.value().to_vector());  // bitwise
}

TEST_CASE("split_heads and merge_heads pass gradients through",
          "[multi-head-attention]") {
  const std::vector<Tensor> in = {Tensor({2, 3, 4}, wave(24, 0.1, 1.0))};
  REQUIRE(worst_tape_error(
              [](Tape&, const std::vector<Var>& v) {
                return llm::split_heads(v[0], 2);
              },
              in) < 1e-8);
  const std::vector<Tensor> heads = {Tensor({2, 2, 3, 2}, wave(24, 0.2, 1.0))};
  REQUIRE(worst_tape_error(
              [](Tape&, const std::vector<Var>& v) {
                return llm::merge_heads(v[0]);
              },
              heads) < 1e-8);
}

TEST_CASE("split_heads rejects a wrong rank", "[multi-head-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({3, 4}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::split_heads(x, 2), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::split_heads(x, 2),
                      "split_heads: x is [3,4], expected [B, T, d]");
  REQUIRE(tape.size() == before);
}

TEST_CASE("split_heads rejects zero heads and a width they do not divide",
          "[multi-head-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({1, 3, 5}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::split_heads(x, 0), llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::split_heads(x, 0),
                      "split_heads: heads is 0, expected heads > 0");
  REQUIRE_THROWS_AS(llm::split_heads(x, 2), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::split_heads(x, 2),
                      "split_heads: x is [1,3,5], expected a last axis "
                      "divisible by heads 2");
  REQUIRE(tape.size() == before);
}

TEST_CASE("merge_heads rejects a wrong rank", "[multi-head-attention]") {
  Tape tape;
  const Var x = tape.leaf(Tensor({1, 3, 4}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(llm::merge_heads(x), llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::merge_heads(x),
                      "merge_heads: x is [1,3,4], expected [B, h, T, d_h]");
  REQUIRE(tape.size() == before);
}

// ---- the fixture, derived by hand --------------------------------------

TEST_CASE("the fixture's shapes at every stage",
          "[multi-head-attention]") {
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  REQUIRE(r.q.shape() == Shape{1, 2, 3, 2});
  REQUIRE(r.k.shape() == Shape{1, 2, 3, 2});
  REQUIRE(r.v.shape() == Shape{1, 2, 3, 2});
  REQUIRE(r.scores.shape() == Shape{1, 2, 3, 3});
  REQUIRE(r.probs.shape() == Shape{1, 2, 3, 3});
  REQUIRE(r.heads.shape() == Shape{1, 2, 3, 2});
  REQUIRE(r.concat.shape() == Shape{1, 3, 4});
  REQUIRE(r.out.shape() == Shape{1, 3, 4});
}

TEST_CASE("fixture head 0 is uniform over the visible keys",
          "[multi-head-attention]") {
  // Head 0 reads features 0-1: the unit vectors at angles 0, -1, -2.
  // RoPE turns position t by +t radians, so every rotated query and key
  // is (1, 0): every visible score is 1/sqrt(2), and the softmax of equal
  // scores is uniform: [1], [1/2, 1/2], [1/3, 1/3, 1/3].
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  const Tensor& p = r.probs.value();
  const double third = 1.0 / 3.0;
  const double want[3][3] = {{1, 0, 0}, {0.5, 0.5, 0}, {third, third, third}};
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t j = 0; j < 3; ++j) {
      REQUIRE(p.at({0, 0, t, j}) == Approx(want[t][j]).margin(1e-12));
    }
  }
  // Rotated queries of head 0 are (1, 0) up to rounding.
  for (std::size_t t = 0; t < 3; ++t) {
    REQUIRE(r.q.value().at({0, 0, t, 0}) == Approx(1.0).margin(1e-12));
    REQUIRE(r.q.value().at({0, 0, t, 1}) == Approx(0.0).margin(1e-12));
  }
}

TEST_CASE("fixture head 1 at position 1: scores and probabilities",
          "[multi-head-attention]") {
  // Head 1 reads features 2-3: k0 = (1, 0) at position 0 stays (1, 0);
  // the query and key at position 1, (0, 1), turn by 1 radian into
  // (-sin 1, cos 1). Scores / sqrt(2):
  //   q1.k0 = -sin 1 -> -0.841471 / 1.414214 = -0.595010
  //   q1.k1 = sin^2 1 + cos^2 1 = 1 -> 1 / sqrt(2) = 0.707107
  // Probabilities: p1 = 1 / (1 + exp(-0.595010 - 0.707107)) = 0.786191,
  // p0 = 1 - p1 = 0.213809.
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  const Tensor& s = r.scores.value();
  REQUIRE(s.at({0, 1, 1, 0}) == Approx(-s1 / std::sqrt(2.0)).margin(1e-12));
  REQUIRE(s.at({0, 1, 1, 0}) == Approx(-0.595010).margin(5e-7));
  REQUIRE(s.at({0, 1, 1, 1}) == Approx(1.0 / std::sqrt(2.0)).margin(1e-12));
  const double p1 = 1.0 / (1.0 + std::exp(-s1 / std::sqrt(2.0) -
                                          1.0 / std::sqrt(2.0)));
  REQUIRE(r.probs.value().at({0, 1, 1, 1}) == Approx(p1).margin(1e-12));
  REQUIRE(r.probs.value().at({0, 1, 1, 0}) ==
          Approx(1.0 - p1).margin(1e-12));
  REQUIRE(r.probs.value().at({0, 1, 1, 0}) == Approx(0.213809).margin(5e-7));
  REQUIRE(r.probs.value().at({0, 1, 1, 1}) == Approx(0.786191).margin(5e-7));
}

TEST_CASE("fixture head 1 at position 2", "[multi-head-attention]") {
  // The query at position 2 is (1, 1) turned by 2 radians:
  // (cos 2 - sin 2, sin 2 + cos 2). Its dot products with the rotated
  // keys depend on the relative angle only:
  //   q2.k0 = cos 2 - sin 2, q2.k1 = cos 1 + sin 1, q2.k2 = |(1,1)|^2 = 2.
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  const double root2 = std::sqrt(2.0);
  const double want[3] = {(c2 - s2) / root2, (c1 + s1) / root2, 2 / root2};
  for (std::size_t j = 0; j < 3; ++j) {
    REQUIRE(r.scores.value().at({0, 1, 2, j}) ==
            Approx(want[j]).margin(1e-12));
  }
}

TEST_CASE("fixture outputs: head 0, concatenation, W_O",
          "[multi-head-attention]") {
  // Head 0 at position 1 averages the values (1, 0) and (cos 1, -sin 1):
  // ((1 + cos 1) / 2, -sin 1 / 2) = (0.770151, -0.420735). Head 1 at
  // position 1 weighs (1, 0) and (0, 1) by p0 and p1: (p0, p1). The
  // concatenated row is [0.770151, -0.420735, 0.213809, 0.786191] and
  // the block swap gives [0.213809, 0.786191, 0.770151, -0.420735].
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  const double p1 = 1.0 / (1.0 + std::exp(-s1 / std::sqrt(2.0) -
                                          1.0 / std::sqrt(2.0)));
  const Values concat1 = {(1 + c1) / 2, -s1 / 2, 1 - p1, p1};
  const Values out1 = {1 - p1, p1, (1 + c1) / 2, -s1 / 2};
  for (std::size_t c = 0; c < 4; ++c) {
    REQUIRE(r.concat.value().at({0, 1, c}) ==
            Approx(concat1[c]).margin(1e-12));
    REQUIRE(r.out.value().at({0, 1, c}) == Approx(out1[c]).margin(1e-12));
  }
  REQUIRE(r.heads.value().at({0, 0, 1, 0}) == Approx(0.770151).margin(5e-7));
  REQUIRE(r.heads.value().at({0, 0, 1, 1}) == Approx(-0.420735).margin(5e-7));
  // Position 0 sees only itself: both heads copy their own value, so the
  // concatenated row is x0 = [1, 0, 1, 0], and the swap leaves it alone.
  for (std::size_t c = 0; c < 4; ++c) {
    REQUIRE(r.out.value().at({0, 0, c}) ==
            Approx(c % 2 == 0 ? 1.0 : 0.0).margin(1e-12));
  }
  // Head 0 at position 2 is the mean of the three values:
  // ((1 + cos 1 + cos 2) / 3, (-sin 1 - sin 2) / 3).
  REQUIRE(r.concat.value().at({0, 2, 0}) ==
          Approx((1 + c1 + c2) / 3).margin(1e-12));
  REQUIRE(r.concat.value().at({0, 2, 1}) ==
          Approx((-s1 - s2) / 3).margin(1e-12));
}

TEST_CASE("every probability above the diagonal is exactly zero",
          "[multi-head-attention]") {
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  for (std::size_t hd = 0; hd < 2; ++hd) {
    for (std::size_t t = 0; t < 3; ++t) {
      double row = 0.0;
      for (std::size_t j = 0; j < 3; ++j) {
        const double p = r.probs.value().at({0, hd, t, j});
        if (j > t) REQUIRE(p == 0.0);
        row += p;
      }
      REQUIRE(row == Approx(1.0).margin(1e-15));
    }
  }
}

// ---- against the plain-loop reference -----------------------------------

TEST_CASE("the fixture matches the plain-loop reference",
          "[multi-head-attention]") {
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  const Reference ref = reference_mha(
      fixture_x().to_vector(), 1, 3, 4, 2, identity4().to_vector(),
      identity4().to_vector(), identity4().to_vector(),
      block_swap().to_vector(), 100.0, 0);
  REQUIRE(max_abs_diff(r.probs.value().to_vector(), ref.probs) < 1e-14);
  REQUIRE(max_abs_diff(r.concat.value().to_vector(), ref.concat) < 1e-14);
  REQUIRE(max_abs_diff(r.out.value().to_vector(), ref.out) < 1e-14);
}

TEST_CASE("a batch of two, three heads of width 4, an offset: reference",
          "[multi-head-attention]") {
  // B = 2, T = 4, d = 12, h = 3, d_h = 4 (two RoPE pairs per head with
  // different frequencies), offset 2, base 10000.
  const AttentionConfig config{
      .d_model = 12, .heads = 3, .rope_base = 10000.0, .capacity = 8};
  const Values x = wave(2 * 4 * 12, 0.1, 1.0);
  const Values wq = wave(144, 0.7, 0.4), wk = wave(144, 1.3, 0.4);
  const Values wv = wave(144, 2.1, 0.4), wo = wave(144, 2.9, 0.4);
  Tape tape;
  const Layer l = leaves(tape, Tensor({2, 4, 12}, x), Tensor({12, 12}, wq),
                         Tensor({12, 12}, wk), Tensor({12, 12}, wv),
                         Tensor({12, 12}, wo));
  const llm::MultiHeadTrace r = run(l, config, 2);
  const Reference ref =
      reference_mha(x, 2, 4, 12, 3, wq, wk, wv, wo, 10000.0, 2);
  REQUIRE(r.probs.shape() == Shape{2, 3, 4, 4});
  REQUIRE(max_abs_diff(r.probs.value().to_vector(), ref.probs) < 1e-12);
  REQUIRE(max_abs_diff(r.concat.value().to_vector(), ref.concat) < 1e-12);
  REQUIRE(max_abs_diff(r.out.value().to_vector(), ref.out) < 1e-12);
}

// ---- invariances -----------------------------------------------------------

TEST_CASE("changing only the last token leaves earlier rows bitwise",
          "[multi-head-attention]") {
  Tape tape;
  const Layer a = fixture_leaves(tape);
  Tensor changed = fixture_x();
  for (std::size_t c = 0; c < 4; ++c) changed.set({0, 2, c}, -3.0 + c);
  const Layer b = leaves(tape, changed, identity4(), identity4(),
                         identity4(), block_swap());
  const Tensor ya = run(a, fixture_config).out.value();
  const Tensor yb = run(b, fixture_config).out.value();
  for (std::size_t t = 0; t < 2; ++t) {
    for (std::size_t c = 0; c < 4; ++c) {
      REQUIRE(ya.at({0, t, c}) == yb.at({0, t, c}));  // bitwise
    }
  }
  REQUIRE(ya.at({0, 2, 0}) != yb.at({0, 2, 0}));
}

TEST_CASE("a common position offset keeps the attention weights",
          "[multi-head-attention]") {
  // Scores depend on q_t . k_j after rotation, which depends on t - j
  // only: shifting every position by 3 changes no probability (beyond
  // rounding), while the rotated queries themselves do change.
  Tape tape;
  const Layer l = fixture_leaves(tape);
  const llm::MultiHeadTrace at0 = run(l, fixture_config, 0);
  const llm::MultiHeadTrace at3 = run(l, fixture_config, 3);
  REQUIRE(max_abs_diff(at0.probs.value().to_vector(),
                       at3.probs.value().to_vector()) < 1e-14);
  REQUIRE(max_abs_diff(at0.q.value().to_vector(),
                       at3.q.value().to_vector()) > 0.1);
}

TEST_CASE("heads stay isolated until W_O", "[multi-head-attention]") {
  // With identity projections head 1 reads only features 2-3. Changing
  // them changes head 1 and concat columns 2-3 only; the block-swap W_O
  // then moves the change into output columns 0-1.
  Tape tape;
  const Layer a = fixture_leaves(tape);
  Tensor changed = fixture_x();
  changed.set({0, 1, 2}, 0.5);
  changed.set({0, 2, 3}, -2.0);
  const Layer b = leaves(tape, changed, identity4(), identity4(),
                         identity4(), block_swap());
  const llm::MultiHeadTrace ra = run(a, fixture_config);
  const llm::MultiHeadTrace rb = run(b, fixture_config);
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t j = 0; j < 3; ++j) {
      REQUIRE(ra.probs.value().at({0, 0, t, j}) ==
              rb.probs.value().at({0, 0, t, j}));
    }
    for (std::size_t c = 0; c < 2; ++c) {
      REQUIRE(ra.concat.value().at({0, t, c}) ==
              rb.concat.value().at({0, t, c}));
      REQUIRE(ra.out.value().at({0, t, c + 2}) ==
              rb.out.value().at({0, t, c + 2}));
    }
  }
  REQUIRE(ra.concat.value().at({0, 2, 3}) != rb.concat.value().at({0, 2, 3}));
  REQUIRE(ra.out.value().at({0, 2, 1}) != rb.out.value().at({0, 2, 1}));
}

TEST_CASE("dense W_Q and W_K end the isolation; a dense W_Q alone does not",
          "[multi-head-attention]") {
  // The chapter's counter-example: change features 2 and 3 (head 1's
  // slice under identity projections). With the dense matrix as W_Q and
  // W_K, every column of X W_Q and X W_K reads features 2 and 3, so head
  // 0's probabilities move; the plain-loop reference, which shares no
  // code with the layer, must agree on both inputs and on how far they
  // move. With W_K = I head 0's rotated keys stay (1, 0) at every
  // position, so any query scores them equally and head 0 stays uniform
  // (1/(t+1) over t+1 visible keys) however W_Q mixes the features.
  const Tensor dense({4, 4}, {1, 0.5, -0.5, 0.25, 0.5, 1, 0.25, -0.5,
                              0.75, -0.25, 1, 0.5, -0.5, 0.75, 0.5, 1});
  Tensor changed = fixture_x();
  changed.set({0, 1, 2}, 0.5);
  changed.set({0, 2, 3}, -2.0);
  const auto head0 = [](const Values& probs) {  // the first 3 x 3 block
    return Values(probs.begin(), probs.begin() + 9);
  };
  const auto probs = [&](const Tensor& x, const Tensor& wk) {
    Tape tape;
    const Layer l = leaves(tape, x, dense, wk, identity4(), block_swap());
    const Values lib = run(l, fixture_config).probs.value().to_vector();
    const Values ref =
        reference_mha(x.to_vector(), 1, 3, 4, 2, dense.to_vector(),
                      wk.to_vector(), identity4().to_vector(),
                      block_swap().to_vector(), 100.0, 0)
            .probs;
    REQUIRE(max_abs_diff(lib, ref) < 1e-14);
    return head0(lib);
  };
  const double moved =
      max_abs_diff(probs(fixture_x(), dense), probs(changed, dense));
  REQUIRE(moved > 0.5);  // the demo prints 0.628967
  for (const Tensor& x : {fixture_x(), changed}) {
    const Values p = probs(x, identity4());
    for (std::size_t t = 0; t < 3; ++t) {
      const double uniform = 1.0 / static_cast<double>(t + 1);
      for (std::size_t j = 0; j <= t; ++j) {
        REQUIRE(p[t * 3 + j] == Approx(uniform).margin(1e-12));
      }
    }
  }
}

// ---- gradients -----------------------------------------------------------

TEST_CASE("the layer's gradients pass a central-difference check",
          "[multi-head-attention]") {
  const AttentionConfig config{
      .d_model = 4, .heads = 2, .rope_base = 100.0, .capacity = 8};
  const std::vector<Tensor> in = {
      Tensor({2, 3, 4}, wave(24, 0.4, 1.0)), Tensor({4, 4}, wave(16, 0.9, 0.6)),
      Tensor({4, 4}, wave(16, 1.8, 0.6)), Tensor({4, 4}, wave(16, 2.6, 0.6)),
      Tensor({4, 4}, wave(16, 3.3, 0.6))};
  const double worst = worst_tape_error(
      [config](Tape&, const std::vector<Var>& v) {
        return llm::multi_head_attention(v[0], v[1], v[2], v[3], v[4],
                                         config, 1)
            .out;
      },
      in);
  REQUIRE(worst < 1e-7);
}

TEST_CASE("fixture gradients: W_O by hand, all 76 against the reference",
          "[multi-head-attention]") {
  Tape tape;
  const Layer l = fixture_leaves(tape);
  const llm::MultiHeadTrace r = run(l, fixture_config);
  tape.backward(r.out, Tensor({1, 3, 4}, upstream));
  // L = sum(out * U) and out = concat W_O, so dL/dW_O = concat^T U:
  // entry (i, j) is sum over t of concat[t][i] * U[t][j].
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      double want = 0.0;
      for (std::size_t t = 0; t < 3; ++t) {
        want += r.concat.value().at({0, t, i}) * upstream[t * 4 + j];
      }
      REQUIRE(l.wo.grad().at({i, j}) == Approx(want).margin(1e-14));
    }
  }
  // Every other coordinate against central differences (delta 1e-6) of
  // the plain-loop reference, within 8e-6.
  std::vector<Values> point = {fixture_x().to_vector(),
                               identity4().to_vector(),
                               identity4().to_vector(),
                               identity4().to_vector(),
                               block_swap().to_vector()};
  const Var grads[5] = {l.x, l.wq, l.wk, l.wv, l.wo};
  std::size_t checked = 0;
  for (std::size_t which = 0; which < 5; ++which) {
    const Values g = grads[which].grad().to_vector();
    for (std::size_t i = 0; i < point[which].size(); ++i) {
      auto loss = [&](double shift) {
        std::vector<Values> p = point;
        p[which][i] += shift;
        const Reference ref =
            reference_mha(p[0], 1, 3, 4, 2, p[1], p[2], p[3], p[4], 100.0, 0);
        double total = 0.0;
        for (std::size_t k = 0; k < 12; ++k) total += ref.out[k] * upstream[k];
        return total;
      };
      const double numeric = (loss(1e-6) - loss(-1e-6)) / 2e-6;
      REQUIRE(std::fabs(g[i] - numeric) < 8e-6);
      ++checked;
    }
  }
  REQUIRE(checked == 76);
}

TEST_CASE("fixture: the gradient of W_Q's head-0 columns vanishes",
          "[multi-head-attention]") {
  // Columns 0 and 1 of W_Q make head 0's queries. Head 0's rotated keys
  // are all (1, 0), so moving a query adds the same amount to every
  // visible score of its row, and the softmax ignores a constant added
  // to a row: the loss does not depend on those columns. What remains
  // is rounding. Head 1's columns 2 and 3 do matter (their central
  // differences are checked above), so they are not all zero.
  Tape tape;
  const Layer l = fixture_leaves(tape);
  tape.backward(run(l, fixture_config).out, Tensor({1, 3, 4}, upstream));
  double head1 = 0.0;
  for (std::size_t r = 0; r < 4; ++r) {
    REQUIRE(std::fabs(l.wq.grad().at({r, 0})) < 1e-15);
    REQUIRE(std::fabs(l.wq.grad().at({r, 1})) < 1e-15);
    head1 = std::fmax(head1, std::fabs(l.wq.grad().at({r, 3})));
  }
  REQUIRE(head1 > 0.1);
}

// ---- parameters ------------------------------------------------------------

TEST_CASE("attention parameters: 4 d_model^2 scalars in q, k, v, o order",
          "[multi-head-attention]") {
  llm::Parameters params(7);
  llm::add_attention_parameters(params, fixture_config);
  REQUIRE(params.size() == 4);
  REQUIRE(params.list()[0].name == "attn.w_q");
  REQUIRE(params.list()[1].name == "attn.w_k");
  REQUIRE(params.list()[2].name == "attn.w_v");
  REQUIRE(params.list()[3].name == "attn.w_o");
  REQUIRE(params.scalar_count() == 64);
  for (const llm::NamedTensor& p : params.list()) {
    REQUIRE(p.value.shape() == Shape{4, 4});
  }
  llm::Parameters wide(7);
  llm::add_attention_parameters(wide, {128, 8, 10000.0, 16}, "block0.attn");
  REQUIRE(wide.scalar_count() == 65536);  // 4 * 128^2
  REQUIRE(wide.list()[0].name == "block0.attn.w_q");
}

TEST_CASE("attention parameters: a bad config or a taken name adds nothing",
          "[multi-head-attention]") {
  llm::Parameters params(7);
  REQUIRE_THROWS_AS(
      llm::add_attention_parameters(params, {4, 4, 100.0, 6}),
      llm::ConfigError);
  REQUIRE(params.size() == 0);
  params.add("attn.w_v", Tensor({4, 4}));
  REQUIRE_THROWS_AS(llm::add_attention_parameters(params, fixture_config),
                    llm::ConfigError);
  REQUIRE_THROWS_WITH(llm::add_attention_parameters(params, fixture_config),
                      "add_attention_parameters: attn.w_v is already a "
                      "parameter, expected a new name");
  REQUIRE(params.size() == 1);  // w_q and w_k were not added either
}

// ---- errors: nothing is recorded --------------------------------------

namespace {

// Runs the fixture layer with x replaced, and requires that the call
// throws E with `message` and leaves the tape as it was.
template <typename E>
void require_rejected(const Tensor& x, const AttentionConfig& config,
                      std::size_t offset, const std::string& message) {
  Tape tape;
  Layer l = fixture_leaves(tape);
  l.x = tape.leaf(x);
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(run(l, config, offset), E);
  REQUIRE_THROWS_WITH(run(l, config, offset), message);
  REQUIRE(tape.size() == before);
}

}  // namespace

TEST_CASE("the layer rejects a bad config before recording",
          "[multi-head-attention]") {
  require_rejected<llm::ConfigError>(
      fixture_x(), {4, 4, 100.0, 6}, 0,
      "attention config: head width d_model / heads is 1 (d_model 4, "
      "heads 4), expected an even width");
  require_rejected<llm::ConfigError>(
      fixture_x(), {0, 2, 100.0, 6}, 0,
      "attention config: d_model is 0, expected d_model > 0");
  // Without validate first, split_heads would reject these itself, but
  // only after the projections were recorded, and with its own message.
  require_rejected<llm::ConfigError>(
      fixture_x(), {4, 0, 100.0, 6}, 0,
      "attention config: heads is 0, expected heads > 0");
  require_rejected<llm::ConfigError>(
      fixture_x(), {4, 3, 100.0, 6}, 0,
      "attention config: d_model % heads is 1 (d_model 4, heads 3), "
      "expected 0");
}

TEST_CASE("the layer rejects an input of the wrong rank",
          "[multi-head-attention]") {
  require_rejected<llm::ShapeError>(
      Tensor({3, 4}), fixture_config, 0,
      "multi_head_attention: x is [3,4], expected [B, T, d_model] with "
      "d_model 4");
}

TEST_CASE("the layer rejects an input of the wrong width",
          "[multi-head-attention]") {
  require_rejected<llm::ShapeError>(
      Tensor({1, 3, 6}), fixture_config, 0,
      "multi_head_attention: x is [1,3,6], expected [B, T, d_model] with "
      "d_model 4");
}

TEST_CASE("the layer rejects an empty token axis",
          "[multi-head-attention]") {
  require_rejected<llm::ShapeError>(
      Tensor({1, 0, 4}), fixture_config, 0,
      "multi_head_attention: x is [1,0,4], expected B > 0 and T > 0");
  require_rejected<llm::ShapeError>(
      Tensor({0, 3, 4}), fixture_config, 0,
      "multi_head_attention: x is [0,3,4], expected B > 0 and T > 0");
}

TEST_CASE("the layer rejects a position interval that overflows",
          "[multi-head-attention]") {
  const std::size_t huge = std::numeric_limits<std::size_t>::max() - 1;
  require_rejected<llm::IndexError>(
      fixture_x(), fixture_config, huge,
      "multi_head_attention: positions offset " + std::to_string(huge) +
          " + T 3 overflow std::size_t (position interval overflow)");
}

TEST_CASE("the layer rejects positions beyond the capacity",
          "[multi-head-attention]") {
  require_rejected<llm::IndexError>(
      fixture_x(), fixture_config, 4,
      "multi_head_attention: positions offset 4 + T 3 = 7 exceed "
      "capacity 6");
  Tape tape;  // offset 3 + T 3 = 6 = capacity is the last that fits
  REQUIRE_NOTHROW(run(fixture_leaves(tape), fixture_config, 3));
}

TEST_CASE("the layer rejects a projection of the wrong shape",
          "[multi-head-attention]") {
  Tape tape;
  Layer l = fixture_leaves(tape);
  l.wk = tape.leaf(Tensor({4, 3}));
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(run(l, fixture_config), llm::ShapeError);
  REQUIRE_THROWS_WITH(run(l, fixture_config),
                      "multi_head_attention: w_k is [4,3], expected [4,4]");
  REQUIRE(tape.size() == before);
}

TEST_CASE("the layer rejects operands on different tapes",
          "[multi-head-attention]") {
  Tape tape, other;
  Layer l = fixture_leaves(tape);
  l.wo = other.leaf(block_swap());
  const std::size_t before = tape.size();
  REQUIRE_THROWS_AS(run(l, fixture_config), llm::ConfigError);
  REQUIRE(tape.size() == before);
  REQUIRE(other.size() == 1);
}

// ---- the workbench view ------------------------------------------------

TEST_CASE("workbench view: causal matches the layer, off and broken differ",
          "[multi-head-attention]") {
  const Tensor tokens({3, 4}, fixture_x().to_vector());
  const llm::WorkbenchView causal = llm::attention_workbench(tokens, {});
  Tape tape;
  const llm::MultiHeadTrace r = run(fixture_leaves(tape), fixture_config);
  REQUIRE(causal.probs.shape() == Shape{2, 3, 3});
  REQUIRE(causal.concat.shape() == Shape{3, 4});
  REQUIRE(causal.probs.to_vector() == r.probs.value().to_vector());
  REQUIRE(causal.concat.to_vector() == r.concat.value().to_vector());

  // Causal off: position 0 of head 1 now sees all three keys.
  const llm::WorkbenchView open = llm::attention_workbench(
      tokens, {.causal = false, .reuse_first_head = false});
  double row0 = 0.0;
  for (std::size_t j = 0; j < 3; ++j) row0 += open.probs.at({1, 0, j});
  REQUIRE(row0 == Approx(1.0));
  REQUIRE(open.probs.at({1, 0, 2}) > 0.0);

  // Broken: both heads read features 0-1, so head 1 repeats head 0 and
  // concat columns 2-3 repeat columns 0-1.
  const llm::WorkbenchView broken = llm::attention_workbench(
      tokens, {.causal = true, .reuse_first_head = true});
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t j = 0; j < 3; ++j) {
      REQUIRE(broken.probs.at({1, t, j}) == broken.probs.at({0, t, j}));
    }
    REQUIRE(broken.concat.at({t, 2}) == broken.concat.at({t, 0}));
    REQUIRE(broken.concat.at({t, 3}) == broken.concat.at({t, 1}));
  }
}

TEST_CASE("workbench view rejects tokens of the wrong shape",
          "[multi-head-attention]") {
  REQUIRE_THROWS_AS(llm::attention_workbench(Tensor({3, 5}), {}),
                    llm::ShapeError);
  REQUIRE_THROWS_WITH(llm::attention_workbench(Tensor({3, 5}), {}),
                      "attention_workbench: tokens are [3,5], expected "
                      "[T, 4] with 1 <= T <= 6");
  REQUIRE_THROWS_AS(llm::attention_workbench(Tensor({7, 4}), {}),
                    llm::ShapeError);
}
