// Exercise of the decoder-block chapter: a decoder block wired from the
// layers of earlier chapters, which compiles, runs, and is wrong in
// three places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_26
#include "exercise.hpp"

#include "llm/multi_head_attention.hpp"
#include "llm/rmsnorm.hpp"
#include "llm/swiglu.hpp"

namespace exercise {

using llm::Var;

llm::DecoderBlockTrace decoder_block(const Var& x,
                                     const llm::DecoderBlockWeights& w,
                                     const llm::DecoderBlockConfig& config,
                                     std::size_t offset) {
  llm::validate(config);
  // Attention reads a normalised copy of the stream and adds back.
  const Var norm1 = llm::rms_norm(x, w.norm1_gain, config.eps);
  const llm::MultiHeadTrace attention = llm::multi_head_attention(
      norm1, w.w_q, w.w_k, w.w_v, w.w_o, config.attention, offset);
  const Var h = llm::add(norm1, attention.out);  // [B, T, d]
  // So does the feed-forward branch, token by token.
  const Var norm2 = llm::rms_norm(x, w.norm2_gain, config.eps);
  const Var ffn = llm::swiglu(norm2, w.w_gate, w.w_up, w.w_down);
  return {norm1, attention, h, norm2, ffn, llm::add(norm2, ffn)};
}

}  // namespace exercise
