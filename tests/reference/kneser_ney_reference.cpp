// Prints what tests/reference/kneser_ney.py needs to recompute the book's
// Kneser-Ney scores on its own: V, the ids of the training and test
// documents of the book's corpus, the test split's bytes, and for orders
// 2 to 5 the library's test loss (sum of -ln p, as a C99 hex float) and
// the discounts it estimated. Usage: kneser_ney_reference CORPUS_FILE
#include <cstdio>
#include <vector>

#include "llm/bigram.hpp"
#include "llm/examples.hpp"
#include "llm/kneser_ney.hpp"

namespace {

void print_documents(const char* tag,
                     const std::vector<std::vector<llm::TokenId>>& docs) {
  std::printf("%s %zu\n", tag, docs.size());
  for (const auto& d : docs) {
    std::printf("%zu", d.size());
    for (llm::TokenId id : d) std::printf(" %u", unsigned(id));
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kneser_ney_reference CORPUS_FILE\n");
    return 2;
  }
  const llm::BookCorpus corpus = llm::load_book_corpus(argv[1]);
  const std::size_t v = corpus.tokenizer.vocab_size();
  const std::uint64_t bytes = llm::text_bytes(corpus.split.test);
  std::printf("vocab %zu\nbytes %llu\n", v, (unsigned long long)bytes);
  for (int n = 2; n <= 5; ++n) {
    const llm::KneserNey model(corpus.train, v, n);
    const llm::SplitLoss l = llm::evaluate(model, corpus.test, bytes);
    std::printf("order %d %a %llu", n, l.nll,
                (unsigned long long)l.predictions);
    for (int k = 1; k <= n; ++k) std::printf(" %a", model.discount(k));
    std::printf("\n");
  }
  print_documents("train", corpus.train);
  print_documents("test", corpus.test);
}
