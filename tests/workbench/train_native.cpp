// The training workbench's entry point (book/workbench/train/train.cpp)
// built natively and linked with the book's library, for the test that
// compares it with the WebAssembly module (tests/workbench/train.test.js).
//
// usage: workbench_train_native TOKEN_DATA
// Reads one case a line from standard input:
//     LR WARMUP BATCH CLIP SEED STEPS TAKE
// (LR and CLIP as strtod reads them, so "nan" is a case), starts a run
// with those settings, takes TAKE steps of it, and prints one line:
//     ok L1 G1 R1 ... LK GK RK VALIDATION FP_LOW FP_HIGH
// each step's loss, gradient norm and rate, the validation loss after
// the last, and the parameters' fingerprint in two halves. A case with a
// tab samples in the middle of the run:
//     LR WARMUP BATCH CLIP SEED STEPS TAKE SEED2 TOKENS TEMP TOPK TOPP AFTER<TAB>PROMPT
// takes TAKE steps, samples from the prompt (native.hpp's from_line)
// with wb_sample's settings SEED2 ... TOPP, takes AFTER more steps, and
// prints
//     ok L1 G1 R1 ... (TAKE steps) N B1 ... BN L G R ... (AFTER steps)
//        VALIDATION FP_LOW FP_HIGH
// where N is the number of bytes of the sample's text and B1 ... BN the
// bytes, each a number from 0 to 255; or
//     error MESSAGE        when the entry point refuses the case or a
//                          step fails
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "native.hpp"
#include "train.hpp"

int main(int argc, char** argv) {
  if (!native::load_checkpoint("train_native", argc, argv, wb_load_data,
                               wb_error)) {
    return 2;
  }
  return native::each_line("train_native", [](native::Case& c) {
    const double lr = std::strtod(c.next<std::string>().c_str(), nullptr);
    const int warmup = c.next<int>(), batch = c.next<int>();
    const double clip = std::strtod(c.next<std::string>().c_str(), nullptr);
    const int seed = c.next<int>(), steps = c.next<int>();
    const int take = c.next<int>();
    if (wb_start(lr, warmup, batch, clip, seed, steps) != 0) {
      return native::refused(wb_error());
    }
    std::vector<double> numbers;
    const auto step = [&](int count) {
      for (int i = 0; i < count; ++i) {
        if (wb_step() != 1) return false;
        numbers.insert(numbers.end(), {wb_loss(), wb_grad_norm(), wb_lr()});
      }
      return true;
    };
    if (!step(take)) return native::refused(wb_error());
    if (c.line().find('\t') != std::string::npos) {
      const int sample_seed = c.next<int>(), tokens = c.next<int>();
      const double temperature = c.next<double>();
      const int top_k = c.next<int>();
      const double top_p = c.next<double>();
      const int after = c.next<int>();
      const std::string prompt = native::from_line(c.text());
      if (wb_sample(prompt.c_str(), tokens, sample_seed, temperature, top_k,
                    top_p) != 0) {
        return native::refused(wb_error());
      }
      const std::string text = wb_sample_text();
      numbers.push_back(double(text.size()));
      for (const char ch : text) {
        numbers.push_back(double(static_cast<unsigned char>(ch)));
      }
      if (!step(after)) return native::refused(wb_error());
    }
    const std::vector<double> tail = {wb_validation(),
                                      double(wb_fingerprint_low()),
                                      double(wb_fingerprint_high())};
    native::answer(numbers, tail);
  });
}
