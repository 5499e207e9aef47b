// The workbench of chapter 25 (see attention.hpp): the chapter's own
// llm::attention_workbench, called through a C interface so that the
// page's WebAssembly module and the native comparison program run the
// same code.
#include "attention.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/multi_head_attention.hpp"
#include "llm/tensor.hpp"

namespace {

constexpr std::size_t kTokens = WORKBENCH_TOKENS;
constexpr std::size_t kModel = WORKBENCH_MODEL;

std::string last_error;

bool all_finite(const double* values, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

llm::Tensor token_rows(const double* tokens) {  // [T, d_model]
  return llm::Tensor({kTokens, kModel},
                     std::vector<double>(tokens, tokens + WORKBENCH_ROWS));
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

extern "C" int wb_attention(const double* tokens, int causal,
                                   int reuse_first_slice, double* probs,
                                   double* concat) {
  try {
    if (!all_finite(tokens, WORKBENCH_ROWS)) {
      last_error = "every token coordinate must be a finite number";
      return 1;
    }
    llm::WorkbenchOptions options;
    options.causal = causal != 0;
    options.reuse_first_head = reuse_first_slice != 0;
    const llm::WorkbenchView view =
        llm::attention_workbench(token_rows(tokens), options);
    const std::vector<double> p = view.probs.to_vector();   // [h, T, T]
    const std::vector<double> c = view.concat.to_vector();  // [T, d_model]
    if (p.size() != WORKBENCH_PROBS || c.size() != WORKBENCH_ROWS) {
      last_error = "the layer returned tables of unexpected sizes";
      return 1;
    }
    if (!all_finite(p.data(), p.size()) || !all_finite(c.data(), c.size())) {
      last_error =
          "these tokens are too large: the scores overflow and the "
          "probabilities are not finite numbers";
      return 1;
    }
    std::memcpy(probs, p.data(), p.size() * sizeof(double));
    std::memcpy(concat, c.data(), c.size() * sizeof(double));
    last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
    return 1;
  }
}

extern "C" const char* wb_error(void) { return last_error.c_str(); }

extern "C" int wb_matches_layer(const double* tokens) {
  const llm::AttentionConfig config{kModel, WORKBENCH_HEADS, 100.0, 6};
  llm::Tensor eye({kModel, kModel});
  for (std::size_t i = 0; i < kModel; ++i) eye.set({i, i}, 1.0);
  llm::Tape tape;
  const llm::Var x = tape.leaf(token_rows(tokens).reshape({1, kTokens, kModel}));
  const llm::Var w = tape.leaf(eye);
  const llm::MultiHeadTrace layer =
      llm::multi_head_attention(x, w, w, w, w, config, 0);
  const llm::WorkbenchView view = llm::attention_workbench(token_rows(tokens));
  return same_bits(view.probs.to_vector(), layer.probs.value().to_vector()) &&
                 same_bits(view.concat.to_vector(),
                           layer.concat.value().to_vector())
             ? 0
             : 1;
}
