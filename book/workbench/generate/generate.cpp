// The workbench of chapter 34 (see generate.hpp): the book's trained model
// writing a token at a time, through a C interface so that the page's
// WebAssembly module and the native comparison program run the same code.
#include "generate.hpp"

#include <cmath>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../entry.hpp"
#include "../model.hpp"
#include "llm/checkpoint.hpp"
#include "llm/generation.hpp"
#include "llm/kv_cache.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"

namespace {

using workbench::require;

std::optional<llm::Checkpoint> model;

// One continuation: the state of generate_cached's loop between two
// draws, kept here because the page shows each token before the next.
struct Continuation {
  std::vector<llm::TokenId> context;  // BOS, the prompt, the drawn tokens
  std::vector<llm::TokenId> start;    // what the loop started from
  std::size_t prompt_ids = 0;
  std::size_t count = 0, drawn = 0;
  std::uint64_t seed = 0;
  llm::SamplingOptions options;
  llm::Rng rng{0};
  std::unique_ptr<llm::KvCache> cache;
  std::vector<double> logits;
  std::string prompt, text;
  bool done = true;
};
Continuation run;

// Reads ids into a new cache; the logits after the last one.
std::vector<double> read_all(llm::KvCache& cache,
                             const std::vector<llm::TokenId>& ids) {
  std::vector<double> logits;
  for (llm::TokenId id : ids) {
    logits = llm::decode_step(model->params, model->config, cache, id).to_vector();
  }
  return logits;
}

}  // namespace

extern "C" int wb_load(const unsigned char* bytes, int n) {
  return workbench::answer([&] {
    model = workbench::checkpoint(bytes, n);
    run = Continuation{};
  });
}

extern "C" int wb_start(const char* prompt, int tokens, int seed,
                        double temperature, int top_k, double top_p) {
  return workbench::answer([&] {
    require(model.has_value(), "no model is loaded");
    require(tokens >= 1 && tokens <= 100000,
            "the token count must be a whole number from 1 to 100000");
    Continuation next;
    next.prompt = prompt;
    next.options = workbench::sampling_options(temperature, top_k, top_p);
    next.seed = workbench::sampling_seed(seed);
    next.context = {model->tokenizer.bos()};
    for (llm::TokenId id : model->tokenizer.encode(next.prompt)) {
      next.context.push_back(id);
    }
    const std::size_t limit = model->config.context - 1;
    if (next.context.size() > limit) {  // as tinyllm generate cuts it
      next.context.erase(next.context.begin(), next.context.end() - limit);
    }
    next.start = next.context;
    next.prompt_ids = next.context.size();
    next.count = static_cast<std::size_t>(tokens);
    next.rng = llm::Rng(next.seed);
    next.cache = std::make_unique<llm::KvCache>(model->config);
    next.logits = read_all(*next.cache, next.context);
    next.text = next.prompt;
    next.done = false;
    run = std::move(next);
  });
}

// One turn of generate_cached's loop.
extern "C" int wb_step(void) {
  try {
    if (run.done) return 0;
    if (run.drawn == run.count) {
      run.done = true;
      return 0;
    }
    const llm::TokenId next = llm::sample_token(run.logits, run.options, run.rng);
    if (next == model->tokenizer.eos()) {
      run.done = true;
      return 0;
    }
    run.context.push_back(next);
    ++run.drawn;
    const llm::ModelConfig& config = model->config;
    if (run.cache->size() == config.context) {  // full: keep the last half
      const std::size_t keep = config.context / 2;
      const std::vector<llm::TokenId> tail(run.context.end() - keep,
                                           run.context.end());
      run.cache = std::make_unique<llm::KvCache>(config);
      run.logits = read_all(*run.cache, tail);
    } else {
      run.logits =
          llm::decode_step(model->params, config, *run.cache, next).to_vector();
    }
    const std::vector<llm::TokenId> drawn(run.context.begin() + run.prompt_ids,
                                          run.context.end());
    run.text = run.prompt + model->tokenizer.decode(drawn);
    return 1;
  } catch (const std::exception& e) {
    run.done = true;
    workbench::last_error = e.what();
    return -1;
  }
}

extern "C" const char* wb_text(void) { return run.text.c_str(); }

extern "C" int wb_drawn(void) { return static_cast<int>(run.drawn); }

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_library(void) {
  return workbench::verdict([] {
    if (!model || !run.done) return false;
    llm::Rng rng(run.seed);
    const std::vector<llm::TokenId> ids = llm::generate_cached(
        model->params, model->config, run.start, run.count, run.options, rng,
        model->tokenizer.eos());
    return ids == run.context;
  });
}
