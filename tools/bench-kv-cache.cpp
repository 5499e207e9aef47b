// Times generation with and without the key/value cache (chapter
// kv-cache) on a model of the book's trained size (V = 1026, d = 64,
// N = 2, h = 4, f = 176, context 64) with seeded random weights: the
// median over REPETITIONS runs of the time to read one token at every
// position 0 .. 63, cached (decode_step) and uncached (model_forward on
// the whole prefix, keeping the last row). Prints "cached SECONDS",
// "uncached SECONDS" and, per position group, the mean time per token,
// for tools/bench-kv-cache.sh.
//
// usage: bench_kv_cache REPETITIONS
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_model.hpp"
#include "llm/kv_cache.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"

namespace {

const llm::ModelConfig config{.vocab = 1026, .d_model = 64, .layers = 2,
                              .heads = 4, .ffn_width = 176,
                              .context = 64};

using Clock = std::chrono::steady_clock;

// Seconds per token at each position, one generation of the context.
std::vector<double> cached(const llm::Parameters& p,
                           const std::vector<std::size_t>& ids) {
  std::vector<double> t;
  llm::KvCache cache(config);
  for (std::size_t id : ids) {
    const auto start = Clock::now();
    const llm::Tensor z = llm::decode_step(p, config, cache, id);
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return t;
}

std::vector<double> uncached(const llm::Parameters& p,
                             const std::vector<std::size_t>& ids) {
  std::vector<double> t;
  for (std::size_t n = 1; n <= ids.size(); ++n) {
    const auto start = Clock::now();
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    const llm::TokenGrid grid{
        .batch = 1, .length = n,
        .ids = std::vector<std::size_t>(ids.begin(), ids.begin() + n)};
    const llm::Tensor z = llm::model_forward(llm::model_weights(leaves, config),
                                             config, grid).logits.value();
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  llm::Parameters p(33);
  llm::add_model_parameters(p, config);
  std::vector<std::size_t> ids;
  for (std::size_t t = 0; t < config.context; ++t) ids.push_back(t * 37 % 1026);
  // Per position, the median over the repetitions.
  std::vector<std::vector<double>> c(config.context), u(config.context);
  for (int r = 0; r < reps; ++r) {
    const std::vector<double> a = cached(p, ids), b = uncached(p, ids);
    for (std::size_t t = 0; t < config.context; ++t) {
      c[t].push_back(a[t]);
      u[t].push_back(b[t]);
    }
  }
  double total_c = 0, total_u = 0;
  for (std::size_t t = 0; t < config.context; ++t) {
    total_c += median(c[t]);
    total_u += median(u[t]);
  }
  std::printf("cached %.9f\nuncached %.9f\n", total_c, total_u);
  for (std::size_t t : {0, 15, 31, 63}) {
    std::printf("t%zu %.9f %.9f\n", t, median(c[t]), median(u[t]));
  }
}
