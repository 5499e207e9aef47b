// Shared by the attention chapters' unit tests (self-attention, causal
// masking): an independent reference for one head of attention, nested
// loops over plain vectors that use nothing of the library but Tensor's
// element access, the check of a head against it, and the head's
// gradient check.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/tensor.hpp"
#include "fixtures.hpp"
#include "tape_check.hpp"

using Matrix = std::vector<std::vector<double>>;

// A [m, n] tensor as m rows.
inline Matrix rows_of(const llm::Tensor& t) {
  Matrix m(t.shape()[0], std::vector<double>(t.shape()[1]));
  for (std::size_t i = 0; i < m.size(); ++i) {
    for (std::size_t j = 0; j < m[i].size(); ++j) m[i][j] = t.at({i, j});
  }
  return m;
}

// The matrix product a b.
inline Matrix product(const Matrix& a, const Matrix& b) {
  Matrix c(a.size(), std::vector<double>(b[0].size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b[0].size(); ++j) {
      for (std::size_t p = 0; p < b.size(); ++p) c[i][j] += a[i][p] * b[p][j];
    }
  }
  return c;
}

// Every score, [T, T]; probabilities [T, T] (0 where a key is blocked);
// the output [T, d_v].
struct Reference {
  Matrix scores, probs, out;
};

// softmax(Q K^T / sqrt(d_k)) V for one sequence x [T, d]. A blocked
// entry (causal and key > query) is left out of the softmax: query i
// then reads keys 0..i only.
inline Reference reference(const Matrix& x, const Matrix& w_q,
                           const Matrix& w_k, const Matrix& w_v,
                           bool causal = false) {
  const Matrix q = product(x, w_q), k = product(x, w_k), v = product(x, w_v);
  const std::size_t t = x.size(), d_k = q[0].size();
  Reference r{Matrix(t, std::vector<double>(t)),
              Matrix(t, std::vector<double>(t, 0.0)),
              Matrix(t, std::vector<double>(v[0].size(), 0.0))};
  for (std::size_t i = 0; i < t; ++i) {
    const std::size_t last = causal ? i : t - 1;  // last visible key
    double top = -std::numeric_limits<double>::infinity(), total = 0.0;
    for (std::size_t j = 0; j < t; ++j) {
      double dot = 0.0;
      for (std::size_t c = 0; c < d_k; ++c) dot += q[i][c] * k[j][c];
      r.scores[i][j] = dot / std::sqrt(static_cast<double>(d_k));
      if (j <= last && r.scores[i][j] > top) top = r.scores[i][j];
    }
    for (std::size_t j = 0; j <= last; ++j) {
      total += std::exp(r.scores[i][j] - top);
    }
    for (std::size_t j = 0; j <= last; ++j) {
      r.probs[i][j] = std::exp(r.scores[i][j] - top) / total;
      for (std::size_t c = 0; c < v[0].size(); ++c) {
        r.out[i][c] += r.probs[i][j] * v[j][c];
      }
    }
  }
  return r;
}

// max |t - m| over the elements of a [rows, cols] slice of t.
inline double gap(const llm::Tensor& t, const Matrix& m) {
  double worst = 0.0;
  const std::vector<double> flat = t.to_vector();
  for (std::size_t i = 0; i < m.size(); ++i) {
    for (std::size_t j = 0; j < m[i].size(); ++j) {
      worst = std::fmax(worst, std::fabs(flat[i * m[i].size() + j] - m[i][j]));
    }
  }
  return worst;
}

// A head as the library spells it: llm::self_attention or
// llm::causal_self_attention.
using HeadFn = llm::AttentionResult (*)(const llm::Var&, const llm::Var&,
                                        const llm::Var&, const llm::Var&);

// What a head reads: x [T, d] or [B, T, d]; w_q, w_k [d, d_k]; w_v [d, d_v].
struct HeadInputs {
  llm::Tensor x, w_q, w_k, w_v;
};

// `head` on leaves of `in` recorded on `tape`.
inline llm::AttentionResult run_head(llm::Tape& tape, HeadFn head,
                                     const HeadInputs& in) {
  return head(tape.leaf(in.x), tape.leaf(in.w_q), tape.leaf(in.w_k),
              tape.leaf(in.w_v));
}

// Checks a head's probabilities and output, r, on in.x [T, d] or
// [B, T, d] against the reference of each sequence alone, to 1e-14.
inline void check_head(const llm::AttentionResult& r, const HeadInputs& in,
                       bool causal) {
  const llm::Tensor& x = in.x;
  const bool batched = x.rank() == 3;
  const std::size_t batch = batched ? x.shape()[0] : 1;
  const std::size_t t = x.shape()[x.rank() - 2], d = x.shape()[x.rank() - 1];
  for (std::size_t b = 0; b < batch; ++b) {
    // Sequence b of a batched tensor; the tensor itself otherwise.
    const auto seq = [&](const llm::Tensor& v) {
      return batched ? v.slice(0, b, b + 1).contiguous() : v;
    };
    const Reference ref = reference(rows_of(seq(x).reshape({t, d})),
                                    rows_of(in.w_q), rows_of(in.w_k),
                                    rows_of(in.w_v), causal);
    INFO("sequence " << b);
    CHECK(gap(seq(r.probs.value()), ref.probs) < 1e-14);
    CHECK(gap(seq(r.out.value()), ref.out) < 1e-14);
  }
}

// The gradient check of a head's output with respect to x and all three
// matrices (T = 4, d = 3, d_k = 2, d_v = 5), input by input, then of the
// same matrices on a batch of two sequences.
inline void check_head_gradients(HeadFn head) {
  const llm::TapeFunction f = [head](llm::Tape&,
                                     const std::vector<llm::Var>& v) {
    return head(v[0], v[1], v[2], v[3]).out;
  };
  const std::vector<llm::Tensor> in = {ramp({4, 3}, -0.8, 0.23),
                                       ramp({3, 2}, 0.9, -0.31),
                                       ramp({3, 2}, -0.5, 0.27),
                                       ramp({3, 5}, 0.2, 0.09)};
  for (const llm::GradientError& e : llm::check_tape_gradients(f, in)) {
    CHECK(e.max_rel < grad_tol);
  }
  CHECK(worst_tape_error(f, {ramp({2, 4, 3}, 0.9, -0.07), in[1], in[2],
                             in[3]}) < grad_tol);
}
