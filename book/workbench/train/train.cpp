// The workbench of chapter training (see train.hpp): the chapter's own
// training step, run one step a call on a small model of the book's
// architecture, through a C interface so that the page's WebAssembly
// module and the native comparison program run the same code.
#include "train.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../entry.hpp"
#include "../model.hpp"
#include "llm/adamw.hpp"
#include "llm/decoder_model.hpp"
#include "llm/generation.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"
#include "llm/tokenizer.hpp"
#include "llm/training.hpp"

namespace {

using workbench::require;
using Docs = std::vector<std::vector<llm::TokenId>>;

// The model: the book's architecture at a size that learns visibly in a
// minute of a browser's time (the book's is d = 64, N = 2, T = 64).
llm::ModelConfig workbench_config(std::size_t vocab) {
  return {.vocab = vocab, .d_model = 32, .layers = 1, .heads = 2,
          .ffn_width = 88, .context = 32};
}

// The demo's AdamW options (its rate is replaced at every step).
const llm::AdamWOptions adamw{.lr = 1e-3, .beta1 = 0.9, .beta2 = 0.99,
                              .eps = 1e-8, .weight_decay = 0.1};
constexpr std::size_t validation_batches = 8;  // of 8 windows each
constexpr std::uint64_t validation_seed = 30;  // the demo's

struct Data {
  std::size_t vocab = 0;
  Docs train, validation;
  std::optional<llm::Tokenizer> tokenizer;  // the one the ids were made with
  std::size_t tokenizer_bytes = 0;
};
std::optional<Data> data;

// One run: the state of the demo's training loop between two steps.
// The last sample's text and how many tokens it drew.
std::string sample_text;
std::size_t sample_drawn = 0;

struct Run {
  llm::ModelConfig config{};
  llm::Parameters params{0};
  std::optional<llm::AdamW> opt;
  llm::Schedule schedule{};
  double clip = 1.0;
  std::size_t batch = 0, done = 0, clipped = 0;
  llm::Rng rng{0};
  std::vector<llm::Batch> validation;
  llm::StepResult last{NAN, NAN, NAN};
  bool active = false;
};
std::optional<Run> run;

// Reads little-endian numbers from the page's bytes.
struct Reader {
  const unsigned char* p;
  std::size_t n, at = 0;
  std::uint32_t u32() {
    require(at + 4 <= n, "the token data ends early");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{p[at + i]} << (8 * i);
    at += 4;
    return v;
  }
  llm::TokenId u16() {
    require(at + 2 <= n, "the token data ends early");
    const auto v = static_cast<llm::TokenId>(p[at] | (p[at + 1] << 8));
    at += 2;
    return v;
  }
  std::string_view bytes(std::uint32_t count) {
    require(at + count <= n, "the token data ends early");
    const std::string_view v(reinterpret_cast<const char*>(p + at), count);
    at += count;
    return v;
  }
  Docs docs(std::uint32_t count, std::size_t vocab) {
    Docs out(count);
    for (auto& d : out) {
      d.resize(u32());
      for (auto& id : d) {
        id = u16();
        require(id < vocab, "the token data holds an id beyond the vocabulary");
      }
    }
    return out;
  }
};

}  // namespace

extern "C" int wb_load_data(const unsigned char* bytes, int n) {
  return workbench::answer([&] {
    require(n > 0, "no token data");
    Reader r{bytes, static_cast<std::size_t>(n)};
    Data d;
    d.vocab = r.u32();
    require(d.vocab >= 2 && d.vocab <= 65536,
            "the token data's vocabulary is not from 2 to 65536");
    const std::uint32_t train_docs = r.u32(), validation_docs = r.u32();
    d.train = r.docs(train_docs, d.vocab);
    d.validation = r.docs(validation_docs, d.vocab);
    const std::uint32_t tokenizer_bytes = r.u32();
    d.tokenizer.emplace(llm::tokenizer_from_bytes(r.bytes(tokenizer_bytes),
                                                  "the token data's tokenizer"));
    d.tokenizer_bytes = tokenizer_bytes;
    require(d.tokenizer->vocab_size() == d.vocab,
            "the token data's tokenizer has another vocabulary than its ids");
    require(r.at == r.n, "the token data has bytes after its documents");
    data = std::move(d);
    run.reset();
  });
}

extern "C" int wb_start(double lr, int warmup, int batch, double clip,
                        int seed, int steps) {
  return workbench::answer([&] {
    require(data.has_value(), "no token data is loaded");
    require(lr > 0.0 && lr <= 1.0,
            "the learning rate must be a number above 0 and at most 1");
    require(steps >= 1 && steps <= 100000,
            "the run's length must be a whole number of steps from 1 to "
            "100000");
    require(warmup >= 0 && warmup <= steps,
            "the warm-up must be a whole number of steps from 0 to " +
                std::to_string(steps));
    require(batch >= 1 && batch <= 64,
            "the batch size must be a whole number from 1 to 64");
    require(clip > 0.0 && std::isfinite(clip),
            "the clipping threshold must be a number above 0");
    require(seed >= 0, "the seed must be a whole number from 0 to 2147483647");
    Run next;
    next.config = workbench_config(data->vocab);
    next.schedule = {.lr_max = lr, .lr_min = lr / 10,
                     .warmup = static_cast<std::size_t>(warmup),
                     .steps = static_cast<std::size_t>(steps)};
    llm::validate(next.schedule);
    next.clip = clip;
    next.batch = static_cast<std::size_t>(batch);
    // As the demo: parameters and batches from one seed, the validation
    // windows from a seed of their own.
    next.params = llm::Parameters(static_cast<std::uint64_t>(seed));
    llm::add_model_parameters(next.params, next.config);
    next.opt.emplace(next.params, adamw);
    next.rng = llm::Rng(static_cast<std::uint64_t>(seed));
    llm::Rng val_rng(validation_seed);
    for (std::size_t i = 0; i < validation_batches; ++i) {
      next.validation.push_back(llm::sample_batch(
          data->validation, 8, next.config.context, val_rng));
    }
    next.active = true;
    run = std::move(next);
  });
}

// One turn of the demo's loop.
extern "C" int wb_step(void) {
  try {
    if (!run || !run->active) return 0;
    if (run->done == run->schedule.steps) {
      run->active = false;
      return 0;
    }
    const llm::Batch b = llm::sample_batch(data->train, run->batch,
                                           run->config.context, run->rng);
    run->last = llm::train_step(run->params, *run->opt, run->config, b,
                                llm::learning_rate(run->schedule, run->done),
                                run->clip);
    run->clipped += run->last.grad_norm > run->clip;
    ++run->done;
    workbench::last_error.clear();
    return 1;
  } catch (const std::exception& e) {
    if (run) run->active = false;
    workbench::last_error = e.what();
    return -1;
  }
}

extern "C" double wb_loss(void) { return run ? run->last.loss : NAN; }
extern "C" double wb_grad_norm(void) {
  return run ? run->last.grad_norm : NAN;
}
extern "C" double wb_lr(void) { return run ? run->last.lr : NAN; }
extern "C" int wb_steps_done(void) {
  return run ? static_cast<int>(run->done) : 0;
}
extern "C" int wb_clipped(void) {
  return run ? static_cast<int>(run->clipped) : 0;
}

extern "C" double wb_schedule(int step) {
  if (!run || step < 0 ||
      static_cast<std::size_t>(step) >= run->schedule.steps) {
    return NAN;
  }
  return llm::learning_rate(run->schedule, static_cast<std::size_t>(step));
}

extern "C" double wb_validation(void) {
  double loss = NAN;
  workbench::answer([&] {
    require(run.has_value(), "no run is started");
    loss = llm::evaluate_loss(run->params, run->config, run->validation);
  });
  return loss;
}

extern "C" int wb_sample(const char* prompt, int tokens, int seed,
                         double temperature, int top_k, double top_p) {
  return workbench::answer([&] {
    require(run.has_value(), "no run is started");
    require(tokens >= 1 && tokens <= 1000,
            "the token count must be a whole number from 1 to 1000");
    const llm::SamplingOptions options =
        workbench::sampling_options(temperature, top_k, top_p);
    llm::Rng rng(workbench::sampling_seed(seed));
    const llm::Tokenizer& tok = *data->tokenizer;
    // As the generating workbench and tinyllm generate: BOS, the prompt,
    // cut to the last context - 1 ids.
    std::vector<llm::TokenId> context = {tok.bos()};
    for (const llm::TokenId id : tok.encode(prompt)) context.push_back(id);
    const std::size_t limit = run->config.context - 1;
    if (context.size() > limit) {
      context.erase(context.begin(), context.end() - limit);
    }
    const std::size_t given = context.size();
    const std::vector<llm::TokenId> ids = llm::generate_cached(
        run->params, run->config, std::move(context),
        static_cast<std::size_t>(tokens), options, rng, tok.eos());
    const std::vector<llm::TokenId> drawn(ids.begin() + given, ids.end());
    sample_text = std::string(prompt) + tok.decode(drawn);
    sample_drawn = drawn.size();
  });
}

extern "C" const char* wb_sample_text(void) { return sample_text.c_str(); }
extern "C" int wb_sample_drawn(void) { return static_cast<int>(sample_drawn); }
extern "C" int wb_tokenizer_bytes(void) {
  return data ? static_cast<int>(data->tokenizer_bytes) : 0;
}

extern "C" int wb_tokens_per_step(void) {
  return run ? static_cast<int>(run->batch * run->config.context) : 0;
}
extern "C" int wb_vocab(void) {
  return data ? static_cast<int>(data->vocab) : 0;
}
extern "C" int wb_context(void) {
  return static_cast<int>(workbench_config(2).context);
}
extern "C" int wb_parameter_count(void) {
  return data ? static_cast<int>(llm::model_parameter_count(
                    workbench_config(data->vocab)))
              : 0;
}

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" unsigned wb_fingerprint_low(void) {
  return run ? static_cast<unsigned>(run->params.fingerprint() & 0xffffffffu)
             : 0;
}
extern "C" unsigned wb_fingerprint_high(void) {
  return run ? static_cast<unsigned>(run->params.fingerprint() >> 32) : 0;
}
