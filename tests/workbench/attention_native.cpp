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
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "attention.hpp"

int main() {
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int causal = 0, reuse = 0;
    double tokens[WORKBENCH_ROWS];
    in >> causal >> reuse;
    for (double& t : tokens) in >> t;
    if (!in) {
      std::fprintf(stderr, "attention_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    double probs[WORKBENCH_PROBS], concat[WORKBENCH_ROWS];
    if (wb_attention(tokens, causal, reuse, probs, concat) != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (causal && !reuse && wb_matches_layer(tokens) != 0) {
      std::fprintf(stderr,
                   "attention_native: the workbench differs from "
                   "multi_head_attention for '%s'\n",
                   line.c_str());
      ++failures;
    }
    std::printf("ok");
    for (double p : probs) std::printf(" %.17g", p);
    for (double c : concat) std::printf(" %.17g", c);
    std::printf("\n");
  }
  return failures ? 1 : 0;
}
