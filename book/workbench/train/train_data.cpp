// The data of the training workbench (train.hpp): the first documents of
// the corpus's training and validation splits, tokenized as chapter
// training's demo tokenizes them (llm::load_book_corpus), and that
// tokenizer (for the page's samples), written as the bytes wb_load_data
// reads. The tokenizer is chapter 34's too (its demo trains it the same
// way, on the same texts), so its bytes are those the generating
// workbench's checkpoint holds (tests/workbench/train.test.js checks). Run by the build (train.cmake), natively, once
// per corpus; tools/embed-bytes.js then makes the page's script of them.
//
// usage: workbench_train_data CORPUS OUT
// The format, every number little-endian:
//     u32 V, u32 D_train, u32 D_validation,
//     then for each document (training first): u32 n, n ids as u16,
//     then u32 B and the B bytes of llm::tokenizer_bytes.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "llm/examples.hpp"
#include "llm/tokenizer.hpp"

namespace {

using Docs = std::vector<std::vector<llm::TokenId>>;

// Token budgets: enough that a minute of training in the page does not
// repeat one window often, small enough for a page to load.
constexpr std::size_t train_tokens = 120000, validation_tokens = 12000;

// The documents of `docs` from the first, until `budget` ids are taken.
Docs first_documents(const Docs& docs, std::size_t budget) {
  Docs kept;
  std::size_t n = 0;
  for (const auto& d : docs) {
    if (n >= budget) break;
    kept.push_back(d);
    n += d.size();
  }
  return kept;
}

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

void put_docs(std::string& out, const Docs& docs) {
  for (const auto& d : docs) {
    put32(out, static_cast<std::uint32_t>(d.size()));
    for (const llm::TokenId id : d) {
      out += static_cast<char>(id & 0xff);
      out += static_cast<char>((id >> 8) & 0xff);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: workbench_train_data CORPUS OUT\n");
    return 2;
  }
  const llm::BookCorpus c = llm::load_book_corpus(argv[1]);
  if (c.tokenizer.vocab_size() > 65536) {
    std::fprintf(stderr, "workbench_train_data: %zu tokens do not fit u16\n",
                 c.tokenizer.vocab_size());
    return 1;
  }
  const Docs train = first_documents(c.train, train_tokens);
  const Docs validation = first_documents(c.validation, validation_tokens);
  std::string out;
  put32(out, static_cast<std::uint32_t>(c.tokenizer.vocab_size()));
  put32(out, static_cast<std::uint32_t>(train.size()));
  put32(out, static_cast<std::uint32_t>(validation.size()));
  put_docs(out, train);
  put_docs(out, validation);
  const std::string tokenizer = llm::tokenizer_bytes(c.tokenizer);
  put32(out, static_cast<std::uint32_t>(tokenizer.size()));
  out += tokenizer;
  const std::string tmp = std::string(argv[2]) + ".tmp";
  std::ofstream(tmp, std::ios::binary) << out;
  if (std::rename(tmp.c_str(), argv[2]) != 0) {
    std::fprintf(stderr, "workbench_train_data: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
