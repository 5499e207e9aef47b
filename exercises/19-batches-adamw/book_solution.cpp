// The book's implementation behind the exercise's interface: the tests
// must pass on it. A one-parameter registry, the book's AdamW restored
// to the given moments, one step, and the state read back.
#include "exercise.hpp"

#include <string>

#include "llm/params.hpp"

namespace exercise {

void adamw_step(std::vector<double>& theta, const std::vector<double>& grad,
                Moments& state, const llm::AdamWOptions& options,
                bool decay) {
  const std::size_t n = theta.size();
  if (state.m.empty()) state.m.assign(n, 0.0);
  if (state.v.empty()) state.v.assign(n, 0.0);
  llm::Parameters params(0);
  const llm::Tensor w = params.add("w", llm::Tensor({n}, theta));
  llm::AdamWOptions o = options;
  o.decays = [decay](const std::string&, const llm::Shape&) {
    return decay;
  };
  llm::AdamW optimizer(params, o);
  optimizer.restore({state.step,
                     {{"w", llm::Tensor({n}, state.m)}},
                     {{"w", llm::Tensor({n}, state.v)}}});
  optimizer.step(params, {{"w", llm::Tensor({grad.size()}, grad)}});
  theta = w.to_vector();
  state.step = optimizer.state().step;
  state.m = optimizer.state().m[0].value.to_vector();
  state.v = optimizer.state().v[0].value.to_vector();
}

}  // namespace exercise
