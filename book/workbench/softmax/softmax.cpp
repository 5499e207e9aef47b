// The workbench of chapter 11 (see softmax.hpp): the chapter's own
// llm::softmax and llm::log_softmax, called through a C interface so that
// the page's WebAssembly module and the native comparison program run the
// same code.
#include "softmax.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "llm/softmax.hpp"
#include "llm/tensor.hpp"

namespace {

std::string last_error;

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

bool all_finite(const std::vector<double>& v) {
  for (double e : v) {
    if (!std::isfinite(e)) return false;
  }
  return true;
}

}  // namespace

extern "C" int wb_softmax(const double* x, int n, double t, double* probs,
                          double* log_probs, double* naive) {
  try {
    if (n < 1 || n > WB_SOFTMAX_MAX) {
      last_error = "a row has 1 to " + std::to_string(WB_SOFTMAX_MAX) +
                   " logits, got " + std::to_string(n);
      return 1;
    }
    for (int i = 0; i < n; ++i) {
      if (!std::isfinite(x[i])) {
        last_error = "every logit must be a finite number";
        return 1;
      }
    }
    if (!(t > 0.0) || !std::isfinite(t)) {
      last_error = "the temperature must be a positive number";
      return 1;
    }
    const llm::Tensor row = scaled_row(x, n, t);  // [1, n]
    const std::vector<double> p = llm::softmax(row).to_vector();
    const std::vector<double> lp = llm::log_softmax(row).to_vector();
    if (!all_finite(p) || !all_finite(row.to_vector())) {
      last_error = "the logits divided by this temperature are too large "
                   "for a double";
      return 1;
    }
    const std::vector<double> w = as_written(x, n, t);
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
    std::memcpy(probs, p.data(), bytes);
    std::memcpy(log_probs, lp.data(), bytes);
    std::memcpy(naive, w.data(), bytes);
    last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
    return 1;
  }
}

extern "C" const char* wb_error(void) { return last_error.c_str(); }

extern "C" int wb_matches_library(const double* x, int n) {
  std::vector<double> probs(static_cast<std::size_t>(n)), lp(probs), w(probs);
  if (wb_softmax(x, n, 1.0, probs.data(), lp.data(), w.data()) != 0) return 1;
  const llm::Tensor row({1, static_cast<std::size_t>(n)},
                        std::vector<double>(x, x + n));
  const std::vector<double> direct = llm::softmax(row).to_vector();
  return std::memcmp(direct.data(), probs.data(),
                     probs.size() * sizeof(double)) == 0
             ? 0
             : 1;
}
