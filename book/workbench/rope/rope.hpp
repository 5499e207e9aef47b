// The RoPE workbench of chapter 24, as a C interface that both the
// WebAssembly module in the book's page and a native program call: a
// query, a key and their positions in; the rotated query and key and the
// score before and after the rotation out.
//
// The rotation is the chapter's own llm::Rope::apply for the demo's head:
// eight features (four pairs), base 10000. Its tables hold 2048
// positions, so that the page can move a pair of positions up to 1023 by
// another 1000 and still be inside them; the cosine and sine of a
// position do not depend on the capacity, so every position below 1024
// gives the demo's numbers. One switch changes the computation: the key
// left unrotated, the chapter's failure mode "only the queries rotated".
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

enum {
  /// Features of the query and of the key (the demo's head width).
  WB_ROPE_DIM = 8,
  /// Positions the tables hold: 0 .. WB_ROPE_CAPACITY - 1.
  WB_ROPE_CAPACITY = 2048
};

/// Rotates the query `q` (WB_ROPE_DIM doubles) for position `m` and the
/// key `k` for position `n` (or leaves the key as it is when
/// `rotate_key` is 0). Writes 2 * WB_ROPE_DIM doubles to `rotated` (the
/// rotated query, then the key as scored) and 2 doubles to `scores` (the
/// dot product q . k, then the rotated query's dot product with the key
/// as scored) and returns 0. On an error (a feature that is not a finite
/// number, a negative position, one the tables do not hold, a score that
/// overflows) writes nothing, returns 1, and wb_error() says why.
int wb_rope(const double* q, const double* k, int m, int n, int rotate_key,
            double* rotated, double* scores);

/// The message of the last failed call ("" after a successful one).
const char* wb_error(void);

/// A check for the native test program: for positions below 1024, with
/// the key rotated, the workbench's rotated vectors and score are those
/// of the demo's own Rope(8, 1024, 10000), bit for bit. Returns 0 when
/// they are, 1 when they are not (or the call fails).
int wb_matches_chapter(const double* q, const double* k, int m, int n);

#ifdef __cplusplus
}
#endif
