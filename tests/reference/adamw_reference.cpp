// Prints AdamW runs for tests/reference/adamw_torch.py to replay with
// torch.optim.AdamW: for each run its options, the initial parameters
// (with whether each is decayed), and per step the gradients given and
// the parameters and moments that came out. Doubles are printed as
// C99 hex floats, so the file carries every bit.
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"

namespace {

void print_values(const char* tag, const std::string& name,
                  const llm::Tensor& t) {
  const std::vector<double> v = t.to_vector();
  std::printf("%s %s %zu", tag, name.c_str(), v.size());
  for (const double x : v) std::printf(" %a", x);
  std::printf("\n");
}

void run(const llm::AdamWOptions& o, int steps, std::uint64_t seed) {
  llm::Parameters p(seed);
  p.add("embed.weight", {4, 3}, llm::fan_in_normal(1));
  p.add("ffn.w", {3, 2}, llm::fan_in_uniform(3));
  p.add("norm.gain", {3}, llm::constant(1.0));
  // Not 0: with beta1 = 0 two steps of opposite sign cancel to about
  // lr * eps / |g|, and a relative comparison of a value that has
  // cancelled that far measures the cancellation, not the optimiser.
  p.add("out.bias", {2}, llm::constant(0.25));
  llm::AdamW opt(p, o);
  std::printf("run %a %a %a %a %a %d\n", o.lr, o.beta1, o.beta2, o.eps,
              o.weight_decay, steps);
  for (const llm::NamedTensor& n : p.list()) {
    std::printf("decayed %s %d\n", n.name.c_str(), opt.decays(n.name) ? 1 : 0);
    print_values("param", n.name, n.value);
  }
  llm::Rng rng(seed + 1);
  for (int t = 0; t < steps; ++t) {
    // Gradients whose scale changes from step to step and from tensor
    // to tensor, with some tiny ones so that eps matters.
    std::vector<llm::NamedTensor> grads;
    for (const llm::NamedTensor& n : p.list()) {
      const double scale = (t % 3 == 2) ? 1e-9 : 0.5 + t;
      grads.push_back({n.name, llm::init_tensor(n.value.shape(),
                                                {.scale = scale}, rng)});
    }
    std::printf("step %d\n", t + 1);
    for (const llm::NamedTensor& g : grads) print_values("grad", g.name, g.value);
    opt.step(p, grads);
    for (std::size_t i = 0; i < p.size(); ++i) {
      print_values("param", p.list()[i].name, p.list()[i].value);
      print_values("m", opt.state().m[i].name, opt.state().m[i].value);
      print_values("v", opt.state().v[i].name, opt.state().v[i].value);
    }
  }
}

}  // namespace

int main() {
  run({.lr = 1e-2, .weight_decay = 0.1}, 8, 19);
  run({.lr = 0.3, .beta1 = 0.5, .beta2 = 0.9, .eps = 1e-6,
       .weight_decay = 0.0},
      6, 20);
  run({.lr = 3e-4, .beta1 = 0.0, .beta2 = 0.0, .eps = 1e-8,
       .weight_decay = 1.5},
      4, 21);
  std::printf("end\n");
}
