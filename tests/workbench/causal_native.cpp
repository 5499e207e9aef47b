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
#include <cstddef>
#include <vector>

#include "causal.hpp"
#include "native.hpp"

int main() {
  return native::each_line("causal_native", [](native::Case& c) {
    const int mask = c.next<int>(), t = c.next<int>();
    if (t < 0 || t > 64) throw native::Unreadable{};
    const std::size_t n = static_cast<std::size_t>(t);
    std::vector<double> x(n * WB_CAUSAL_MODEL);
    c.fill(x);
    std::vector<double> s(n * n), f(n * n), p(n * n), o(x.size());
    if (wb_causal(x.data(), t, mask, s.data(), f.data(), p.data(),
                  o.data()) != 0) {
      return native::refused(wb_error());
    }
    if (mask == WB_CAUSAL_MASK_BEFORE && wb_matches_library(x.data(), t)) {
      c.differs("the library's heads");
    }
    native::answer(s, f, p, o);
  });
}
