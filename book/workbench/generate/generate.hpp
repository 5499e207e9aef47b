// The model of chapter 34 writing in the page, as a C interface that both
// the WebAssembly module and a native program call: the checkpoint the
// build trained, a prompt and the sampling settings in; the continuation
// out, one token at a time, so that the page can show each token as it
// is drawn.
//
// The steps are those of llm::generate_cached, which `tinyllm generate`
// calls: the prompt after the BOS token (cut to the last context - 1 ids
// when longer), each next token drawn by llm::sample_token from the
// logits llm::decode_step returns and read once into the key/value
// cache, the cache rebuilt from the last half of the positions when it is
// full, and a stop at the EOS token. So the same checkpoint, prompt, seed
// and settings give the same text as `tinyllm generate` prints.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the checkpoint in the n bytes at `bytes` (the format of
/// llm::decode_checkpoint). Returns 0, or 1 with wb_error() saying why;
/// a failed load keeps the model loaded before, if any.
int wb_load(const unsigned char* bytes, int n);

/// Starts a continuation of the UTF-8 text `prompt`: `tokens` tokens at
/// most (1 to 100000), the draws seeded with `seed` (0 to 2^31), at
/// `temperature` (0 to 100; 0 is greedy), keeping the `top_k` most
/// probable tokens (0 keeps all) and the top set of mass `top_p` (in
/// (0, 1]). Reads the prompt into the cache. Returns 0, or 1 with
/// wb_error() saying why (no model, a setting out of range), changing
/// nothing.
int wb_start(const char* prompt, int tokens, int seed, double temperature,
             int top_k, double top_p);

/// Draws the next token. Returns 1 when it drew one, 0 when the
/// continuation has ended (the token count reached, or EOS drawn), -1 on
/// an error (wb_error()).
int wb_step(void);

/// The prompt and the tokens drawn so far, decoded (what `tinyllm
/// generate` prints, without its final newline). Valid until the next
/// call.
const char* wb_text(void);

/// Tokens drawn so far in this continuation.
int wb_drawn(void);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: the steps from the last
/// wb_start, run to the end, give the ids llm::generate_cached gives for
/// the same prompt and settings. Returns 0 when they do, 1 when not.
int wb_matches_library(void);

#ifdef __cplusplus
}
#endif
