// The workbench of chapter 32 (see sampling.hpp): the next-token
// distribution of the book's trained model after a prompt, reshaped by
// temperature, top-k and top-p, and one seeded draw from it.
//
// The model is chapter 34's checkpoint, the one the generating workbench
// loads, from the same script in the page (it holds chapter 29's trained
// parameters and the tokenizer chapter 32's demo trains). So this file
// includes llm/checkpoint.hpp and llm/generation.hpp, which it needs:
// cmake/Workbench.cmake builds a workbench only when the book has every
// header its entry point includes, so this one is built only in a book
// that has chapter 34, and with it the checkpoint and
// generate-checkpoint.js.
#include "sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../entry.hpp"
#include "../model.hpp"
#include "llm/checkpoint.hpp"
#include "llm/generation.hpp"
#include "llm/kv_cache.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"

namespace {

using workbench::require;

std::optional<llm::Checkpoint> model;

struct State {
  bool read = false;
  std::string text;                 // what the ids stand for
  bool bos = false;                 // read after the BOS token
  std::vector<llm::TokenId> ids;    // (BOS and) the prompt's ids, cut
  bool cut = false;
  std::vector<double> logits, raw;  // [V]
  std::vector<int> order, rank_of;  // raw ranking and its inverse
  double raw_entropy = 0.0;
  bool sampled = false;
  llm::SamplingOptions options;
  std::uint64_t seed = 0;
  std::vector<double> dist;         // [V]
  llm::TokenId drawn = 0;
  int kept = 0;
  double kept_mass = 0.0, entropy = 0.0;
};
State state;
std::string scratch;

double entropy(const std::vector<double>& q) {  // as the chapter's demo
  double h = 0.0;
  for (double x : q) h -= x > 0.0 ? x * std::log(x) : 0.0;
  return h;
}

// Runs the model over `ids` (already cut) into `s`.
void run_model(State& s) {
  s.logits = llm::next_token_logits(model->params, model->config, s.ids);
  s.raw = llm::sampling_distribution(s.logits, {});
  const std::size_t V = s.raw.size();
  s.order.resize(V);
  std::iota(s.order.begin(), s.order.end(), 0);
  const std::vector<double>& p = s.raw;
  std::sort(s.order.begin(), s.order.end(), [&](int a, int b) {
    return p[a] > p[b] || (p[a] == p[b] && a < b);  // the library's rule
  });
  s.rank_of.assign(V, 0);
  for (std::size_t r = 0; r < V; ++r) s.rank_of[s.order[r]] = static_cast<int>(r);
  s.raw_entropy = entropy(s.raw);
  s.read = true;
  s.sampled = false;
}

// Keeps the last context - 1 ids after BOS, as tinyllm generate does
// (BOS is cut with the rest), and the last context ids without, as
// chapter 32's generate does.
bool cut_to_context(std::vector<llm::TokenId>& ids, bool bos) {
  const std::size_t limit = model->config.context - (bos ? 1 : 0);
  if (ids.size() <= limit) return false;
  ids.erase(ids.begin(), ids.end() - static_cast<std::ptrdiff_t>(limit));
  return true;
}

bool whole_utf8(const std::string& b, std::size_t i, std::size_t& length) {
  const auto c = static_cast<unsigned char>(b[i]);
  length = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (c >= 0xf5 || length == 0 || i + length > b.size()) return false;
  for (std::size_t j = 1; j < length; ++j) {
    if ((static_cast<unsigned char>(b[i + j]) & 0xc0) != 0x80) return false;
  }
  return true;
}

bool valid_id(int id) {
  return model && id >= 0 &&
         static_cast<std::size_t>(id) < model->tokenizer.vocab_size();
}

}  // namespace

extern "C" int wb_load(const unsigned char* bytes, int n) {
  return workbench::answer([&] {
    model = workbench::checkpoint(bytes, n);
    state = State{};
  });
}

extern "C" int wb_read(const char* prompt, int bos) {
  return workbench::answer([&] {
    require(model.has_value(), "no model is loaded");
    const std::string text = prompt;
    if (state.read && text == state.text && (bos != 0) == state.bos) {
      return;  // the same ids: the logits are those already computed
    }
    State next;
    next.text = text;
    next.bos = bos != 0;
    if (next.bos) next.ids = {model->tokenizer.bos()};
    for (llm::TokenId id : model->tokenizer.encode(text)) next.ids.push_back(id);
    require(!next.ids.empty(),
            "an empty prompt gives the model nothing to read without the "
            "BOS token");
    next.cut = cut_to_context(next.ids, next.bos);
    run_model(next);
    state = std::move(next);
  });
}

extern "C" int wb_sample(double temperature, int top_k, double top_p, int seed) {
  return workbench::answer([&] {
    require(state.read, "no prompt has been read");
    const llm::SamplingOptions options =
        workbench::sampling_options(temperature, top_k, top_p);
    const std::uint64_t seed_bits = workbench::sampling_seed(seed);
    std::vector<double> q = llm::sampling_distribution(state.logits, options);
    llm::Rng rng(seed_bits);
    const llm::TokenId drawn = llm::sample_token(state.logits, options, rng);
    int kept = 0;
    double mass = 0.0;
    for (int r = 0; r < static_cast<int>(q.size()); ++r) {  // in rank order
      const int v = state.order[r];
      if (q[v] > 0.0) {
        ++kept;
        mass += state.raw[v];
      }
    }
    state.options = options;
    state.seed = seed_bits;
    state.entropy = entropy(q);
    state.dist = std::move(q);
    state.drawn = drawn;
    state.kept = kept;
    state.kept_mass = mass;
    state.sampled = true;
  });
}

extern "C" int wb_vocab(void) {
  return model ? static_cast<int>(model->tokenizer.vocab_size()) : 0;
}

extern "C" int wb_read_ids(void) { return static_cast<int>(state.ids.size()); }

extern "C" int wb_was_cut(void) { return state.cut ? 1 : 0; }

extern "C" const double* wb_raw(void) { return state.raw.data(); }

extern "C" const double* wb_dist(void) { return state.dist.data(); }

extern "C" int wb_ranked(int rank) {
  if (rank < 0 || rank >= static_cast<int>(state.order.size())) return -1;
  return state.order[rank];
}

extern "C" int wb_rank_of(int id) {
  if (id < 0 || id >= static_cast<int>(state.rank_of.size())) return -1;
  return state.rank_of[id];
}

extern "C" int wb_drawn(void) { return static_cast<int>(state.drawn); }

extern "C" int wb_kept(void) { return state.kept; }

extern "C" double wb_kept_mass(void) { return state.kept_mass; }

extern "C" double wb_entropy(void) { return state.entropy; }

extern "C" double wb_raw_entropy(void) { return state.raw_entropy; }

extern "C" const char* wb_token(int id) {
  scratch.clear();
  if (!valid_id(id)) return scratch.c_str();
  const llm::Tokenizer& tok = model->tokenizer;
  const auto t = static_cast<llm::TokenId>(id);
  if (t == tok.bos()) return (scratch = "<BOS>").c_str();
  if (t == tok.eos()) return (scratch = "<EOS>").c_str();
  const std::string b = tok.token_bytes(t);
  static const char hex[] = "0123456789ABCDEF";
  for (std::size_t i = 0; i < b.size();) {
    const auto c = static_cast<unsigned char>(b[i]);
    std::size_t length = 0;
    if (c == ' ') {
      scratch += "\u2423";
    } else if (c == '\n') {
      scratch += "\u21b5";
    } else if (c == '\t') {
      scratch += "\u2192";
    } else if (c >= 0x20 && c < 0x7f) {
      scratch += static_cast<char>(c);
    } else if (c >= 0x80 && whole_utf8(b, i, length)) {
      scratch += b.substr(i, length);
      i += length;
      continue;
    } else {
      scratch += '<';
      scratch += hex[c >> 4];
      scratch += hex[c & 15];
      scratch += '>';
    }
    ++i;
  }
  return scratch.c_str();
}

extern "C" const char* wb_token_hex(int id) {
  scratch.clear();
  if (!valid_id(id)) return scratch.c_str();
  static const char hex[] = "0123456789abcdef";
  for (const char ch : model->tokenizer.token_bytes(static_cast<llm::TokenId>(id))) {
    const auto c = static_cast<unsigned char>(ch);
    scratch += hex[c >> 4];
    scratch += hex[c & 15];
  }
  return scratch.c_str();
}

extern "C" int wb_append(void) {
  return workbench::answer([&] {
    require(state.sampled, "no token has been drawn");
    const llm::Tokenizer& tok = model->tokenizer;
    require(state.drawn != tok.eos() && state.drawn != tok.bos(),
            "the draw is the end-of-text token, which adds no text");
    State next;
    next.text = state.text + tok.token_bytes(state.drawn);
    next.bos = state.bos;
    next.ids = state.ids;
    next.ids.push_back(state.drawn);
    next.cut = cut_to_context(next.ids, next.bos) || state.cut;
    run_model(next);
    state = std::move(next);
  });
}

extern "C" const char* wb_text(void) { return state.text.c_str(); }

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_library(void) {
  return workbench::verdict([] {
    if (!state.sampled) return false;
    const std::vector<double> z =
        llm::next_token_logits(model->params, model->config, state.ids);
    if (llm::sampling_distribution(z, {}) != state.raw) return false;
    if (llm::sampling_distribution(z, state.options) != state.dist) {
      return false;
    }
    // The key/value cache's logits for the same ids, and the draw from
    // them (a full context of ids fits the cache).
    llm::KvCache cache(model->config);
    std::vector<double> cached;
    for (llm::TokenId id : state.ids) {
      cached = llm::decode_step(model->params, model->config, cache, id).to_vector();
    }
    llm::Rng again(state.seed);
    if (llm::sample_token(cached, state.options, again) != state.drawn) {
      return false;
    }
    // generate_cached needs room for one more id than it was given.
    if (state.ids.size() >= model->config.context) return true;
    llm::Rng rng(state.seed);
    const std::vector<llm::TokenId> ids =
        llm::generate_cached(model->params, model->config, state.ids, 1,
                             state.options, rng, model->tokenizer.eos());
    const llm::TokenId first =
        ids.size() > state.ids.size() ? ids.back() : model->tokenizer.eos();
    return first == state.drawn;
  });
}
