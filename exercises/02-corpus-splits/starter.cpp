// Exercise of the corpus-splits chapter: the split of a document from
// its name, which compiles, runs, and is wrong in three places. Fix it
// until the exercise tests pass:
//
//   cmake --build build --target run_exercise_02
#include "exercise.hpp"

#include "llm/sha256.hpp"

namespace exercise {

std::uint64_t split_hash(std::string_view name) {
  const llm::Sha256Digest digest = llm::sha256(name);
  std::uint64_t h = 0;
  for (int j = 0; j < 8; ++j) h = h << 8 | digest[7 - j];
  return h;
}

llm::Split split_of(std::string_view name) {
  const std::uint64_t bucket = split_hash(name) % llm::split_buckets;
  if (bucket <= llm::train_buckets) return llm::Split::train;
  if (bucket < llm::train_buckets + llm::validation_buckets) {
    return llm::Split::validation;
  }
  return llm::Split::test;
}

llm::CorpusSplits split_documents(const std::vector<llm::Document>& documents) {
  llm::CorpusSplits splits;
  for (const llm::Document& d : documents) {
    switch (split_of(d.text)) {
      case llm::Split::train: splits.train.push_back(d); break;
      case llm::Split::validation: splits.validation.push_back(d); break;
      case llm::Split::test: splits.test.push_back(d); break;
    }
  }
  return splits;
}

}  // namespace exercise
