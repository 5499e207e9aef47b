// The softmax workbench of chapter 11, as a C interface that both the
// WebAssembly module in the book's page and a native program call: a row
// of logits and a temperature in; the stable softmax, its log-softmax and
// the formula as written (no shift) out.
//
// The stable results are the chapter's own llm::softmax and
// llm::log_softmax of the logits divided by the temperature; the formula
// as written is exp(x_i / T) / sum_j exp(x_j / T) computed as it reads,
// so that the reader sees where it overflows and the library does not.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// The most logits a row may have (the page offers four).
enum { WB_SOFTMAX_MAX = 8 };

/// Writes n probabilities to `probs`, n log-probabilities to `log_probs`
/// and the formula as written to `naive` (which may hold inf or NaN:
/// that is its point) for the n logits `x` at temperature `t`, and
/// returns 0. On an error (n outside 1..WB_SOFTMAX_MAX, a logit that is
/// not a finite number, t not a positive finite number, a stable result
/// that is not finite) writes nothing, returns 1, and wb_error() says
/// why.
int wb_softmax(const double* x, int n, double t, double* probs,
               double* log_probs, double* naive);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: at t = 1 the workbench's
/// probabilities are llm::softmax of the row as a [1, n] tensor, bit for
/// bit. Returns 0 when they are, 1 when they are not.
int wb_matches_library(const double* x, int n);

#ifdef __cplusplus
}
#endif
