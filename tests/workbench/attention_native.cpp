// The workbench's entry point (book/workbench/attention/attention.cpp) built natively
// and linked with the book's library, for the test that compares it with
// the WebAssembly module (tests/workbench/attention.test.js).
//
// Reads one case a line from standard input:
//     CAUSAL REUSE t0 t1 ... t11
// (CAUSAL and REUSE are 0 or 1; t are the three tokens, row-major) and
// prints one line a case:
//     ok p0 ... p17 c0 ... c11       both heads' probabilities, the concat
//     error MESSAGE                  when the entry point refuses the case
// Numbers are printed with 17 significant digits, which gives back the
// same double when read. A case with the mask on and the split correct
// also checks that the workbench equals the layer itself
// (multi_head_attention with identity projections); the program fails if
// it does not.
#include "attention.hpp"
#include "native.hpp"

int main() {
  return native::each_line("attention_native", [](native::Case& c) {
    const int causal = c.next<int>(), reuse = c.next<int>();
    double tokens[WORKBENCH_ROWS];
    c.fill(tokens);
    double probs[WORKBENCH_PROBS], concat[WORKBENCH_ROWS];
    if (wb_attention(tokens, causal, reuse, probs, concat) != 0) {
      return native::refused(wb_error());
    }
    if (causal && !reuse && wb_matches_layer(tokens) != 0) {
      c.differs("multi_head_attention");
    }
    native::answer(probs, concat);
  });
}
