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
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "generate.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: workbench_generate_native CHECKPOINT\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) {
    std::fprintf(stderr, "generate_native: cannot read %s\n", argv[1]);
    return 2;
  }
  if (wb_load(reinterpret_cast<const unsigned char*>(bytes.data()),
              static_cast<int>(bytes.size())) != 0) {
    std::fprintf(stderr, "generate_native: %s\n", wb_error());
    return 2;
  }
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const auto tab = line.find('\t');
    std::istringstream in(line.substr(0, tab));
    int tokens = 0, seed = 0, top_k = 0;
    double temperature = 0, top_p = 0;
    in >> tokens >> seed >> temperature >> top_k >> top_p;
    if (!in || tab == std::string::npos) {
      std::fprintf(stderr, "generate_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    const std::string prompt = line.substr(tab + 1);
    if (wb_start(prompt.c_str(), tokens, seed, temperature, top_k, top_p) != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    int r = 0;
    while ((r = wb_step()) == 1) {
    }
    if (r < 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (wb_matches_library() != 0) {
      std::fprintf(stderr,
                   "generate_native: the steps differ from generate_cached "
                   "for '%s'\n",
                   line.c_str());
      ++failures;
    }
    std::string text;
    for (const char c : std::string(wb_text())) {
      if (c == '\\') text += "\\\\";
      else if (c == '\n') text += "\\n";
      else text += c;
    }
    std::printf("ok %d %s\n", wb_drawn(), text.c_str());
  }
  return failures ? 1 : 0;
}
