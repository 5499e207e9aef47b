// Exercise of the end-to-end chapter: generation through the key/value
// cache, which compiles, runs, and is wrong in three places. Fix it until
// the exercise tests pass:
//
//   cmake --build build --target run_exercise_34
#include "exercise.hpp"

#include <memory>

#include "llm/kv_cache.hpp"

namespace exercise {

std::vector<llm::TokenId> generate_cached(const llm::Parameters& params,
                                          const llm::ModelConfig& config,
                                          std::vector<llm::TokenId> context,
                                          std::size_t count,
                                          const llm::SamplingOptions& options,
                                          llm::Rng& rng, llm::TokenId stop) {
  auto cache = std::make_unique<llm::KvCache>(config);
  std::vector<double> logits;
  for (llm::TokenId id : context) {
    logits = llm::decode_step(params, config, *cache, id).to_vector();
  }
  for (std::size_t n = 0; n < count; ++n) {
    const llm::TokenId next = llm::sample_token(logits, options, rng);
    context.push_back(next);
    if (next == stop) break;
    if (cache->size() == config.context) {  // full: start a new cache
      const std::size_t keep = config.context / 2;
      cache = std::make_unique<llm::KvCache>(config);
      for (std::size_t i = 0; i < keep; ++i) {
        logits = llm::decode_step(params, config, *cache, context[i]).to_vector();
      }
    }
  }
  return context;
}

}  // namespace exercise
