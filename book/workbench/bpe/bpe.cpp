// The workbench of chapters 03-04 (see bpe.hpp): the trained tokenizer's
// merges applied to typed text, step by step, through a C interface so
// that the page's WebAssembly module and the native comparison program
// run the same code.
#include "bpe.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "../entry.hpp"
#include "../model.hpp"
#include "llm/bpe.hpp"
#include "llm/checkpoint.hpp"
#include "llm/generation.hpp"  // built with chapter 34, whose checkpoint it reads
#include "llm/tokenizer.hpp"

namespace {

using workbench::require;

std::string result, last_text;
std::vector<llm::TokenId> last_tokens;
std::optional<llm::Tokenizer> tokenizer;
std::map<std::pair<llm::TokenId, llm::TokenId>, llm::TokenId> merged;

std::string ids_json(const std::vector<llm::TokenId>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    out += (i ? "," : "") + std::to_string(ids[i]);
  }
  return out + "]";
}

std::string bytes_json(std::string_view bytes) {
  std::string out = "[";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out += (i ? "," : "") +
           std::to_string(static_cast<unsigned char>(bytes[i]));
  }
  return out + "]";
}

// One word, as encode_word takes it: its steps as JSON; its tokens in
// `tokens`, the ids it names in `seen`.
std::string word_json(std::string_view word, std::vector<llm::TokenId>& tokens,
                      std::set<llm::TokenId>& seen) {
  tokens.clear();
  for (unsigned char b : word) tokens.push_back(b);
  std::string steps;
  while (tokens.size() > 1) {
    llm::TokenId best = tokenizer->bos();  // above every merged id
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
      const auto it = merged.find({tokens[i], tokens[i + 1]});
      if (it != merged.end() && it->second < best) {
        best = it->second;
        at = i;
      }
    }
    if (best == tokenizer->bos()) break;
    const llm::TokenId left = tokens[at], right = tokens[at + 1];
    const std::size_t n = llm::merge_pair(tokens, left, right, best);
    seen.insert({left, right, best});
    steps += std::string(steps.empty() ? "" : ",") + "{\"id\":" +
             std::to_string(best) + ",\"left\":" + std::to_string(left) +
             ",\"right\":" + std::to_string(right) + ",\"replaced\":" +
             std::to_string(n) + ",\"after\":" + ids_json(tokens) + "}";
  }
  for (llm::TokenId t : tokens) seen.insert(t);
  return "{\"bytes\":" + bytes_json(word) + ",\"steps\":[" + steps + "]}";
}

}  // namespace

extern "C" int wb_load(const unsigned char* bytes, int n) {
  return workbench::answer([&] {
    tokenizer = workbench::checkpoint(bytes, n).tokenizer;
    merged.clear();
    const auto& merges = tokenizer->merges().merges;
    for (std::size_t i = 0; i < merges.size(); ++i) {
      merged[{merges[i].left, merges[i].right}] =
          static_cast<llm::TokenId>(llm::byte_token_count + i);
    }
  });
}

extern "C" int wb_encode(const char* text) {
  return workbench::answer([&] {
    require(tokenizer.has_value(), "no tokenizer is loaded");
    const std::string_view view(text);
    require(view.size() <= 4096,
            "the text has " + std::to_string(view.size()) +
                " bytes; the workbench takes at most 4096");
    tokenizer->encode(view);  // checks the UTF-8 as encode does
    std::vector<llm::TokenId> all, word_tokens;
    std::set<llm::TokenId> seen;
    std::string words;
    for (std::string_view word : llm::split_words(view)) {
      words += (words.empty() ? "" : ",") + word_json(word, word_tokens, seen);
      all.insert(all.end(), word_tokens.begin(), word_tokens.end());
    }
    std::string pieces;
    for (llm::TokenId id : seen) {
      pieces += std::string(pieces.empty() ? "" : ",") + "\"" +
                std::to_string(id) + "\":" +
                bytes_json(tokenizer->token_bytes(id));
    }
    result = "{\"bytes\":" + std::to_string(view.size()) + ",\"tokens\":" +
             ids_json(all) + ",\"words\":[" + words + "],\"pieces\":{" +
             pieces + "}}";
    last_text = view;
    last_tokens = all;
  });
}

extern "C" const char* wb_result(void) { return result.c_str(); }

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_library(void) {
  return workbench::verdict([] {
    return tokenizer && tokenizer->encode(last_text) == last_tokens;
  });
}
