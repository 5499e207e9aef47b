// The function the decoder-block chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>

#include "llm/autograd.hpp"
#include "llm/decoder_block.hpp"

namespace exercise {

/// The same contract as llm::decoder_block: a pre-norm block,
/// h = x + MHA(RMSNorm_1(x)), y = h + SwiGLU(RMSNorm_2(h)), x [B, T, d],
/// token t at position offset + t, every intermediate in the trace.
llm::DecoderBlockTrace decoder_block(const llm::Var& x,
                                     const llm::DecoderBlockWeights& w,
                                     const llm::DecoderBlockConfig& config,
                                     std::size_t offset = 0);

}  // namespace exercise
