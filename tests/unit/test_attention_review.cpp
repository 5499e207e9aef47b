// Tests for the Part V review page (attention-review): the weight and
// bias counts against counts made by hand, the block helpers of
// llm/head_blocks.hpp against hand-written expectations, head-permutation
// invariance, the other changes of the weights the layer cannot see
// (value columns with W_O rows, a common turn of a RoPE pair, W_Q c with
// W_K / c) and the equality of two head ablations against an independent
// plain-loop multi-head attention written below, the reversed offset of a
// swapped RoPE pair, batch rows against sequences run alone, per-head
// matrices against the combined ones, the page's audit run in its order
// on sizes where T, h and d_k all differ, and every invalid input of the
// block helpers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/error.hpp"
#include "llm/head_blocks.hpp"
#include "llm/matmul.hpp"
#include "llm/multi_head_attention.hpp"
#include "llm/ops.hpp"
#include "llm/params.hpp"
#include "llm/rope.hpp"
#include "llm/tensor.hpp"
#include "tape_check.hpp"

namespace {

using llm::Shape;
using llm::Tape;
using llm::Tensor;
using Values = std::vector<double>;

// ---- an independent causal multi-head attention, plain loops only ------

struct Plain {
  Values concat;  // [T, d]: the heads' outputs side by side
  Values out;     // [T, d]: concat W_O
};

// x is [T, d], each w is [d, d] row-major; h heads of width d / h, RoPE
// with base `base` at positions 0 .. T - 1, causal softmax.
Plain plain_mha(const Values& x, std::size_t T, std::size_t d, std::size_t h,
                const Values& wq, const Values& wk, const Values& wv,
                const Values& wo, double base) {
  const std::size_t dh = d / h;
  auto project = [&](const Values& w) {
    Values y(T * d, 0.0);
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t j = 0; j < d; ++j) {
        for (std::size_t i = 0; i < d; ++i) y[t * d + j] += x[t * d + i] * w[i * d + j];
      }
    }
    return y;
  };
  // Pair p of head hd holds features hd*dh + 2p and hd*dh + 2p + 1 and
  // turns by t * base^(-2p / dh) at position t.
  auto rope = [&](Values& y) {
    for (std::size_t t = 0; t < T; ++t) {
      for (std::size_t hd = 0; hd < h; ++hd) {
        for (std::size_t p = 0; p < dh / 2; ++p) {
          const double a = static_cast<double>(t) *
                           std::pow(base, -2.0 * static_cast<double>(p) /
                                              static_cast<double>(dh));
          double& u = y[t * d + hd * dh + 2 * p];
          double& v = y[t * d + hd * dh + 2 * p + 1];
          const double nu = u * std::cos(a) - v * std::sin(a);
          const double nv = u * std::sin(a) + v * std::cos(a);
          u = nu;
          v = nv;
        }
      }
    }
  };
  Values q = project(wq), k = project(wk);
  const Values v = project(wv);
  rope(q);
  rope(k);
  Plain r{Values(T * d, 0.0), Values(T * d, 0.0)};
  for (std::size_t hd = 0; hd < h; ++hd) {
    for (std::size_t t = 0; t < T; ++t) {
      Values s(t + 1);
      for (std::size_t j = 0; j <= t; ++j) {
        double dot = 0.0;
        for (std::size_t c = 0; c < dh; ++c) {
          dot += q[t * d + hd * dh + c] * k[j * d + hd * dh + c];
        }
        s[j] = dot / std::sqrt(static_cast<double>(dh));
      }
      const double m = *std::max_element(s.begin(), s.end());
      double z = 0.0;
      for (double& e : s) z += (e = std::exp(e - m));
      for (std::size_t j = 0; j <= t; ++j) {
        for (std::size_t c = 0; c < dh; ++c) {
          r.concat[t * d + hd * dh + c] += s[j] / z * v[j * d + hd * dh + c];
        }
      }
    }
  }
  for (std::size_t t = 0; t < T; ++t) {
    for (std::size_t j = 0; j < d; ++j) {
      for (std::size_t i = 0; i < d; ++i) {
        r.out[t * d + j] += r.concat[t * d + i] * wo[i * d + j];
      }
    }
  }
  return r;
}

// Deterministic, irregular test numbers (no library random generator).
Values numbers(std::size_t n, double phase) {
  Values v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = 0.6 * std::sin(1.7 * static_cast<double>(i) + phase) +
           0.1 * std::cos(0.3 * static_cast<double>(i * i) + phase);
  }
  return v;
}

// Column blocks of a [d, d] matrix in the order `order`, by plain loops.
Values permute_columns(const Values& w, std::size_t d, std::size_t h,
                       const std::vector<std::size_t>& order) {
  const std::size_t dh = d / h;
  Values out(d * d);
  for (std::size_t r = 0; r < d; ++r) {
    for (std::size_t j = 0; j < h; ++j) {
      for (std::size_t c = 0; c < dh; ++c) {
        out[r * d + j * dh + c] = w[r * d + order[j] * dh + c];
      }
    }
  }
  return out;
}

// Row blocks of a [d, d] matrix in the order `order`, by plain loops.
Values permute_rows(const Values& w, std::size_t d, std::size_t h,
                    const std::vector<std::size_t>& order) {
  const std::size_t dh = d / h;
  Values out(d * d);
  for (std::size_t j = 0; j < h; ++j) {
    for (std::size_t c = 0; c < dh; ++c) {
      for (std::size_t col = 0; col < d; ++col) {
        out[(j * dh + c) * d + col] = w[(order[j] * dh + c) * d + col];
      }
    }
  }
  return out;
}

double max_diff(const Values& a, const Values& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// The library layer on [1, T, d] input; returns concat and out.
Plain library_mha(const Values& x, std::size_t T, const Values& wq,
                  const Values& wk, const Values& wv, const Values& wo,
                  const llm::AttentionConfig& c) {
  Tape tape;
  const std::size_t d = c.d_model;
  const llm::MultiHeadTrace r = llm::multi_head_attention(
      tape.leaf(Tensor({1, T, d}, x)), tape.leaf(Tensor({d, d}, wq)),
      tape.leaf(Tensor({d, d}, wk)), tape.leaf(Tensor({d, d}, wv)),
      tape.leaf(Tensor({d, d}, wo)), c);
  return {r.concat.value().to_vector(), r.out.value().to_vector()};
}

const llm::AttentionConfig layer{
    .d_model = 8, .heads = 4, .rope_base = 10000.0, .capacity = 8};
constexpr std::size_t kT = 4, kD = 8, kH = 4;

struct Layer {
  Values x, wq, wk, wv, wo;
};

Layer test_layer() {
  return {numbers(kT * kD, 0.1), numbers(kD * kD, 0.7), numbers(kD * kD, 1.9),
          numbers(kD * kD, 2.3), numbers(kD * kD, 3.1)};
}

template <typename F>
void require_error_mentions(F call, const std::vector<std::string>& parts) {
  try {
    call();
    FAIL("no error thrown");
  } catch (const std::exception& e) {
    const std::string what = e.what();
    for (const std::string& p : parts) {
      INFO(what);
      CHECK(what.find(p) != std::string::npos);
    }
  }
}

}  // namespace

// ---- counts ---------------------------------------------------------------

TEST_CASE("weight count: 2 d_model h d_k + 2 d_model h d_v, by hand",
          "[attention-review]") {
  // d_model 4, h 2, d_k = d_v = 2: four 4x4 matrices, 4 * 16 = 64.
  CHECK(llm::attention_weight_count(4, 2, 2, 2) == 64);
  // d_model 128, h 4, d_k = d_v = 32: 4 * 128 * 128 = 65536.
  CHECK(llm::attention_weight_count(128, 4, 32, 32) == 65536);
  // d_model 512, h 8, d_k = d_v = 64: 4 * 512 * 512 = 1048576.
  CHECK(llm::attention_weight_count(512, 8, 64, 64) == 1048576);
  // d_model 8, h 2, d_k 2, d_v 4: W_Q, W_K are 8x4 (32 each), W_V is
  // 8x8 (64), W_O is 8x8 (64): 32 + 32 + 64 + 64 = 192.
  CHECK(llm::attention_weight_count(8, 2, 2, 4) == 192);
  // The exercise "Count by hand": d_model 6, h 3, d_k 2, d_v 4. W_Q, W_K
  // are 6x6 (36 each), W_V is 6x12 and W_O 12x6 (72 each): 216.
  CHECK(llm::attention_weight_count(6, 3, 2, 4) == 216);
  // One head of width d_model: the same 4 d_model^2 as any h.
  CHECK(llm::attention_weight_count(8, 1, 8, 8) ==
        llm::attention_weight_count(8, 4, 2, 2));
}

TEST_CASE("bias count: 2 h d_k + h d_v + d_model, by hand",
          "[attention-review]") {
  // Square case d_model 4, h 2, d_k = d_v = 2: b_Q 4, b_K 4, b_V 4,
  // b_O 4, so 16 = 4 d_model.
  CHECK(llm::attention_bias_count(4, 2, 2, 2) == 16);
  CHECK(llm::attention_bias_count(512, 8, 64, 64) == 4 * 512);
  // d_model 8, h 2, d_k 2, d_v 4: b_Q 4, b_K 4, b_V 8, b_O 8 = 24.
  CHECK(llm::attention_bias_count(8, 2, 2, 4) == 24);
  // The exercise: b_Q 6, b_K 6, b_V 12, b_O 6 = 30.
  CHECK(llm::attention_bias_count(6, 3, 2, 4) == 30);
}

TEST_CASE("the registry stores the counted weights and no biases",
          "[attention-review]") {
  for (const std::size_t d : {4u, 8u, 128u}) {
    llm::Parameters p(1);
    llm::add_attention_parameters(
        p, {.d_model = d, .heads = 2, .rope_base = 100.0, .capacity = 1});
    CHECK(p.size() == 4);
    CHECK(p.scalar_count() == llm::attention_weight_count(d, 2, d / 2, d / 2));
  }
}

// ---- block helpers --------------------------------------------------------

TEST_CASE("take_blocks reorders, repeats and drops blocks of one axis",
          "[attention-review]") {
  // [2, 6] in three column blocks of width 2: A = cols 0-1, B = 2-3,
  // C = 4-5.
  const Tensor x({2, 6}, {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15});
  CHECK(llm::take_blocks(x, 1, 3, {2, 0, 1}).to_vector() ==
        Values{4, 5, 0, 1, 2, 3, 14, 15, 10, 11, 12, 13});
  CHECK(llm::take_blocks(x, 1, 3, {0, 2}).shape() == Shape{2, 4});
  CHECK(llm::take_blocks(x, 1, 3, {0, 2}).to_vector() ==
        Values{0, 1, 4, 5, 10, 11, 14, 15});
  CHECK(llm::take_blocks(x, 1, 3, {1, 1}).to_vector() ==
        Values{2, 3, 2, 3, 12, 13, 12, 13});
  // Rows: two blocks of one row each, swapped.
  CHECK(llm::take_blocks(x, 0, 2, {1, 0}).to_vector() ==
        Values{10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5});
  // A view (transposed) as input: blocks of its own axis 1.
  const Tensor xt = x.transpose(0, 1);  // [6, 2]
  CHECK(llm::take_blocks(xt, 0, 3, {1}).to_vector() == Values{2, 12, 3, 13});
}

TEST_CASE("zero_block zeroes exactly one block and leaves x alone",
          "[attention-review]") {
  const Tensor x({1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor z = llm::zero_block(x, 2, 2, 1);
  CHECK(z.to_vector() == Values{1, 2, 0, 0, 5, 6, 0, 0});
  CHECK(x.to_vector() == Values{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK_FALSE(z.shares_buffer_with(x));
}

TEST_CASE("uniform_causal_probs: 1/(t+1) on visible keys, exact zeros after",
          "[attention-review]") {
  const Tensor u = llm::uniform_causal_probs(3);
  CHECK(u.to_vector() ==
        Values{1, 0, 0, 0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3});
}

// ---- permutation invariance against plain loops -------------------------

TEST_CASE("permuting head blocks of W_Q, W_K, W_V and W_O's rows keeps "
          "the output",
          "[attention-review]") {
  const Layer l = test_layer();
  const Plain ref = plain_mha(l.x, kT, kD, kH, l.wq, l.wk, l.wv, l.wo, 10000.0);
  const Plain lib = library_mha(l.x, kT, l.wq, l.wk, l.wv, l.wo, layer);
  REQUIRE(max_diff(lib.out, ref.out) < 1e-13);  // the library is the layer
  for (const std::vector<std::size_t>& order :
       {std::vector<std::size_t>{2, 0, 3, 1}, {1, 0, 2, 3}, {3, 2, 1, 0}}) {
    INFO("order " << order[0] << order[1] << order[2] << order[3]);
    // The permuted matrices by take_blocks equal the plain-loop ones.
    const auto cols = [&](const Values& w) {
      return llm::take_blocks(Tensor({kD, kD}, w), 1, kH, order).to_vector();
    };
    const Values pq = cols(l.wq), pk = cols(l.wk), pv = cols(l.wv);
    const Values po =
        llm::take_blocks(Tensor({kD, kD}, l.wo), 0, kH, order).to_vector();
    CHECK(pq == permute_columns(l.wq, kD, kH, order));
    CHECK(po == permute_rows(l.wo, kD, kH, order));
    // The permuted layer computes the original output (up to the order
    // of the sum over concatenated features).
    const Plain perm = library_mha(l.x, kT, pq, pk, pv, po, layer);
    CHECK(max_diff(perm.out, ref.out) < 1e-13);
    const Plain perm_ref = plain_mha(l.x, kT, kD, kH, pq, pk, pv, po, 10000.0);
    CHECK(max_diff(perm_ref.out, ref.out) < 1e-13);
    // New head j is old head order[j] computing with the same numbers in
    // the same order (its projection columns are the same sums, its RoPE
    // frequencies depend on the pair inside the head), so its output
    // block of the concatenation is the old one, bit for bit.
    CHECK(perm.concat == llm::take_blocks(Tensor({1, kT, kD}, lib.concat), 2,
                                          kH, order)
                             .to_vector());
    // Permuting W_O's rows alone moves the output far, and so does
    // permuting the projections' columns alone.
    const Plain o_only = library_mha(l.x, kT, l.wq, l.wk, l.wv, po, layer);
    CHECK(max_diff(o_only.out, ref.out) > 1e-3);
    const Plain qkv_only = library_mha(l.x, kT, pq, pk, pv, l.wo, layer);
    CHECK(max_diff(qkv_only.out, ref.out) > 1e-3);
  }
}

// ---- other changes of the weights the layer cannot see -------------------

// Columns a, a + 1 of a [d, d] matrix turned by `angle` in every row:
// (u, v) -> (u cos - v sin, u sin + v cos), RoPE's turn of one pair.
Values turn_columns(const Values& w, std::size_t d, std::size_t a,
                    double angle) {
  Values out = w;
  for (std::size_t r = 0; r < d; ++r) {
    const double u = w[r * d + a], v = w[r * d + a + 1];
    out[r * d + a] = u * std::cos(angle) - v * std::sin(angle);
    out[r * d + a + 1] = u * std::sin(angle) + v * std::cos(angle);
  }
  return out;
}

// Columns a and b of a [d, d] matrix swapped; rows swapped for rows=true.
Values swap_two(const Values& w, std::size_t d, std::size_t a, std::size_t b,
                bool rows) {
  Values out = w;
  for (std::size_t i = 0; i < d; ++i) {
    if (rows) {
      std::swap(out[a * d + i], out[b * d + i]);
    } else {
      std::swap(out[i * d + a], out[i * d + b]);
    }
  }
  return out;
}

TEST_CASE("value columns with W_O rows, a common turn of a RoPE pair and "
          "W_Q c, W_K / c leave the output; one side alone does not",
          "[attention-review]") {
  // Each change is applied to the plain-loop reference, so the claim is
  // tested on the formula, not on the library's way of computing it.
  const Layer l = test_layer();
  const Plain ref = plain_mha(l.x, kT, kD, kH, l.wq, l.wk, l.wv, l.wo, 10000.0);
  const auto out = [&](const Values& q, const Values& k, const Values& v,
                       const Values& o) {
    return plain_mha(l.x, kT, kD, kH, q, k, v, o, 10000.0).out;
  };
  // Head 1 owns features 2 and 3: H_1 W_O^(1) = sum_c H_1[:, c] W_O[c, :]
  // is a sum over value columns c, whose order does not matter.
  CHECK(max_diff(out(l.wq, l.wk, swap_two(l.wv, kD, 2, 3, false),
                     swap_two(l.wo, kD, 2, 3, true)),
                 ref.out) < 1e-13);
  // Features 4, 5 are head 2's pair. (q G^T R_t^T).(k G^T R_j^T) =
  // q R_t^T R_j k^T because 2-d rotations commute and G^T G = I.
  for (double angle : {0.7, -2.0}) {
    INFO("angle " << angle);
    CHECK(max_diff(out(turn_columns(l.wq, kD, 4, angle),
                       turn_columns(l.wk, kD, 4, angle), l.wv, l.wo),
                   ref.out) < 1e-13);
    CHECK(max_diff(out(turn_columns(l.wq, kD, 4, angle), l.wk, l.wv, l.wo),
                   ref.out) > 1e-4);
  }
  Values q3 = l.wq, k3 = l.wk;
  for (double& e : q3) e *= 3.0;
  for (double& e : k3) e /= 3.0;
  CHECK(max_diff(out(q3, k3, l.wv, l.wo), ref.out) < 1e-13);
  CHECK(max_diff(out(q3, l.wk, l.wv, l.wo), ref.out) > 1e-4);
  // The value swap without the matching W_O rows is a different layer.
  CHECK(max_diff(out(l.wq, l.wk, swap_two(l.wv, kD, 2, 3, false), l.wo),
                 ref.out) > 1e-4);
}

TEST_CASE("swapping a pair's two features reverses the relative offset: "
          "the score then depends on t - j instead of j - t",
          "[attention-review]") {
  // One head of width 2. The rope chapter: R_m q . R_n k = q^T R_{n-m} k,
  // a function of key position minus query position. With P the swap,
  // P R(a) P = R(-a), so R_t P q . R_j P k = q^T R_{t-j} k: the original
  // vectors with the query at position j and the key at position t.
  const llm::Rope rope(2, 8, 10000.0);
  const Tensor q({1, 1, 1, 2}, {0.8, -0.3}), k({1, 1, 1, 2}, {0.2, 0.9});
  const Tensor pq({1, 1, 1, 2}, {-0.3, 0.8}), pk({1, 1, 1, 2}, {0.9, 0.2});
  Tape tape;
  const auto score = [&](const Tensor& a, std::size_t ta, const Tensor& b,
                         std::size_t tb) {
    const Values x = rope.apply(tape.leaf(a), ta).value().to_vector();
    const Values y = rope.apply(tape.leaf(b), tb).value().to_vector();
    return x[0] * y[0] + x[1] * y[1];
  };
  for (std::size_t t = 0; t < 5; ++t) {
    for (std::size_t j = 0; j < 5; ++j) {
      INFO("t " << t << ", j " << j);
      const double swapped = score(pq, t, pk, j);
      CHECK(std::fabs(swapped - score(q, j, k, t)) < 1e-13);
      if (t != j) CHECK(std::fabs(swapped - score(q, t, k, j)) > 1e-3);
    }
  }
}

// ---- ablations against plain loops ---------------------------------------

TEST_CASE("removing a head's W_O rows equals zeroing its output, and both "
          "equal a plain-loop sum over the other heads",
          "[attention-review]") {
  const Layer l = test_layer();
  const Plain ref = plain_mha(l.x, kT, kD, kH, l.wq, l.wk, l.wv, l.wo, 10000.0);
  const Plain lib = library_mha(l.x, kT, l.wq, l.wk, l.wv, l.wo, layer);
  const Tensor concat({1, kT, kD}, lib.concat), wo({kD, kD}, l.wo);
  const std::size_t dh = kD / kH;
  for (std::size_t i = 0; i < kH; ++i) {
    INFO("head " << i);
    // Plain loops: y[t][c] = sum over features r outside head i of
    // concat[t][r] * W_O[r][c].
    Values expect(kT * kD, 0.0);
    for (std::size_t t = 0; t < kT; ++t) {
      for (std::size_t c = 0; c < kD; ++c) {
        for (std::size_t r = 0; r < kD; ++r) {
          if (r / dh == i) continue;
          expect[t * kD + c] += ref.concat[t * kD + r] * l.wo[r * kD + c];
        }
      }
    }
    const Values zeroed =
        llm::matmul(llm::zero_block(concat, 2, kH, i), wo).to_vector();
    std::vector<std::size_t> others;
    for (std::size_t j = 0; j < kH; ++j) {
      if (j != i) others.push_back(j);
    }
    const Values removed =
        llm::matmul(llm::take_blocks(concat, 2, kH, others),
                    llm::take_blocks(wo, 0, kH, others))
            .to_vector();
    CHECK(removed == zeroed);  // bit for bit: the zero terms add nothing
    CHECK(max_diff(zeroed, expect) < 1e-13);
    CHECK(max_diff(zeroed, ref.out) > 1e-6);  // the head did contribute
  }
}

TEST_CASE("uniform attention is not removal: the head still adds the mean "
          "of its values",
          "[attention-review]") {
  // One head of width 2 over T = 2 tokens with values (1, 0) and (0, 1):
  // uniform attention gives rows (1, 0) and (0.5, 0.5), not zero.
  const Tensor v({1, 1, 2, 2}, {1, 0, 0, 1});
  const Tensor h = llm::matmul(llm::uniform_causal_probs(2), v);
  CHECK(h.to_vector() == Values{1, 0, 0.5, 0.5});
}

TEST_CASE("the layer's output is Concat W_O bit for bit, and uniform "
          "attention keeps row 0 bit for bit while moving later rows",
          "[attention-review]") {
  const Layer l = test_layer();
  Tape tape;
  const Tensor wo({kD, kD}, l.wo);
  const llm::MultiHeadTrace r = llm::multi_head_attention(
      tape.leaf(Tensor({1, kT, kD}, l.x)), tape.leaf(Tensor({kD, kD}, l.wq)),
      tape.leaf(Tensor({kD, kD}, l.wk)), tape.leaf(Tensor({kD, kD}, l.wv)),
      tape.leaf(wo), layer);
  const Tensor y = r.out.value();
  // The layer's last step is this very product, so the ablations the
  // page measures outside the layer start from the layer's own bits.
  REQUIRE(llm::matmul(r.concat.value(), wo).to_vector() == y.to_vector());
  const std::size_t dh = kD / kH;
  for (std::size_t i = 0; i < kH; ++i) {
    INFO("head " << i);
    // Head i's outputs replaced by the running mean of its values.
    const Tensor mean = llm::matmul(llm::uniform_causal_probs(kT),
                                    r.v.value().slice(1, i, i + 1));
    Tensor concat = r.concat.value().contiguous();  // [1, T, h d_v]
    for (std::size_t t = 0; t < kT; ++t) {
      for (std::size_t c = 0; c < dh; ++c) {
        concat.set({0, t, i * dh + c}, mean.at({0, 0, t, c}));
      }
    }
    const Tensor u = llm::matmul(concat, wo);
    // Position 0 sees one key: learned and uniform attention both give it
    // weight exactly 1, so row 0 keeps every bit.
    CHECK(u.slice(1, 0, 1).to_vector() == y.slice(1, 0, 1).to_vector());
    CHECK(max_diff(u.to_vector(), y.to_vector()) > 1e-6);
  }
}

// ---- the batch axis and the two ways of writing the layer ----------------

TEST_CASE("every intermediate of a batch row equals its sequence run "
          "alone, bit for bit",
          "[attention-review]") {
  // B = 2, T = 5, h = 4, d_k = 2. Batched matmul, softmax and attend do
  // the same operations in the same order for each row, so no tolerance.
  const Values xs = numbers(2 * 5 * kD, 0.4);
  const Tensor x({2, 5, kD}, xs);
  const Layer l = test_layer();
  Tape tape;
  const auto run = [&](const Tensor& in) {
    return llm::multi_head_attention(
        tape.leaf(in), tape.leaf(Tensor({kD, kD}, l.wq)),
        tape.leaf(Tensor({kD, kD}, l.wk)), tape.leaf(Tensor({kD, kD}, l.wv)),
        tape.leaf(Tensor({kD, kD}, l.wo)), layer);
  };
  const llm::MultiHeadTrace both = run(x);
  for (std::size_t b = 0; b < 2; ++b) {
    INFO("sequence " << b);
    const llm::MultiHeadTrace one = run(x.slice(0, b, b + 1).contiguous());
    const auto same = [&](const llm::Var& in_batch, const llm::Var& alone) {
      return in_batch.value().slice(0, b, b + 1).to_vector() ==
             alone.value().to_vector();
    };
    CHECK(same(both.q, one.q));
    CHECK(same(both.k, one.k));
    CHECK(same(both.v, one.v));
    CHECK(same(both.scores, one.scores));
    CHECK(same(both.probs, one.probs));
    CHECK(same(both.heads, one.heads));
    CHECK(same(both.concat, one.concat));
    CHECK(same(both.out, one.out));
  }
  // The two sequences differ, so the comparison is not of equal rows.
  CHECK(both.out.value().slice(0, 0, 1).to_vector() !=
        both.out.value().slice(0, 1, 2).to_vector());
}

TEST_CASE("per-head matrices: each projection is the combined one's column "
          "block bit for bit, and sum_i H_i W_O^(i) is Concat W_O",
          "[attention-review]") {
  const Layer l = test_layer();
  const Tensor x({1, kT, kD}, l.x), wq({kD, kD}, l.wq), wo({kD, kD}, l.wo);
  const Plain ref = plain_mha(l.x, kT, kD, kH, l.wq, l.wk, l.wv, l.wo, 10000.0);
  const Tensor concat({1, kT, kD}, ref.concat);
  const Tensor q_all = llm::matmul(x, wq);  // [1, T, h d_k]
  Tensor y({1, kT, kD});                     // zeros
  for (std::size_t i = 0; i < kH; ++i) {
    INFO("head " << i);
    // Column j of X W_Q is the same sum of the same products as column j
    // of X W_Q^(i): equal bits, not merely close.
    CHECK(llm::matmul(x, llm::take_blocks(wq, 1, kH, {i})).to_vector() ==
          llm::take_blocks(q_all, 2, kH, {i}).to_vector());
    y = llm::add(y, llm::matmul(llm::take_blocks(concat, 2, kH, {i}),
                                llm::take_blocks(wo, 0, kH, {i})));
  }
  // Block multiplication: the same products, added as four partial sums,
  // so equal up to rounding of entries below 10 in size.
  CHECK(max_diff(y.to_vector(), ref.out) < 1e-13);
  // The output is not near zero, so the bound above is not met trivially.
  CHECK(max_diff(ref.out, Values(ref.out.size(), 0.0)) > 0.1);
}

// ---- the audit order -----------------------------------------------------

TEST_CASE("the audit, in its order, on a layer whose T, h and d_k all differ",
          "[attention-review]") {
  // B = 2, T = 5, h = 4, d_k = 2: a swapped pair of axes changes a shape.
  constexpr std::size_t B = 2, T = 5, dk = kD / kH;
  const llm::AttentionConfig c{
      .d_model = kD, .heads = kH, .rope_base = 10000.0, .capacity = 16};
  const Tensor x({B, T, kD}, numbers(B * T * kD, 0.9));
  const Layer l = test_layer();
  const std::vector<Tensor> w = {
      Tensor({kD, kD}, l.wq), Tensor({kD, kD}, l.wk), Tensor({kD, kD}, l.wv),
      Tensor({kD, kD}, l.wo)};
  Tape tape;
  const auto run = [&](const Tensor& in, std::size_t offset) {
    return llm::multi_head_attention(tape.leaf(in), tape.leaf(w[0]),
                                     tape.leaf(w[1]), tape.leaf(w[2]),
                                     tape.leaf(w[3]), c, offset);
  };
  const llm::MultiHeadTrace r = run(x, 0);
  // 1. Shapes, as in the page's table of shapes.
  REQUIRE(r.q.shape() == Shape{B, kH, T, dk});
  REQUIRE(r.v.shape() == Shape{B, kH, T, dk});
  REQUIRE(r.probs.shape() == Shape{B, kH, T, T});
  REQUIRE(r.concat.shape() == Shape{B, T, kD});
  REQUIRE(r.out.shape() == Shape{B, T, kD});
  // 2. The split and merge round trip moves numbers, computes nothing.
  CHECK(llm::merge_heads(llm::split_heads(tape.leaf(x), kH))
            .value()
            .to_vector() == x.to_vector());
  const Tensor p = r.probs.value(), q = r.q.value(), k = r.k.value();
  std::size_t zeros = 0;
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t hd = 0; hd < kH; ++hd) {
      for (std::size_t t = 0; t < T; ++t) {
        double sum = 0.0;
        for (std::size_t j = 0; j < T; ++j) {
          sum += p.at({b, hd, t, j});
          // 3. Exact zeros above the diagonal: exp(-inf) is 0.
          if (j > t) {
            zeros += p.at({b, hd, t, j}) == 0.0 ? 1 : 0;
            continue;
          }
          // 5. The scale is 1/sqrt(d_k): recompute the score by a loop.
          double dot = 0.0;
          for (std::size_t e = 0; e < dk; ++e) {
            dot += q.at({b, hd, t, e}) * k.at({b, hd, j, e});
          }
          const double s = r.scores.value().at({b, hd, t, j});
          CHECK(std::fabs(s - dot / std::sqrt(double(dk))) < 1e-14);
          if (std::fabs(dot) > 1e-3) {  // the wrong width is distinguishable
            CHECK(std::fabs(s - dot / std::sqrt(double(kD))) > 1e-4);
          }
        }
        // 4. A row of at most five probabilities sums to 1 within a few
        // units of 2^-52 (each addition rounds once).
        CHECK(std::fabs(sum - 1.0) < 1e-15);
      }
    }
  }
  CHECK(zeros == B * kH * T * (T - 1) / 2);  // 2 * 4 * 10 = 80
  // 6. RoPE is relative: moving every position by 4 leaves the
  // probabilities within rounding and does move the rotated queries.
  const llm::MultiHeadTrace shifted = run(x, 4);
  CHECK(max_diff(shifted.probs.value().to_vector(), p.to_vector()) < 1e-14);
  CHECK(max_diff(shifted.q.value().to_vector(), q.to_vector()) > 0.1);
  // 7. Prefix invariance: a new last token in both sequences leaves rows
  // 0 .. T - 2 bit for bit.
  Tensor last = x.contiguous();
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t e = 0; e < kD; ++e) last.set({b, T - 1, e}, 0.25 * e);
  }
  const Tensor y = r.out.value(), y2 = run(last, 0).out.value();
  CHECK(y2.slice(1, 0, T - 1).to_vector() == y.slice(1, 0, T - 1).to_vector());
  CHECK(y2.slice(1, T - 1, T).to_vector() != y.slice(1, T - 1, T).to_vector());
  // 8. Gradients of the input and all four matrices against central
  // differences, to the tape tests' relative tolerance.
  const double worst = worst_tape_error(
      [c](Tape&, const std::vector<llm::Var>& in) {
        return llm::multi_head_attention(in[0], in[1], in[2], in[3], in[4], c)
            .out;
      },
      {x, w[0], w[1], w[2], w[3]});
  CHECK(worst < grad_tol);
}

// ---- errors ----------------------------------------------------------------

TEST_CASE("take_blocks rejects an axis beyond the rank",
          "[attention-review]") {
  const Tensor x({2, 4});
  CHECK_THROWS_AS(llm::take_blocks(x, 2, 2, {0}), llm::IndexError);
  require_error_mentions([&] { (void)llm::take_blocks(x, 2, 2, {0}); },
                         {"take_blocks", "axis 2", "[2,4]", "< 2"});
}

TEST_CASE("take_blocks rejects zero blocks", "[attention-review]") {
  const Tensor x({2, 4});
  CHECK_THROWS_AS(llm::take_blocks(x, 1, 0, {0}), llm::ConfigError);
  require_error_mentions([&] { (void)llm::take_blocks(x, 1, 0, {0}); },
                         {"take_blocks", "blocks is 0", "> 0"});
}

TEST_CASE("take_blocks rejects an axis not divisible into the blocks",
          "[attention-review]") {
  const Tensor x({2, 4});
  CHECK_THROWS_AS(llm::take_blocks(x, 1, 3, {0}), llm::ShapeError);
  require_error_mentions([&] { (void)llm::take_blocks(x, 1, 3, {0}); },
                         {"take_blocks", "extent 4", "multiple of 3"});
}

TEST_CASE("take_blocks rejects a block index out of range",
          "[attention-review]") {
  const Tensor x({2, 4});
  CHECK_THROWS_AS(llm::take_blocks(x, 1, 2, {0, 2}), llm::IndexError);
  require_error_mentions([&] { (void)llm::take_blocks(x, 1, 2, {0, 2}); },
                         {"take_blocks", "block 2", "< 2"});
}

TEST_CASE("take_blocks rejects an empty list", "[attention-review]") {
  const Tensor x({2, 4});
  CHECK_THROWS_AS(llm::take_blocks(x, 1, 2, {}), llm::ConfigError);
  require_error_mentions([&] { (void)llm::take_blocks(x, 1, 2, {}); },
                         {"take_blocks", "no blocks", "at least one"});
}

TEST_CASE("zero_block rejects a bad axis, zero blocks, an indivisible "
          "axis and a block out of range",
          "[attention-review]") {
  const Tensor x({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  CHECK_THROWS_AS(llm::zero_block(x, 5, 2, 0), llm::IndexError);
  require_error_mentions([&] { (void)llm::zero_block(x, 5, 2, 0); },
                         {"zero_block", "axis 5", "< 2"});
  CHECK_THROWS_AS(llm::zero_block(x, 1, 0, 0), llm::ConfigError);
  require_error_mentions([&] { (void)llm::zero_block(x, 1, 0, 0); },
                         {"zero_block", "blocks is 0", "> 0"});
  CHECK_THROWS_AS(llm::zero_block(x, 1, 3, 0), llm::ShapeError);
  require_error_mentions([&] { (void)llm::zero_block(x, 1, 3, 0); },
                         {"zero_block", "extent 4", "multiple of 3"});
  CHECK_THROWS_AS(llm::zero_block(x, 1, 2, 2), llm::IndexError);
  require_error_mentions([&] { (void)llm::zero_block(x, 1, 2, 2); },
                         {"zero_block", "block 2", "< 2"});
  CHECK(x.to_vector() == Values{1, 2, 3, 4, 5, 6, 7, 8});  // unchanged
}

TEST_CASE("uniform_causal_probs rejects zero tokens",
          "[attention-review]") {
  CHECK_THROWS_AS(llm::uniform_causal_probs(0), llm::ShapeError);
  require_error_mentions([] { (void)llm::uniform_causal_probs(0); },
                         {"uniform_causal_probs", "tokens is 0", "T > 0"});
}
