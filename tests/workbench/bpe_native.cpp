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
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "bpe.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: workbench_bpe_native CHECKPOINT\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (wb_load(reinterpret_cast<const unsigned char*>(bytes.data()),
              static_cast<int>(bytes.size())) != 0) {
    std::fprintf(stderr, "bpe_native: %s: %s\n", argv[1], wb_error());
    return 2;
  }
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        text += line[i] == 'n' ? '\n' : line[i];
      } else {
        text += line[i];
      }
    }
    if (wb_encode(text.c_str()) != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (wb_matches_library() != 0) {
      std::fprintf(stderr, "bpe_native: the steps differ from encode for '%s'\n",
                   line.c_str());
      ++failures;
    }
    std::printf("ok %s\n", wb_result());
  }
  return failures ? 1 : 0;
}
