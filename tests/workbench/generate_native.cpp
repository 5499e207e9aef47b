// The generating workbench's entry point
// (book/workbench/generate/generate.cpp) built natively and linked with
// the book's library, for the test that compares it with the WebAssembly
// module and with `tinyllm generate` (tests/workbench/generate.test.js).
//
// usage: workbench_generate_native CHECKPOINT
// Reads one case a line from standard input:
//     TOKENS SEED TEMPERATURE TOP_K TOP_P<tab>PROMPT
// and prints one line a case:
//     ok DRAWN TEXT        tokens drawn, then the prompt and its
//                          continuation with '\' written '\\' and each
//                          newline '\n'
//     error MESSAGE        when the entry point refuses the case
// Each finished case is also run through llm::generate_cached; the
// program fails if the two give different ids.
#include <cstdio>
#include <string>

#include "generate.hpp"
#include "native.hpp"

int main(int argc, char** argv) {
  if (!native::load_checkpoint("generate_native", argc, argv, wb_load,
                               wb_error)) {
    return 2;
  }
  return native::each_line("generate_native", [](native::Case& c) {
    const int tokens = c.next<int>(), seed = c.next<int>();
    const double temperature = c.next<double>();
    const int top_k = c.next<int>();
    const double top_p = c.next<double>();
    const std::string prompt = c.text();
    if (wb_start(prompt.c_str(), tokens, seed, temperature, top_k, top_p) !=
        0) {
      return native::refused(wb_error());
    }
    int r = 0;
    while ((r = wb_step()) == 1) {
    }
    if (r < 0) return native::refused(wb_error());
    if (wb_matches_library() != 0) c.differs("generate_cached");
    std::printf("ok %d %s\n", wb_drawn(), native::to_line(wb_text()).c_str());
  });
}
