# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the embedded rows reshaped as [T, B, d]: sequences and positions mixed")
set(BUG_1_WRONG [=[{t, b, config.d_model});]=])
set(BUG_1_RIGHT [=[{b, t, config.d_model});]=])

set(BUG_2_NAME "every block reads the embedding, not the stream the previous block wrote")
set(BUG_2_WRONG [=[stream = llm::decoder_block(x, bw, block).out;]=])
set(BUG_2_RIGHT [=[stream = llm::decoder_block(stream, bw, block).out;]=])

set(BUG_3_NAME "the final RMSNorm forgotten")
set(BUG_3_WRONG [=[return llm::linear(stream, llm::transpose(w.output, 0, 1));]=])
set(BUG_3_RIGHT [=[const llm::Var u = llm::rms_norm(stream, w.final_gain, config.eps);
  return llm::linear(u, llm::transpose(w.output, 0, 1));]=])
