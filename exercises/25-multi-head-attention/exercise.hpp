// The function the multi-head-attention chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>

#include "llm/autograd.hpp"
#include "llm/multi_head_attention.hpp"

namespace exercise {

/// The same contract as llm::multi_head_attention: causal attention with
/// RoPE in every head, x [B, T, d_model], each w [d_model, d_model].
llm::MultiHeadTrace multi_head_attention(const llm::Var& x,
                                         const llm::Var& w_q,
                                         const llm::Var& w_k,
                                         const llm::Var& w_v,
                                         const llm::Var& w_o,
                                         const llm::AttentionConfig& config,
                                         std::size_t offset = 0);

}  // namespace exercise
