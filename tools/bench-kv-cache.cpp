// Times generation with and without the key/value cache (chapter
// kv-cache) on a model of the book's trained size (V = 1026, d = 64,
// N = 2, h = 4, f = 176, context 64) with seeded random weights: the
// median over REPETITIONS runs of the time to read one token at every
// position 0 .. 63, cached (decode_step) and uncached (model_forward on
// the whole prefix, keeping the last row). Measures wall-clock time and
// the process's CPU time (which a busy machine inflates much less).
// Prints "cached WALL CPU", "uncached WALL CPU" (seconds, summed over
// the positions) and "tT WALL_CACHED WALL_UNCACHED CPU_CACHED
// CPU_UNCACHED" for a few positions, for tools/bench-kv-cache.sh.
//
// usage: bench_kv_cache REPETITIONS
#include <time.h>

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

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Wall-clock and CPU seconds of one call.
struct Times {
  std::vector<double> wall, cpu;
  template <typename F>
  void time(F f) {
    const auto start = Clock::now();
    const double cpu0 = cpu_seconds();
    f();
    cpu.push_back(cpu_seconds() - cpu0);
    wall.push_back(std::chrono::duration<double>(Clock::now() - start)
                       .count());
  }
};

// The time of each position's token, one generation of the context.
Times cached(const llm::Parameters& p, const std::vector<std::size_t>& ids) {
  Times t;
  llm::KvCache cache(config);
  for (std::size_t id : ids) {
    t.time([&] { llm::decode_step(p, config, cache, id); });
  }
  return t;
}

Times uncached(const llm::Parameters& p,
               const std::vector<std::size_t>& ids) {
  Times t;
  for (std::size_t n = 1; n <= ids.size(); ++n) t.time([&] {
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, p);
    const llm::TokenGrid grid{
        .batch = 1, .length = n,
        .ids = std::vector<std::size_t>(ids.begin(), ids.begin() + n)};
    llm::model_forward(llm::model_weights(leaves, config), config, grid);
  });
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
  for (std::size_t t = 0; t < config.context; ++t) {
    ids.push_back(t * 37 % config.vocab);
  }
  // Per position and measure, the samples of all repetitions:
  // [0] cached wall, [1] uncached wall, [2] cached cpu, [3] uncached cpu.
  std::vector<std::vector<std::vector<double>>> s(
      4, std::vector<std::vector<double>>(config.context));
  for (int r = 0; r < reps; ++r) {
    const Times a = cached(p, ids), b = uncached(p, ids);
    for (std::size_t t = 0; t < config.context; ++t) {
      s[0][t].push_back(a.wall[t]);
      s[1][t].push_back(b.wall[t]);
      s[2][t].push_back(a.cpu[t]);
      s[3][t].push_back(b.cpu[t]);
    }
  }
  double total[4] = {0, 0, 0, 0};
  for (std::size_t m = 0; m < 4; ++m) {
    for (std::size_t t = 0; t < config.context; ++t) total[m] += median(s[m][t]);
  }
  std::printf("cached %.9f %.9f\nuncached %.9f %.9f\n", total[0], total[2],
              total[1], total[3]);
  for (std::size_t t : {0, 15, 31, 63}) {
    std::printf("t%zu %.9f %.9f %.9f %.9f\n", t, median(s[0][t]),
                median(s[1][t]), median(s[2][t]), median(s[3][t]));
  }
}
