// Exercise of the multi-head-attention chapter: a multi-head attention
// layer that compiles, runs, and is wrong in three places. Fix it until
// the exercise tests pass:
//
//   cmake --build build --target run_exercise_25
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "llm/attention.hpp"
#include "llm/model_ops.hpp"
#include "llm/rope.hpp"

namespace exercise {

using llm::Shape;
using llm::Tensor;
using llm::Var;

// [B, T, d] -> [B, h, T, d / h]: one slice of every token per head.
Var split(const Var& x, std::size_t h) {
  const Shape s = x.shape();
  const std::size_t b = s[0], t = s[1], d = s[2];
  const Var grouped = llm::reshape(x, {b, t, d / h, h});  // [B, T, d_h, h]
  return llm::transpose(llm::transpose(grouped, 1, 3), 2, 3);
}

// [B, h, T, d_h] -> [B, T, h * d_h]: the heads side by side.
Var merge(const Var& x) {
  const Shape s = x.shape();
  const Var tokens = llm::transpose(x, 1, 2);  // [B, T, h, d_h]
  return llm::reshape(tokens, {s[0], s[2], s[1] * s[3]});
}

// [T, T]: 1 where query i may see key j (j <= i), 0 elsewhere.
Tensor causal_keep(std::size_t t) {
  Tensor keep({t, t});
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j <= i; ++j) keep.set({i, j}, 1.0);
  }
  return keep;
}

llm::MultiHeadTrace multi_head_attention(const Var& x, const Var& w_q,
                                         const Var& w_k, const Var& w_v,
                                         const Var& w_o,
                                         const llm::AttentionConfig& config,
                                         std::size_t offset) {
  llm::validate(config);
  const std::size_t h = config.heads, d_h = config.d_model / h;
  const llm::Rope rope(d_h, config.capacity, config.rope_base);

  // Project, split into heads, rotate queries and keys.
  const Var q = rope.apply(split(llm::matmul(x, w_q), h), offset);
  const Var k = rope.apply(split(llm::matmul(x, w_k), h), offset);
  const Var v = split(llm::matmul(x, w_v), h);  // [B, h, T, d_h]

  // Every query against every key: [B, h, T, T].
  const Var scores = llm::matmul(q, llm::transpose(k, 2, 3));

  // Causal probabilities: a future key gets no weight.
  const Var keep = x.tape().leaf(causal_keep(x.shape()[1]));
  const Var probs = llm::mul(llm::softmax(scores), keep);

  const Var heads = llm::matmul(probs, v);  // [B, h, T, d_h]
  const Var concat = merge(heads);          // [B, T, d_model]
  return {q, k, v, scores, probs, heads, concat, llm::matmul(concat, w_o)};
}

}  // namespace exercise
