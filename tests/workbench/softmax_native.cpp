// The softmax workbench's entry point (book/workbench/softmax/softmax.cpp)
// built natively and linked with the book's library, for the test that
// compares it with the WebAssembly module (tests/workbench/softmax.test.js).
//
// Reads one case a line from standard input:
//     T N x0 ... x(N-1)
// (the temperature, the number of logits, the logits) and prints one line
// a case:
//     ok p0 ... lp0 ... w0 ...     probabilities, log-probabilities and the
//                                  formula as written, N of each
//     error MESSAGE                when the entry point refuses the case
// Numbers are printed with 17 significant digits, which gives back the
// same double when read; the formula as written may print inf or nan. A
// case at T = 1 also checks that the workbench equals llm::softmax itself;
// the program fails if it does not.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "softmax.hpp"

namespace {

void print(double v) {
  if (std::isnan(v)) std::printf(" nan");
  else if (std::isinf(v)) std::printf(v > 0 ? " inf" : " -inf");
  else std::printf(" %.17g", v);
}

}  // namespace

int main() {
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    double t = 0;
    int n = 0;
    in >> t >> n;
    if (!in || n < 0 || n > 64) {
      std::fprintf(stderr, "softmax_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    std::vector<double> x(static_cast<std::size_t>(n));
    for (double& v : x) in >> v;
    if (!in) {
      std::fprintf(stderr, "softmax_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    std::vector<double> p(x.size()), lp(x.size()), w(x.size());
    if (wb_softmax(x.data(), n, t, p.data(), lp.data(), w.data()) != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (t == 1.0 && wb_matches_library(x.data(), n) != 0) {
      std::fprintf(stderr,
                   "softmax_native: the workbench differs from llm::softmax "
                   "for '%s'\n",
                   line.c_str());
      ++failures;
    }
    std::printf("ok");
    for (double v : p) print(v);
    for (double v : lp) print(v);
    for (double v : w) print(v);
    std::printf("\n");
  }
  return failures ? 1 : 0;
}
