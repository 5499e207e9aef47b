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

#include "llm/checkpoint.hpp"
#include "llm/generation.hpp"
#include "llm/kv_cache.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"

namespace {

std::string last_error;
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

int fail(const std::string& message) {
  last_error = message;
  return 1;
}

}  // namespace

extern "C" int wb_load(const unsigned char* bytes, int n) {
  try {
    if (n <= 0) return fail("no checkpoint bytes");
    model = llm::decode_checkpoint(
        std::string_view(reinterpret_cast<const char*>(bytes),
                         static_cast<std::size_t>(n)));
    run = Continuation{};
    last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

extern "C" int wb_start(const char* prompt, int tokens, int seed,
                        double temperature, int top_k, double top_p) {
  try {
    if (!model) return fail("no model is loaded");
    if (tokens < 1 || tokens > 100000) {
      return fail("the token count must be a whole number from 1 to 100000");
    }
    if (seed < 0) return fail("the seed must be a whole number from 0 to 2147483647");
    if (!(temperature >= 0.0 && temperature <= 100.0)) {
      return fail("the temperature must be a number from 0 to 100");
    }
    if (top_k < 0) return fail("top-k must be a whole number, 0 for all");
    if (!(top_p > 0.0 && top_p <= 1.0)) {
      return fail("top-p must be a number above 0 and at most 1");
    }
    Continuation next;
    next.prompt = prompt;
    next.options = {.temperature = temperature,
                    .top_k = static_cast<std::size_t>(top_k),
                    .top_p = top_p};
    llm::validate(next.options);
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
    next.seed = static_cast<std::uint64_t>(seed);
    next.rng = llm::Rng(next.seed);
    next.cache = std::make_unique<llm::KvCache>(model->config);
    next.logits = read_all(*next.cache, next.context);
    next.text = next.prompt;
    next.done = false;
    run = std::move(next);
    last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
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
    last_error = e.what();
    return -1;
  }
}

extern "C" const char* wb_text(void) { return run.text.c_str(); }

extern "C" int wb_drawn(void) { return static_cast<int>(run.drawn); }

extern "C" const char* wb_error(void) { return last_error.c_str(); }

extern "C" int wb_matches_library(void) {
  try {
    if (!model || !run.done) return 1;
    llm::Rng rng(run.seed);
    const std::vector<llm::TokenId> ids = llm::generate_cached(
        model->params, model->config, run.start, run.count, run.options, rng,
        model->tokenizer.eos());
    return ids == run.context ? 0 : 1;
  } catch (const std::exception&) {
    return 1;
  }
}
