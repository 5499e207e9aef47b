// Exercise of the decoder-model chapter: the model's forward pass, which
// compiles, runs, and is wrong in three places. Fix it until the exercise
// tests pass:
//
//   cmake --build build --target run_exercise_28
#include "exercise.hpp"

#include "llm/layers.hpp"
#include "llm/rmsnorm.hpp"

namespace exercise {

llm::Var model_logits(const llm::ModelWeights& w,
                      const llm::ModelConfig& config,
                      const llm::TokenGrid& tokens) {
  const std::size_t b = tokens.batch, t = tokens.length;
  // Each id picks its row of E: [B T, d] -> [B, T, d].
  const llm::Var x = llm::reshape(llm::embedding(w.embedding, tokens.ids),
                                  {t, b, config.d_model});
  const llm::DecoderBlockConfig block = llm::block_config(config);
  llm::Var stream = x;  // the residual stream, [B, T, d]
  for (const llm::DecoderBlockWeights& bw : w.blocks) {
    stream = llm::decoder_block(x, bw, block).out;
  }
  // Tied output: logit v of a position is u . E_v, [B, T, V].
  return llm::linear(stream, llm::transpose(w.output, 0, 1));
}

}  // namespace exercise
