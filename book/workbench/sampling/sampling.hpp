// The sampling workbench of chapter 32, as a C interface that both the
// WebAssembly module and a native program call: the checkpoint the build
// trained (chapter 34's) and a prompt in; the model's next-token
// distribution after the prompt out, raw (T = 1, no cut) and reshaped by a
// temperature, top-k and top-p, with the token one seeded draw picks.
//
// The model is the checkpoint of chapter 34, which holds the parameters
// chapter 29's demo trained and the tokenizer trained on the training
// split: the model chapter 32's demo reads. The prompt is read in one of
// two ways: as that demo reads it (the prompt's ids alone, cut to the last
// context ids), so that the chapter's prompt gives the chapter's
// distribution; or as `tinyllm generate` reads it (the BOS token, then the
// prompt's ids, all cut to the last context - 1 ids), so that the draw is
// the first token `tinyllm generate` writes with the same prompt, seed and
// settings. The logits are llm::next_token_logits of those ids, the
// distributions llm::sampling_distribution, the draw llm::sample_token
// with a fresh llm::Rng(seed).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the checkpoint in the n bytes at `bytes` (the format of
/// llm::decode_checkpoint). Returns 0, or 1 with wb_error() saying why;
/// a failed load keeps the model loaded before, if any.
int wb_load(const unsigned char* bytes, int n);

/// Runs the model over the UTF-8 text `prompt`, after the BOS token when
/// `bos` is 1 (as `tinyllm generate`) and without it when 0 (as chapter
/// 32's demo), and keeps the logits of the next token and the raw
/// distribution softmax(logits). The text the last wb_append left, with
/// the same `bos`, keeps its ids (the drawn token appended) rather than
/// being encoded again; the same call twice runs the model once. Returns
/// 0, or 1 with wb_error() (no model, an empty prompt without BOS),
/// changing nothing.
int wb_read(const char* prompt, int bos);

/// The sampling distribution after the last wb_read for `temperature`
/// (0 to 100; 0 is greedy), `top_k` (0 keeps all) and `top_p` (in
/// (0, 1]), and the token llm::sample_token draws from it with
/// llm::Rng(seed), seed 0 to 2^31. Returns 0, or 1 with wb_error() (a
/// setting out of range, nothing read), changing nothing.
int wb_sample(double temperature, int top_k, double top_p, int seed);

/// The vocabulary size V.
int wb_vocab(void);

/// How many ids the model read for the last wb_read: BOS (if asked for)
/// and the prompt's ids, cut to the context.
int wb_read_ids(void);

/// 1 when the ids were cut to the context, 0 when not.
int wb_was_cut(void);

/// The raw distribution [V] (T = 1, no cut); valid until the next
/// wb_read.
const double* wb_raw(void);

/// The sampling distribution [V] of the last wb_sample; valid until the
/// next wb_sample or wb_read.
const double* wb_dist(void);

/// The id of the token at rank `rank` (0 the most probable) of the raw
/// distribution, equal probabilities by increasing id; -1 out of range.
int wb_ranked(int rank);

/// The rank (0 first) of token `id` in the raw distribution; -1 for an
/// id out of range.
int wb_rank_of(int id);

/// The token the last wb_sample drew.
int wb_drawn(void);

/// How many tokens the sampling distribution gives a probability above
/// zero.
int wb_kept(void);

/// Their mass in the raw distribution (1 when nothing is cut).
double wb_kept_mass(void);

/// The entropy, in nats, of the sampling distribution (as the chapter's
/// demo computes it: the sum of -q log q over q > 0).
double wb_entropy(void);

/// The entropy, in nats, of the raw distribution.
double wb_raw_entropy(void);

/// Token `id`'s bytes shown visibly, as UTF-8: a space as U+2423, a
/// newline as U+21B5, a tab as U+2192, another control byte or a byte
/// not in a whole UTF-8 character as <XX> in hexadecimal, BOS and EOS
/// as <BOS> and <EOS>. Valid until the next call.
const char* wb_token(int id);

/// Token `id`'s bytes in hexadecimal, two digits a byte ("" for BOS and
/// EOS). Valid until the next call.
const char* wb_token_hex(int id);

/// Appends the token the last wb_sample drew to the prompt's ids and
/// runs the model again (as wb_read). Returns 0, or 1 with wb_error()
/// (nothing drawn, or the draw was EOS or BOS, which end or start a text
/// and add none).
int wb_append(void);

/// The text the ids read stand for: the prompt, or after wb_append the
/// prompt and the appended tokens. Valid until the next wb_read or
/// wb_append.
const char* wb_text(void);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program, by another path through the
/// library: the raw distribution is llm::sampling_distribution with the
/// default options, the sampling distribution is that of the last
/// wb_sample's options, both of llm::next_token_logits for the ids read,
/// bit for bit; the draw is the one llm::sample_token makes from the
/// logits the key/value cache gives for the same ids (llm::decode_step,
/// chapter 33); and, when the ids leave room for one more, it is the
/// token llm::generate_cached (chapter 34's loop) writes first for the
/// same ids, options and seed, or EOS when it writes none. Returns 0 when
/// all hold, 1 when not.
int wb_matches_library(void);

#ifdef __cplusplus
}
#endif
