// What the decoder-model chapter's exercise asks for: the model's forward
// pass, from token ids to logits. The exercise tests (tests.cpp) call it;
// starter.cpp defines it with three mistakes for the reader to find and
// fix.
#pragma once

#include "llm/decoder_model.hpp"

namespace exercise {

/// The logits [B, T, V] of llm::model_forward: each id's row of the
/// embedding, the N decoder blocks in order (each reading the residual
/// stream the previous one wrote), the final RMSNorm, and the output
/// weights tied to the embedding. The weights and tokens are valid (the
/// tests check them with model_forward first).
llm::Var model_logits(const llm::ModelWeights& w,
                      const llm::ModelConfig& config,
                      const llm::TokenGrid& tokens);

}  // namespace exercise
