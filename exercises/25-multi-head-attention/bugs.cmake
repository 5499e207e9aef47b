# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "interleaved head features instead of contiguous slices")
set(BUG_1_WRONG [=[
  const Var grouped = llm::reshape(x, {b, t, d / h, h});  // [B, T, d_h, h]
  return llm::transpose(llm::transpose(grouped, 1, 3), 2, 3);
]=])
set(BUG_1_RIGHT [=[
  const Var grouped = llm::reshape(x, {b, t, h, d / h});  // [B, T, h, d_h]
  return llm::transpose(grouped, 1, 2);
]=])

set(BUG_2_NAME "scores not scaled by 1/sqrt(d_h)")
set(BUG_2_WRONG [=[
  const Var scores = llm::matmul(q, llm::transpose(k, 2, 3));
]=])
set(BUG_2_RIGHT [=[
  const Var scores = llm::scale(llm::matmul(q, llm::transpose(k, 2, 3)),
                                1.0 / std::sqrt(static_cast<double>(d_h)));
]=])

set(BUG_3_NAME "future keys masked after the softmax")
set(BUG_3_WRONG [=[
  const Var keep = x.tape().leaf(causal_keep(x.shape()[1]));
  const Var probs = llm::mul(llm::softmax(scores), keep);
]=])
set(BUG_3_RIGHT [=[
  const Var probs = llm::softmax(llm::mask_future(scores));
]=])
