// The causal workbench's entry point (book/workbench/causal/causal.cpp)
// built natively and linked with the book's library, for the test that
// compares it with the WebAssembly module (tests/workbench/causal.test.js).
//
// Reads one case a line from standard input:
//     MASK T x0 ... x(4T-1)
// (MASK 0 before the softmax, 1 off, 2 after; T tokens of four features,
// row-major) and prints one line a case:
//     ok s... f... p... o...     the scores, the scores the softmax reads,
//                                the weights (T * T each), the outputs
//                                (4 T)
//     error MESSAGE              when the entry point refuses the case
// Numbers are printed with 17 significant digits, which gives back the
// same double when read; a blocked score prints as -inf. A case with the
// mask before the softmax also checks that the workbench equals
// llm::causal_self_attention and llm::self_attention themselves; the
// program fails if it does not.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "causal.hpp"

namespace {

void print(const std::vector<double>& values) {
  for (double v : values) {
    if (std::isinf(v)) std::printf(v > 0 ? " inf" : " -inf");
    else std::printf(" %.17g", v);
  }
}

}  // namespace

int main() {
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int mask = 0, t = 0;
    in >> mask >> t;
    if (!in || t < 0 || t > 64) {
      std::fprintf(stderr, "causal_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    const std::size_t n = static_cast<std::size_t>(t);
    std::vector<double> x(n * WB_CAUSAL_MODEL);
    for (double& v : x) in >> v;
    if (!in) {
      std::fprintf(stderr, "causal_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    std::vector<double> s(n * n), f(n * n), p(n * n), o(x.size());
    if (wb_causal(x.data(), t, mask, s.data(), f.data(), p.data(),
                  o.data()) != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (mask == WB_CAUSAL_MASK_BEFORE && wb_matches_library(x.data(), t)) {
      std::fprintf(stderr,
                   "causal_native: the workbench differs from the library's "
                   "heads for '%s'\n",
                   line.c_str());
      ++failures;
    }
    std::printf("ok");
    print(s);
    print(f);
    print(p);
    print(o);
    std::printf("\n");
  }
  return failures ? 1 : 0;
}
