// The causal-masking workbench of chapter 23, as a C interface that both
// the WebAssembly module in the book's page and a native program call: a
// few four-dimensional tokens in; the head's scores, the scores its softmax
// reads, its attention weights and its outputs out.
//
// The head is the chapter's fixture head: W_Q = W_V = I, and W_K exchanges
// features 0 and 1, and 2 and 3. The mask has three settings: before the
// softmax (llm::causal_self_attention, the chapter's head), off
// (llm::self_attention, every query sees every key), and after the softmax
// (the wrong order of the chapter: llm::self_attention's weights with the
// future ones set to 0 afterwards, and those weights times the values).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

enum {
  /// Features of a token (the fixture's d).
  WB_CAUSAL_MODEL = 4,
  /// The most tokens a call takes (the page offers up to five).
  WB_CAUSAL_MAX_TOKENS = 8
};

/// Where the mask acts.
enum {
  WB_CAUSAL_MASK_BEFORE = 0,  ///< on the scores: the chapter's causal head
  WB_CAUSAL_MASK_OFF = 1,     ///< nowhere
  WB_CAUSAL_MASK_AFTER = 2    ///< on the weights, after the softmax
};

/// Runs the head on `t` tokens (t * WB_CAUSAL_MODEL doubles, row-major)
/// with the mask at `mask` (one of WB_CAUSAL_MASK_*). Writes t * t doubles
/// to each of `scores` (q_i . k_j / sqrt(d), no mask), `fed` (what the
/// softmax reads: the scores with -infinity over the future keys when the
/// mask is before the softmax, else the scores), `probs` (the weights),
/// and t * WB_CAUSAL_MODEL doubles to `out`, and returns 0. On an error
/// (t outside 1..WB_CAUSAL_MAX_TOKENS, an unknown mask, a coordinate or a
/// result that is not a finite number, an error of the library) writes
/// nothing, returns 1, and wb_error() says why.
int wb_causal(const double* tokens, int t, int mask, double* scores,
              double* fed, double* probs, double* out);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: with the mask before the softmax
/// the workbench equals llm::causal_self_attention, and with the mask off
/// llm::self_attention, bit for bit, on the chapter's weight matrices
/// built here anew. Returns 0 when both do, 1 when either does not.
int wb_matches_library(const double* tokens, int t);

#ifdef __cplusplus
}
#endif
