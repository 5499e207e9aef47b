// Times the book's training step on the book's model: chapter 29's
// train_step (forward, backward, clipping by global norm, one AdamW
// update) on llm::book_model_config(), batches of B = 16 windows of
// T = 64 random ids, with the training chapter's schedule, optimiser
// options and clipping. Three more arguments D F B set the model's
// width, its feed-forward width and the batch instead (an earlier
// model: the book's was d 64, f 176, B 8 until December 2026, so
// `64 176 8` times today's code on the step an older commit's
// bench_train times; an older bench_train ignores the extra arguments). The thread count is the library's
// (llm::set_threads), as the fast-kernels chapter chooses it.
//
// usage: bench_train dump STEPS [D F B]   the model and the batches, for PyTorch
//        bench_train time STEPS THREADS [D F B]  one line per step
//
// `dump` prints, in the format of tests/reference/model_reference.cpp
// (every double as %a, so PyTorch starts from the same bits): the
// configuration, the seeded initial parameters, a `train` line with the
// schedule and AdamW's options, and STEPS `batch` lines. `time` runs the
// same STEPS steps from the same parameters and prints
// "step I SECONDS LOSS" for each, the loss as %a, and then
// "params SHA256": the digest of every parameter's doubles after the
// last step (their bytes, in the registry's order), so that two builds
// that print the same line end with the same bits in every parameter.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/decoder_model.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sha256.hpp"
#include "llm/threads.hpp"
#include "llm/training.hpp"

namespace {

constexpr std::size_t T = 64;
std::size_t B = 16;  // the batch, 16 unless the arguments say
// The training chapter's settings (its demo's constants).
const llm::Schedule schedule{.lr_max = 6e-3, .lr_min = 6e-4, .warmup = 100,
                             .steps = 3000};
constexpr double clip = 1.0;
const llm::AdamWOptions adamw{.lr = 6e-3, .beta1 = 0.9, .beta2 = 0.99,
                              .eps = 1e-8, .weight_decay = 0.1};

// STEPS batches of uniformly random ids: the arithmetic of a step does
// not depend on which ids it reads.
std::vector<llm::Batch> batches(const llm::ModelConfig& c, std::size_t n) {
  llm::Rng rng(2029);
  std::vector<llm::Batch> out;
  for (std::size_t s = 0; s < n; ++s) {
    llm::Batch b{{B, T, {}}, {B, T, {}}};
    for (std::size_t i = 0; i < B * T; ++i) {
      b.inputs.ids.push_back(rng.next_u64() % c.vocab);
      b.targets.ids.push_back(rng.next_u64() % c.vocab);
    }
    out.push_back(std::move(b));
  }
  return out;
}

void print_ids(const std::vector<std::size_t>& ids) {
  for (std::size_t id : ids) std::printf(" %zu", id);
}

void dump(const llm::ModelConfig& c, const llm::Parameters& params,
          const std::vector<llm::Batch>& data) {
  std::printf("config %zu %zu %zu %zu %zu %zu %a %a\n", c.vocab, c.d_model,
              c.layers, c.heads, c.ffn_width, c.context, c.rope_base, c.eps);
  for (const llm::NamedTensor& p : params.list()) {
    std::printf("param %s %zu", p.name.c_str(), p.value.shape().size());
    for (std::size_t s : p.value.shape()) std::printf(" %zu", s);
    for (double x : p.value.to_vector()) std::printf(" %a", x);
    std::printf("\n");
  }
  std::printf("train %zu %zu %a %a %a %a %a %a %a\n", schedule.steps,
              schedule.warmup, schedule.lr_max, schedule.lr_min, clip,
              adamw.beta1, adamw.beta2, adamw.eps, adamw.weight_decay);
  for (std::size_t s = 0; s < data.size(); ++s) {
    std::printf("batch %zu %zu %zu", s, B, T);
    print_ids(data[s].inputs.ids);
    print_ids(data[s].targets.ids);
    std::printf("\n");
  }
}

void time_steps(const llm::ModelConfig& c, llm::Parameters& params,
                const std::vector<llm::Batch>& data) {
  llm::AdamW opt(params, adamw);
  for (std::size_t s = 0; s < data.size(); ++s) {
    const auto start = std::chrono::steady_clock::now();
    const llm::StepResult r = llm::train_step(
        params, opt, c, data[s], llm::learning_rate(schedule, s), clip);
    const std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    std::printf("step %zu %.6f %a\n", s, took.count(), r.loss);
  }
  std::string bytes;
  for (const llm::NamedTensor& p : params.list()) {
    for (double x : p.value.to_vector()) {
      bytes.append(reinterpret_cast<const char*>(&x), sizeof x);
    }
  }
  std::printf("params %s\n", llm::sha256_hex(bytes).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const long steps = argc > 2 ? std::atol(argv[2]) : 0;
  const int first_size = mode == "time" ? 4 : 3;  // where D F B start
  const long threads = mode == "time" && argc > 3 ? std::atol(argv[3]) : 1;
  llm::ModelConfig config = llm::book_model_config();
  const bool sized = argc == first_size + 3;
  if (sized) {
    config.d_model = static_cast<std::size_t>(std::atol(argv[first_size]));
    config.ffn_width =
        static_cast<std::size_t>(std::atol(argv[first_size + 1]));
    B = static_cast<std::size_t>(std::atol(argv[first_size + 2]));
  }
  if ((mode != "dump" && mode != "time") || steps < 1 || threads < 1 ||
      (argc != first_size && !sized) || config.d_model == 0 ||
      config.ffn_width == 0 || B == 0) {
    std::fprintf(stderr, "usage: bench_train dump STEPS [D F B] | "
                         "bench_train time STEPS THREADS [D F B]\n");
    return 2;
  }
  llm::set_threads(static_cast<std::size_t>(threads));
  llm::reuse_freed_memory();
  llm::Parameters params(29);
  llm::add_model_parameters(params, config);
  const std::vector<llm::Batch> data =
      batches(config, static_cast<std::size_t>(steps));
  if (mode == "dump") {
    dump(config, params, data);
  } else {
    time_steps(config, params, data);
  }
  return 0;
}
