// The tokenizer workbench of chapters 03 and 04, as a C interface that
// both the WebAssembly module in chapter 04's page and a native program
// call: text in; its words, the merges applied to each word in order, and
// the tokens out.
//
// The tokenizer is the one in the checkpoint the build trained (chapter
// 34's, 768 merges learned by train_bpe on the training split, the
// book's), so the page loads the same generate-checkpoint.js as the
// generating workbench. The steps are those of Tokenizer::encode_word:
// each word starts as its bytes, and the merge learned first among the
// word's adjacent pairs is applied (merge_pair) until no pair has one.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the checkpoint in the n bytes at `bytes` and keeps its
/// tokenizer. Returns 0, or 1 with wb_error() saying why.
int wb_load(const unsigned char* bytes, int n);

/// Encodes the UTF-8 `text` (at most 4096 bytes). Returns 0 and makes
/// wb_result() a JSON object, or 1 with wb_error() saying why (no
/// tokenizer, text that is not UTF-8 or too long):
///   {"bytes": B, "tokens": [ID, ...],
///    "words": [{"bytes": [b, ...],
///               "steps": [{"id": ID, "left": L, "right": R,
///                          "replaced": N, "after": [ID, ...]}, ...]}, ...],
///    "pieces": {"ID": [b, ...], ...}}
/// where `pieces` gives the bytes of every token named above.
int wb_encode(const char* text);

/// The JSON of the last successful wb_encode. Valid until the next call.
const char* wb_result(void);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: the tokens of the last
/// wb_encode are Tokenizer::encode's. Returns 0 when they are, 1 when not.
int wb_matches_library(void);

#ifdef __cplusplus
}
#endif
