// The workbench of chapter 25 (see attention.hpp): the chapter's own
// llm::attention_workbench, called through a C interface so that the
// page's WebAssembly module and the native comparison program run the
// same code.
#include "attention.hpp"

#include <cstddef>
#include <vector>

#include "../entry.hpp"
#include "llm/autograd.hpp"
#include "llm/multi_head_attention.hpp"
#include "llm/tensor.hpp"

namespace {

using workbench::all_finite;
using workbench::require;

constexpr std::size_t kTokens = WORKBENCH_TOKENS;
constexpr std::size_t kModel = WORKBENCH_MODEL;

llm::Tensor token_rows(const double* tokens) {  // [T, d_model]
  return llm::Tensor({kTokens, kModel},
                     std::vector<double>(tokens, tokens + WORKBENCH_ROWS));
}

}  // namespace

extern "C" int wb_attention(const double* tokens, int causal,
                            int reuse_first_slice, double* probs,
                            double* concat) {
  return workbench::answer([&] {
    require(all_finite(tokens, WORKBENCH_ROWS),
            "every token coordinate must be a finite number");
    llm::WorkbenchOptions options;
    options.causal = causal != 0;
    options.reuse_first_head = reuse_first_slice != 0;
    const llm::WorkbenchView view =
        llm::attention_workbench(token_rows(tokens), options);
    const std::vector<double> p = view.probs.to_vector();   // [h, T, T]
    const std::vector<double> c = view.concat.to_vector();  // [T, d_model]
    require(p.size() == WORKBENCH_PROBS && c.size() == WORKBENCH_ROWS,
            "the layer returned tables of unexpected sizes");
    require(all_finite(p) && all_finite(c),
            "these tokens are too large: the scores overflow and the "
            "probabilities are not finite numbers");
    workbench::copy_out(p, probs);
    workbench::copy_out(c, concat);
  });
}

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_layer(const double* tokens) {
  return workbench::verdict([&] {
    const llm::AttentionConfig config{kModel, WORKBENCH_HEADS, 100.0, 6};
    llm::Tensor eye({kModel, kModel});
    for (std::size_t i = 0; i < kModel; ++i) eye.set({i, i}, 1.0);
    llm::Tape tape;
    const llm::Var x =
        tape.leaf(token_rows(tokens).reshape({1, kTokens, kModel}));
    const llm::Var w = tape.leaf(eye);
    const llm::MultiHeadTrace layer =
        llm::multi_head_attention(x, w, w, w, w, config, 0);
    const llm::WorkbenchView view =
        llm::attention_workbench(token_rows(tokens));
    return workbench::same_bits(view.probs.to_vector(),
                                layer.probs.value().to_vector()) &&
           workbench::same_bits(view.concat.to_vector(),
                                layer.concat.value().to_vector());
  });
}
