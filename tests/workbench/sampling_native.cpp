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
#include <string>

#include "native.hpp"
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

// wb_read, then wb_sample, then `appends` times wb_append and wb_sample
// again; 0, or the first failure's status.
int run(const std::string& prompt, int bos, double temperature, int top_k,
        double top_p, int seed, int appends) {
  int r = wb_read(prompt.c_str(), bos);
  if (r == 0) r = wb_sample(temperature, top_k, top_p, seed);
  for (int a = 0; r == 0 && a < appends; ++a) {
    r = wb_append();
    if (r == 0) r = wb_sample(temperature, top_k, top_p, seed);
  }
  return r;
}

void print_answer() {
  const int v = wb_vocab();
  const int drawn = wb_drawn();
  const std::string drawn_hex = wb_token_hex(drawn);
  std::printf("ok %d %d %d %d %d %.17g %.17g %.17g %s %s\n", v, wb_read_ids(),
              wb_was_cut(), drawn, wb_kept(), wb_kept_mass(), wb_entropy(),
              wb_raw_entropy(), hex(wb_text()).c_str(),
              drawn_hex.empty() ? "-" : drawn_hex.c_str());
  doubles("raw", wb_raw(), v);
  doubles("dist", wb_dist(), v);
  std::printf("ranked");
  for (int i = 0; i < v; ++i) std::printf(" %d", wb_ranked(i));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (!native::load_checkpoint("sampling_native", argc, argv, wb_load,
                               wb_error)) {
    return 2;
  }
  return native::each_line("sampling_native", [](native::Case& c) {
    const double temperature = c.next<double>();
    const int top_k = c.next<int>();
    const double top_p = c.next<double>();
    const int seed = c.next<int>(), appends = c.next<int>();
    const int bos = c.next<int>();
    if (run(c.text(), bos, temperature, top_k, top_p, seed, appends) != 0) {
      return native::refused(wb_error());
    }
    if (wb_matches_library() != 0) c.differs("the library");
    print_answer();
  });
}
