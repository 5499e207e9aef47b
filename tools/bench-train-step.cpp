// Times one decoder block's training step (forward, then backward of the
// loss sum(w * y) with fixed weights w) and the book's matmul at 256^3
// and 512^3, median of REPETITIONS runs each, at the thread count set by
// llm::set_threads. Prints one "name seconds" line per measurement, for
// tools/bench-train-step.sh to set beside PyTorch and OpenBLAS.
//
// usage: bench_train_step REPETITIONS THREADS [block|matmul|all]
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_block.hpp"
#include "llm/layers.hpp"
#include "llm/matmul.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "llm/threads.hpp"

namespace {

// The block: B = 4, T = 64, d_model = 128, h = 4, f = 384.
const llm::DecoderBlockConfig config{
    .attention = {.d_model = 128, .heads = 4, .rope_base = 10000.0,
                  .capacity = 64},
    .ffn_width = 384};

template <typename F>
double median_seconds(int reps, F f) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const auto stop = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(stop - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double block_step(const llm::Parameters& params, const llm::Tensor& x,
                  const llm::Tensor& w) {
  llm::Tape tape;
  const llm::ParameterLeaves leaves(tape, params);
  const llm::Var y = llm::decoder_block(
      tape.leaf(x), llm::decoder_block_weights(leaves), config).out;
  tape.backward(y, w);
  return leaves.gradients().front().value.buffer()[0];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_train_step REPS THREADS [what]\n");
    return 2;
  }
  const int reps = std::atoi(argv[1]);
  const int threads = std::atoi(argv[2]);
  const std::string what = argc > 3 ? argv[3] : "all";
  if (reps < 1 || threads < 1) {
    std::fprintf(stderr, "bench_train_step: REPS and THREADS >= 1\n");
    return 2;
  }
  llm::set_threads(static_cast<std::size_t>(threads));
  llm::reuse_freed_memory();
  if (what == "block" || what == "all" || what == "step") {
    llm::Parameters params(27);
    llm::add_decoder_block_parameters(params, config);
    llm::Rng rng(27);
    const llm::Tensor x =
        llm::init_tensor({4, 64, 128}, llm::fan_in_normal(1), rng);
    const llm::Tensor w = llm::probe_weights({4, 64, 128});
    if (what == "step") {  // one step, for /usr/bin/time -v
      block_step(params, x, w);
      return 0;
    }
    block_step(params, x, w);  // warm up
    std::printf("block %.6f\n", median_seconds(reps, [&] {
                  block_step(params, x, w);
                }));
  }
  if (what == "matmul" || what == "all") {
    for (std::size_t n : {256, 512}) {
      llm::Rng rng(n);
      const llm::Tensor a = llm::init_tensor({n, n}, llm::fan_in_normal(1), rng);
      const llm::Tensor b = llm::init_tensor({n, n}, llm::fan_in_normal(1), rng);
      llm::matmul(a, b);
      std::printf("matmul%zu %.6f\n", n, median_seconds(reps, [&] {
                    llm::matmul(a, b);
                  }));
    }
  }
  return 0;
}
