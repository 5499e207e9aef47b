// The workbench of chapter 23 (see causal.hpp): the chapter's own
// llm::causal_self_attention and llm::self_attention, called through a C
// interface so that the page's WebAssembly module and the native
// comparison program run the same code.
#include "causal.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "../entry.hpp"
#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/matmul.hpp"
#include "llm/tensor.hpp"

namespace {

using workbench::all_finite;
using workbench::require;
using workbench::same_bits;

constexpr std::size_t kModel = WB_CAUSAL_MODEL;

// The chapter's weight matrices: the identity, and the exchange of
// features 0 and 1, and 2 and 3 (its W_K).
llm::Tensor identity() {
  return llm::Tensor({4, 4}, {1, 0, 0, 0, 0, 1, 0, 0,  //
                              0, 0, 1, 0, 0, 0, 0, 1});
}

llm::Tensor exchange() {
  return llm::Tensor({4, 4}, {0, 1, 0, 0, 1, 0, 0, 0,  //
                              0, 0, 0, 1, 0, 0, 1, 0});
}

llm::Tensor token_rows(const double* tokens, std::size_t t) {  // [T, d]
  return llm::Tensor({t, kModel},
                     std::vector<double>(tokens, tokens + t * kModel));
}

struct Head {
  std::vector<double> scores, fed, probs, out;
};

// The head with the mask at `mask`; the scores are always the unmasked
// ones, from self_attention.
Head run(const llm::Tensor& x, int mask) {
  llm::Tape tape;
  const llm::Var xv = tape.leaf(x), w_q = tape.leaf(identity());
  const llm::Var w_k = tape.leaf(exchange()), w_v = tape.leaf(identity());
  const llm::AttentionResult open = llm::self_attention(xv, w_q, w_k, w_v);
  Head h;
  h.scores = open.scores.value().to_vector();  // [T, T]
  if (mask == WB_CAUSAL_MASK_BEFORE) {
    const llm::AttentionResult r =
        llm::causal_self_attention(xv, w_q, w_k, w_v);
    h.fed = r.scores.value().to_vector();  // -inf above the diagonal
    h.probs = r.probs.value().to_vector();
    h.out = r.out.value().to_vector();  // [T, d]
    return h;
  }
  h.fed = h.scores;
  if (mask == WB_CAUSAL_MASK_OFF) {
    h.probs = open.probs.value().to_vector();
    h.out = open.out.value().to_vector();
    return h;
  }
  // The wrong order: every key's weight, then the future ones set to 0.
  llm::Tensor p = open.probs.value().contiguous();
  const std::size_t t = x.shape()[0];
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) {
      if (llm::is_future(i, j)) p.set({i, j}, 0.0);
    }
  }
  const llm::Tensor v = llm::matmul(x, identity());  // X W_V: [T, d]
  h.probs = p.to_vector();
  h.out = llm::matmul(p, v).to_vector();
  return h;
}

// The scores the softmax reads: finite, except -infinity over a future key
// when the mask acts before the softmax.
bool fed_as_expected(const std::vector<double>& fed, std::size_t t,
                     int mask) {
  for (std::size_t n = 0; n < fed.size(); ++n) {
    const bool blocked =
        mask == WB_CAUSAL_MASK_BEFORE && llm::is_future(n / t, n % t);
    if (blocked ? !(std::isinf(fed[n]) && fed[n] < 0)
                : !std::isfinite(fed[n])) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int wb_causal(const double* tokens, int t, int mask,
                         double* scores, double* fed, double* probs,
                         double* out) {
  return workbench::answer([&] {
    require(t >= 1 && t <= WB_CAUSAL_MAX_TOKENS,
            "a sequence has 1 to " + std::to_string(WB_CAUSAL_MAX_TOKENS) +
                " tokens, got " + std::to_string(t));
    require(mask >= WB_CAUSAL_MASK_BEFORE && mask <= WB_CAUSAL_MASK_AFTER,
            "unknown mask setting " + std::to_string(mask));
    const std::size_t n = static_cast<std::size_t>(t);
    const llm::Tensor x = token_rows(tokens, n);
    require(all_finite(x.to_vector()),
            "every token coordinate must be a finite number");
    const Head h = run(x, mask);
    require(all_finite(h.scores) && fed_as_expected(h.fed, n, mask) &&
                all_finite(h.probs) && all_finite(h.out),
            "these tokens are too large: the scores overflow and the "
            "weights are not finite numbers");
    workbench::copy_out(h.scores, scores);
    workbench::copy_out(h.fed, fed);
    workbench::copy_out(h.probs, probs);
    workbench::copy_out(h.out, out);
  });
}

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_library(const double* tokens, int t) {
  const std::size_t n = static_cast<std::size_t>(t);
  const std::size_t tt = n * n, rows = n * kModel;
  std::vector<double> s(tt), f(tt), p(tt), o(rows);
  std::vector<double> s2(tt), f2(tt), p2(tt), o2(rows);
  if (wb_causal(tokens, t, WB_CAUSAL_MASK_BEFORE, s.data(), f.data(),
                p.data(), o.data()) != 0 ||
      wb_causal(tokens, t, WB_CAUSAL_MASK_OFF, s2.data(), f2.data(),
                p2.data(), o2.data()) != 0) {
    return 1;
  }
  llm::Tape tape;
  const llm::Var x = tape.leaf(token_rows(tokens, n));
  const llm::Var w_q = tape.leaf(identity()), w_k = tape.leaf(exchange());
  const llm::Var w_v = tape.leaf(identity());
  const llm::AttentionResult c = llm::causal_self_attention(x, w_q, w_k, w_v);
  const llm::AttentionResult u = llm::self_attention(x, w_q, w_k, w_v);
  const bool causal = same_bits(f, c.scores.value().to_vector()) &&
                      same_bits(p, c.probs.value().to_vector()) &&
                      same_bits(o, c.out.value().to_vector());
  const bool open = same_bits(s2, u.scores.value().to_vector()) &&
                    same_bits(p2, u.probs.value().to_vector()) &&
                    same_bits(o2, u.out.value().to_vector());
  return causal && open ? 0 : 1;
}
