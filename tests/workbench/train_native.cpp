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
// the last, and the parameters' fingerprint in two halves; or
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
    for (int i = 0; i < take; ++i) {
      if (wb_step() != 1) return native::refused(wb_error());
      numbers.insert(numbers.end(), {wb_loss(), wb_grad_norm(), wb_lr()});
    }
    const std::vector<double> tail = {wb_validation(),
                                      double(wb_fingerprint_low()),
                                      double(wb_fingerprint_high())};
    native::answer(numbers, tail);
  });
}
