// The RoPE workbench's entry point (book/workbench/rope/rope.cpp) built
// natively and linked with the book's library, for the test that compares
// it with the WebAssembly module (tests/workbench/rope.test.js).
//
// Reads one case a line from standard input:
//     m n rotate_key q0 ... q7 k0 ... k7
// (the two positions, 1 or 0 for the switch, the query, the key) and
// prints one line a case:
//     ok y0 ... y15 plain score   the rotated query, the key as scored,
//                                 q . k and the rotated score
//     error MESSAGE               when the entry point refuses the case
// Numbers are printed with 17 significant digits, which gives back the
// same double when read. A case with the key rotated and both positions
// below 1024 also checks that the workbench equals the demo's own
// Rope(8, 1024, 10000); the program fails if it does not.
#include "native.hpp"
#include "rope.hpp"

int main() {
  return native::each_line("rope_native", [](native::Case& c) {
    const int m = c.next<int>(), n = c.next<int>();
    const int rotate_key = c.next<int>();
    double q[WB_ROPE_DIM], k[WB_ROPE_DIM];
    c.fill(q);
    c.fill(k);
    double rotated[2 * WB_ROPE_DIM], scores[2];
    if (wb_rope(q, k, m, n, rotate_key, rotated, scores) != 0) {
      return native::refused(wb_error());
    }
    if (rotate_key != 0 && m < 1024 && n < 1024 &&
        wb_matches_chapter(q, k, m, n) != 0) {
      c.differs("the demo's Rope(8, 1024)");
    }
    native::answer(rotated, scores);
  });
}
