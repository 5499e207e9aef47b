// The workbench of chapter 11 (see softmax.hpp): the chapter's own
// llm::softmax and llm::log_softmax, called through a C interface so that
// the page's WebAssembly module and the native comparison program run the
// same code.
#include "softmax.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "../entry.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"

namespace {

using workbench::all_finite;
using workbench::require;

// The row divided by the temperature, as a [1, n] tensor.
llm::Tensor scaled_row(const double* x, int n, double t) {
  std::vector<double> v(x, x + n);
  for (double& e : v) e /= t;
  return llm::Tensor({1, static_cast<std::size_t>(n)}, v);
}

// exp(x_i / t) / sum_j exp(x_j / t), without the shift.
std::vector<double> as_written(const double* x, int n, double t) {
  std::vector<double> e(static_cast<std::size_t>(n));
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    e[static_cast<std::size_t>(i)] = std::exp(x[i] / t);
    sum += e[static_cast<std::size_t>(i)];
  }
  for (double& v : e) v /= sum;
  return e;
}

}  // namespace

extern "C" int wb_softmax(const double* x, int n, double t, double* probs,
                          double* log_probs, double* naive) {
  return workbench::answer([&] {
    require(n >= 1 && n <= WB_SOFTMAX_MAX,
            "a row has 1 to " + std::to_string(WB_SOFTMAX_MAX) +
                " logits, got " + std::to_string(n));
    require(all_finite(x, static_cast<std::size_t>(n)),
            "every logit must be a finite number");
    require(t > 0.0 && std::isfinite(t),
            "the temperature must be a positive number");
    const llm::Tensor row = scaled_row(x, n, t);  // [1, n]
    const std::vector<double> p = llm::softmax(row).to_vector();
    const std::vector<double> lp = llm::log_softmax(row).to_vector();
    require(all_finite(p) && all_finite(row.to_vector()),
            "the logits divided by this temperature are too large for a "
            "double");
    workbench::copy_out(p, probs);
    workbench::copy_out(lp, log_probs);
    workbench::copy_out(as_written(x, n, t), naive);
  });
}

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_library(const double* x, int n) {
  std::vector<double> probs(static_cast<std::size_t>(n)), lp(probs), w(probs);
  if (wb_softmax(x, n, 1.0, probs.data(), lp.data(), w.data()) != 0) return 1;
  const llm::Tensor row({1, static_cast<std::size_t>(n)},
                        std::vector<double>(x, x + n));
  const std::vector<double> direct = llm::softmax(row).to_vector();
  return workbench::same_bits(direct, probs) ? 0 : 1;
}
