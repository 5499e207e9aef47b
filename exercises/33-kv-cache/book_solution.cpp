// The book's implementation behind the exercise's interface: the tests
// must pass on it. It rotates with Rope::apply and attends with the
// self-attention chapter's attention_scores, softmax and attend, on a
// tape it then discards.
#include "exercise.hpp"

#include <cstddef>
#include <vector>

#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/tensor.hpp"

namespace exercise {

std::vector<double> attend_new_token(const llm::Rope& rope,
                                     HeadCache& cache,
                                     std::vector<double> q,
                                     std::vector<double> k,
                                     const std::vector<double>& v) {
  const std::size_t t = cache.keys.size(), d_h = q.size();
  llm::Tape tape;
  const auto turned = [&](const std::vector<double>& x) {
    return rope.apply(tape.leaf(llm::Tensor({1, d_h}, x)), t)
        .value().to_vector();
  };
  cache.keys.push_back(turned(k));
  cache.values.push_back(v);
  std::vector<double> keys, values;  // [t + 1, d_h] each
  for (std::size_t j = 0; j <= t; ++j) {
    keys.insert(keys.end(), cache.keys[j].begin(), cache.keys[j].end());
    values.insert(values.end(), cache.values[j].begin(),
                  cache.values[j].end());
  }
  const llm::Var query = tape.leaf(llm::Tensor({1, d_h}, turned(q)));
  const llm::Var probs = llm::softmax(llm::attention_scores(
      query, tape.leaf(llm::Tensor({t + 1, d_h}, keys))));  // [1, t + 1]
  return llm::attend(probs, tape.leaf(llm::Tensor({t + 1, d_h}, values)))
      .value().to_vector();
}

}  // namespace exercise
