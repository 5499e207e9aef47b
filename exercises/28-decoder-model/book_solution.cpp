// The book's implementation behind the exercise's interface: the tests
// must pass on it.
#include "exercise.hpp"

namespace exercise {

llm::Var model_logits(const llm::ModelWeights& w,
                      const llm::ModelConfig& config,
                      const llm::TokenGrid& tokens) {
  return llm::model_forward(w, config, tokens).logits;
}

}  // namespace exercise
