// The multi-head attention workbench of chapter 25, as a C interface that
// both the WebAssembly module in the book's page and a native program
// call: three four-dimensional tokens in, both heads' attention
// probabilities and the concatenated head outputs out.
//
// The layer is the chapter's fixture (llm::attention_workbench): d_model
// 4, two heads of width 2, identity projections W_Q = W_K = W_V = I, RoPE
// with base 100 at positions 0-2. Two switches change it: the causal mask
// (on in the chapter), and a deliberate bug in which both heads read the
// first head's slice of the features (columns 0-1) instead of their own.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Tokens, model width and heads of the workbench (sizes of the buffers).
enum {
  WORKBENCH_TOKENS = 3,
  WORKBENCH_MODEL = 4,
  WORKBENCH_HEADS = 2,
  /// doubles in `probs`: [head][query][key]
  WORKBENCH_PROBS = WORKBENCH_HEADS * WORKBENCH_TOKENS * WORKBENCH_TOKENS,
  /// doubles in `tokens` and in `concat`: [token][feature]
  WORKBENCH_ROWS = WORKBENCH_TOKENS * WORKBENCH_MODEL
};

/// Runs the layer on `tokens` (WORKBENCH_ROWS doubles, row-major).
/// `causal` != 0 blocks every key after its query; `reuse_first_slice`
/// != 0 makes both heads read the first head's columns (the broken layer).
/// Writes WORKBENCH_PROBS doubles to `probs` and WORKBENCH_ROWS doubles to
/// `concat` and returns 0; on an error (an input or a result that is not
/// a finite number, or an error of the library) writes nothing, returns 1,
/// and wb_error() says why.
int wb_attention(const double* tokens, int causal,
                        int reuse_first_slice, double* probs, double* concat);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: with both switches at the
/// chapter's setting (mask on, split correct), the workbench equals
/// llm::multi_head_attention with identity projections bit for bit on
/// `tokens`. Returns 0 when it does, 1 when it does not.
int wb_matches_layer(const double* tokens);

#ifdef __cplusplus
}
#endif
