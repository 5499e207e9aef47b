// Times the book's BPE on the whole corpus: training llm::book_merge_count
// merges on the training split, then encoding every document of the
// corpus with the trained tokenizer (and decoding it, to check the round
// trip). Prints seconds, best of several repetitions. Not part of the
// tests: timings vary by machine. Peak memory is measured from outside
// (tools/bench-bpe.sh runs the training alone under /usr/bin/time -v).
//
// usage: bench_bpe CORPUS train|encode [REPETITIONS]
// (tools/bench-bpe.sh builds and runs it)
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "llm/bpe.hpp"
#include "llm/corpus.hpp"
#include "llm/tokenizer.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::string(argv[2]) != "train" &&
                   std::string(argv[2]) != "encode")) {
    std::fprintf(stderr, "usage: bench_bpe CORPUS train|encode [REPS]\n");
    return 2;
  }
  const std::string mode = argv[2];
  const int reps = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  const std::vector<llm::Document> docs = llm::read_documents(argv[1]);
  std::vector<std::string> texts;
  std::size_t train_bytes = 0;
  for (const llm::Document& d : llm::split_documents(docs).train) {
    texts.push_back(d.text);
    train_bytes += d.text.size();
  }
  double best = 1e300;
  llm::BpeMerges merges;
  for (int r = 0; r < (mode == "train" ? reps : 1); ++r) {
    const auto start = std::chrono::steady_clock::now();
    merges = llm::train_bpe(texts, llm::book_merge_count);
    best = std::min(best, seconds_since(start));
  }
  std::printf("train: %zu documents, %zu bytes, %zu merges: %.3f s\n",
              texts.size(), train_bytes, merges.merges.size(), best);
  if (mode == "train") return 0;

  const llm::Tokenizer tok(merges);
  std::size_t bytes = 0, tokens = 0, equal = 0;
  best = 1e300;
  for (int r = 0; r < reps; ++r) {
    bytes = tokens = equal = 0;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::vector<llm::TokenId>> ids;
    for (const llm::Document& d : docs) {
      ids.push_back(tok.encode_document(d.text));
    }
    best = std::min(best, seconds_since(start));
    for (std::size_t i = 0; i < docs.size(); ++i) {
      bytes += docs[i].text.size();
      tokens += ids[i].size();
      equal += tok.decode(ids[i]) == docs[i].text;
    }
  }
  std::printf("encode: %zu documents, %zu bytes, %zu tokens: %.3f s\n",
              docs.size(), bytes, tokens, best);
  std::printf("round trip: %zu of %zu documents equal\n", equal,
              docs.size());
  return equal == docs.size() ? 0 : 1;
}
