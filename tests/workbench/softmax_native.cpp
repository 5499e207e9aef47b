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
#include <cstddef>
#include <vector>

#include "native.hpp"
#include "softmax.hpp"

int main() {
  return native::each_line("softmax_native", [](native::Case& c) {
    const double t = c.next<double>();
    const int n = c.next<int>();
    if (n < 0 || n > 64) throw native::Unreadable{};
    std::vector<double> x(static_cast<std::size_t>(n));
    c.fill(x);
    std::vector<double> p(x.size()), lp(x.size()), w(x.size());
    if (wb_softmax(x.data(), n, t, p.data(), lp.data(), w.data()) != 0) {
      return native::refused(wb_error());
    }
    if (t == 1.0 && wb_matches_library(x.data(), n) != 0) {
      c.differs("llm::softmax");
    }
    native::answer(p, lp, w);
  });
}
