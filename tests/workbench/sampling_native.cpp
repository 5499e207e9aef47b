// The sampling workbench's entry point (book/workbench/sampling/
// sampling.cpp) built natively and linked with the book's library, for
// the test that compares it with the WebAssembly module
// (tests/workbench/sampling.test.js).
//
// usage: workbench_sampling_native CHECKPOINT
// Reads one case a line from standard input:
//     TEMPERATURE TOP_K TOP_P SEED APPENDS BOS<tab>PROMPT
// (APPENDS: how many times the drawn token is appended to the prompt and
// the settings applied again before the case is printed; BOS: 1 to read
// the prompt after the BOS token, 0 without) and prints, for
// each case, either one line
//     error MESSAGE
// or four:
//     ok V READ CUT DRAWN KEPT KEPT_MASS ENTROPY RAW_ENTROPY TEXT_HEX DRAWN_HEX
//     raw P_0 ... P_{V-1}
//     dist Q_0 ... Q_{V-1}
//     ranked ID_0 ... ID_{V-1}
// with every double in %.17g, which reads back as the same double. Each
// case is also checked with wb_matches_library (the distributions again
// from llm::next_token_logits, and the draw against the first token of
// llm::generate_cached); the program fails if one differs.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "sampling.hpp"

namespace {

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out.empty() ? "-" : out;
}

void doubles(const char* name, const double* v, int n) {
  std::printf("%s", name);
  for (int i = 0; i < n; ++i) std::printf(" %.17g", v[i]);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: workbench_sampling_native CHECKPOINT\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) {
    std::fprintf(stderr, "sampling_native: cannot read %s\n", argv[1]);
    return 2;
  }
  if (wb_load(reinterpret_cast<const unsigned char*>(bytes.data()),
              static_cast<int>(bytes.size())) != 0) {
    std::fprintf(stderr, "sampling_native: %s\n", wb_error());
    return 2;
  }
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const auto tab = line.find('\t');
    std::istringstream in(line.substr(0, tab));
    double temperature = 0, top_p = 0;
    int top_k = 0, seed = 0, appends = 0, bos = 0;
    in >> temperature >> top_k >> top_p >> seed >> appends >> bos;
    if (!in || tab == std::string::npos) {
      std::fprintf(stderr, "sampling_native: cannot read the case '%s'\n",
                   line.c_str());
      return 2;
    }
    const std::string prompt = line.substr(tab + 1);
    int r = wb_read(prompt.c_str(), bos);
    if (r == 0) r = wb_sample(temperature, top_k, top_p, seed);
    for (int a = 0; r == 0 && a < appends; ++a) {
      r = wb_append();
      if (r == 0) r = wb_sample(temperature, top_k, top_p, seed);
    }
    if (r != 0) {
      std::printf("error %s\n", wb_error());
      continue;
    }
    if (wb_matches_library() != 0) {
      std::fprintf(stderr,
                   "sampling_native: the workbench differs from the library "
                   "for '%s'\n",
                   line.c_str());
      ++failures;
    }
    const int v = wb_vocab();
    const int drawn = wb_drawn();
    const std::string drawn_hex = wb_token_hex(drawn);
    std::printf("ok %d %d %d %d %d %.17g %.17g %.17g %s %s\n", v,
                wb_read_ids(), wb_was_cut(), drawn, wb_kept(), wb_kept_mass(),
                wb_entropy(), wb_raw_entropy(), hex(wb_text()).c_str(),
                drawn_hex.empty() ? "-" : drawn_hex.c_str());
    doubles("raw", wb_raw(), v);
    doubles("dist", wb_dist(), v);
    std::printf("ranked");
    for (int i = 0; i < v; ++i) std::printf(" %d", wb_ranked(i));
    std::printf("\n");
  }
  return failures ? 1 : 0;
}
