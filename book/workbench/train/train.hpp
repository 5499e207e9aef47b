// The training workbench of chapter training, as a C interface that both
// the WebAssembly module and a native program call: a slice of the
// training split's tokens in, then the chapter's training step run one
// step a call, so that the page can draw the loss between steps.
//
// The steps are those of the chapter's demo, on a smaller model of the
// same architecture (wb_vocab, and the sizes of train.cpp's
// workbench_config): a batch drawn by llm::sample_batch, the rate of
// llm::learning_rate under a warm-up and cosine schedule, and
// llm::train_step (forward, backward, clipping by the global norm, one
// AdamW update with the demo's AdamW options). Validation is
// llm::evaluate_loss on fixed windows of the validation slice.
//
// At any point of a run, wb_sample writes a continuation of a prompt with
// the parameters as they are, as chapter 34's generating workbench and
// `tinyllm generate` do: llm::generate_cached with llm::sample_token's
// options, the prompt encoded and the ids decoded by the tokenizer the
// training ids were made with (shipped with them, see train_data.cpp).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the token slice and its tokenizer in the n bytes at `bytes`
/// (the format that train_data.cpp writes). Returns 0, or 1 with wb_error() saying why; a
/// failed load keeps the data loaded before, if any.
int wb_load_data(const unsigned char* bytes, int n);

/// Starts a new run of `steps` steps (1 to 100000): fresh parameters
/// drawn from `seed`, batches of `batch` windows drawn from `seed` too,
/// a peak learning rate `lr` reached after `warmup` steps and falling to
/// lr / 10, gradients clipped to the global norm `clip`. Returns 0, or 1
/// with wb_error() naming the first setting out of range, changing
/// nothing.
int wb_start(double lr, int warmup, int batch, double clip, int seed,
             int steps);

/// Takes one training step. Returns 1 when it took one, 0 when the run
/// has ended (or none was started), -1 on an error (wb_error()), which
/// ends the run.
int wb_step(void);

/// What the last step measured: its batch's loss, its gradient norm
/// before clipping, its learning rate.
double wb_loss(void);
double wb_grad_norm(void);
double wb_lr(void);

/// Steps taken in this run, and how many of them were clipped.
int wb_steps_done(void);
int wb_clipped(void);

/// The learning rate of 0-based step `step` of the run's schedule
/// (for the page's drawing of it); NaN outside the run.
double wb_schedule(int step);

/// The mean loss on the fixed validation windows, for the parameters as
/// they are now; NaN (with wb_error()) when there is no run.
double wb_validation(void);

/// Writes a continuation of the UTF-8 text `prompt` with the run's
/// parameters as they are now: BOS and the prompt's ids (cut to the last
/// context - 1 ids when longer), then up to `tokens` tokens (1 to 1000)
/// drawn by llm::generate_cached with a generator seeded with `seed` (0
/// to 2^31), at `temperature` (0 to 100), keeping the `top_k` most
/// probable tokens (0 keeps all) and the top set of mass `top_p` (in
/// (0, 1]), stopping at EOS. The run is not changed: its next step is the
/// one it would have taken. Returns 0, with the prompt and the decoded
/// tokens in wb_sample_text(), or 1 with wb_error() saying why (no run, a
/// setting out of range, a prompt that is not UTF-8).
int wb_sample(const char* prompt, int tokens, int seed, double temperature,
              int top_k, double top_p);

/// The text of the last successful wb_sample; valid until the next call.
const char* wb_sample_text(void);

/// Tokens the last successful wb_sample drew.
int wb_sample_drawn(void);

/// The size in bytes of the tokenizer loaded with the token data
/// (llm::tokenizer_bytes, as a checkpoint holds it).
int wb_tokenizer_bytes(void);

/// Target tokens a step reads (batch times the context), the model's
/// vocabulary, context and number of parameters.
int wb_tokens_per_step(void);
int wb_vocab(void);
int wb_context(void);
int wb_parameter_count(void);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// The fingerprint of the run's parameters (llm::Parameters::fingerprint)
/// in two 32-bit halves, for the tests that compare the two builds.
unsigned wb_fingerprint_low(void);
unsigned wb_fingerprint_high(void);

#ifdef __cplusplus
}
#endif
