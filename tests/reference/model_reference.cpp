// Writes the book model's initial state as a checkpoint (chapter 31's
// format) to the path it is given, which tests/reference/model_torch.py
// loads, and prints what that script checks against PyTorch: the book's
// model configuration (chapter 29's book_model_config, with a smaller
// vocabulary and context so that the test stays quick) and its seeded
// initial parameters, the logits of a fixed input, then 24 training
// steps of chapter 29's train_step (AdamW, warm-up + cosine, clipping by
// global norm) on batches drawn from fixed documents, each step's batch,
// learning rate, gradient norm before clipping and loss. Every double is
// printed as a C99 hexadecimal float (%a): exact bits.
#include <cstdio>
#include <string>
#include <vector>

#include "llm/bpe.hpp"
#include "llm/checkpoint.hpp"
#include "llm/decoder_model.hpp"
#include "llm/random.hpp"
#include "llm/tokenizer.hpp"
#include "llm/training.hpp"

namespace {

void print_doubles(const std::vector<double>& v) {
  for (double x : v) std::printf(" %a", x);
}

void print_ids(const std::vector<std::size_t>& ids) {
  for (std::size_t id : ids) std::printf(" %zu", id);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: model_reference CHECKPOINT_OUT\n");
    return 2;
  }
  // A checkpoint's vocabulary is its tokenizer's: 256 bytes, 5 merges and
  // BOS and EOS make 263, a prime, so no id pattern lines up with the heads.
  llm::Tokenizer tokenizer(llm::train_bpe({"abab abab cdcd cdcd efg efg"}, 5));
  llm::ModelConfig config = llm::book_model_config();
  config.vocab = tokenizer.vocab_size();
  config.context = 16;
  std::printf("config %zu %zu %zu %zu %zu %zu %a %a\n", config.vocab,
              config.d_model, config.layers, config.heads, config.ffn_width,
              config.context, config.rope_base, config.eps);
  llm::Parameters params(2029);
  llm::add_model_parameters(params, config);
  for (const auto& p : params.list()) {
    std::printf("param %s %zu", p.name.c_str(), p.value.shape().size());
    for (std::size_t s : p.value.shape()) std::printf(" %zu", s);
    print_doubles(p.value.to_vector());
    std::printf("\n");
  }

  // Logits of a fixed input: 2 sequences of the whole context.
  llm::Rng draw(7);
  llm::TokenGrid input{2, config.context, {}};
  for (std::size_t i = 0; i < 2 * config.context; ++i) {
    input.ids.push_back(draw.next_u64() % config.vocab);
  }
  {
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, params);
    const llm::ModelTrace trace = llm::model_forward(
        llm::model_weights(leaves, config), config, input);
    std::printf("input %zu %zu", input.batch, input.length);
    print_ids(input.ids);
    std::printf("\nlogits");
    print_doubles(trace.logits.value().to_vector());
    std::printf("\n");
  }

  // Training: documents of random ids of lengths 20 to 60.
  std::vector<std::vector<llm::TokenId>> docs;
  for (int d = 0; d < 12; ++d) {
    std::vector<llm::TokenId> doc(20 + draw.next_u64() % 41);
    for (auto& id : doc) id = llm::TokenId(draw.next_u64() % config.vocab);
    docs.push_back(doc);
  }
  const std::size_t steps = 24;
  const llm::Schedule schedule{.lr_max = 6e-3, .lr_min = 6e-4, .warmup = 5,
                               .steps = steps};
  const double clip = 2.3;  // about half of the steps are clipped
  llm::AdamWOptions options;
  options.lr = schedule.lr_max;
  options.beta2 = 0.99;
  options.weight_decay = 0.1;
  llm::AdamW opt(params, options);
  llm::save_checkpoint(argv[1], {config, tokenizer, params, opt.state(),
                                 0, 11});
  std::printf("train %zu %zu %a %a %a %a %a %a %a\n", steps, schedule.warmup,
              schedule.lr_max, schedule.lr_min, clip, options.beta1,
              options.beta2, options.eps, options.weight_decay);
  llm::Rng data(11);
  for (std::size_t step = 0; step < steps; ++step) {
    const llm::Batch batch = llm::sample_batch(docs, 4, 12, data);
    std::printf("batch %zu %zu %zu", step, batch.inputs.batch,
                batch.inputs.length);
    print_ids(batch.inputs.ids);
    print_ids(batch.targets.ids);
    const llm::StepResult r = llm::train_step(
        params, opt, config, batch, llm::learning_rate(schedule, step), clip);
    std::printf("\nstep %zu %a %a %a\n", step, r.lr, r.grad_norm, r.loss);
  }
  return 0;
}
