// The tokenizer workbench's entry point (book/workbench/bpe/bpe.cpp) built
// natively and linked with the book's library, for the test that compares
// it with the WebAssembly module (tests/workbench/bpe.test.js).
//
// usage: workbench_bpe_native CHECKPOINT
// Reads one text a line from standard input, with '\' written '\\' and a
// newline '\n', and prints one line a text: "ok JSON" (wb_result) or
// "error MESSAGE". Each text is also encoded by Tokenizer::encode; the
// program fails if the tokens differ.
#include <cstdio>

#include "bpe.hpp"
#include "native.hpp"

int main(int argc, char** argv) {
  if (!native::load_checkpoint("bpe_native", argc, argv, wb_load, wb_error)) {
    return 2;
  }
  const bool blank_lines = true;  // the empty text is a case
  return native::each_line(
      "bpe_native",
      [](native::Case& c) {
        if (wb_encode(native::from_line(c.line()).c_str()) != 0) {
          return native::refused(wb_error());
        }
        if (wb_matches_library() != 0) c.differs("Tokenizer::encode");
        std::printf("ok %s\n", wb_result());
      },
      blank_lines);
}
