// The exercise tests of the corpus-splits chapter. They call the split
// functions of starter.cpp (once fixed). The expected hashes and buckets
// were computed independently, with Python's hashlib:
//   int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % 100
// SHA-256("abc") is the FIPS 180-2 example, whose digest starts
// ba7816bf 8f01cfea.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "exercise.hpp"

TEST_CASE("the hash is the digest's first 8 bytes, big-endian") {
  CHECK(exercise::split_hash("abc") == 0xba7816bf8f01cfeaULL);
  // SHA-256 of the empty string starts e3b0c442 98fc1c14.
  CHECK(exercise::split_hash("") == 0xe3b0c44298fc1c14ULL);
}

TEST_CASE("buckets 0-79 train, 80-89 validation, 90-99 test") {
  // Buckets by hashlib: doc172 79, doc76 80, doc51 89, doc6 90.
  INFO("doc172 is in bucket 79, the last train bucket");
  CHECK(exercise::split_of("doc172") == llm::Split::train);
  INFO("doc76 is in bucket 80, the first validation bucket");
  CHECK(exercise::split_of("doc76") == llm::Split::validation);
  INFO("doc51 is in bucket 89, the last validation bucket");
  CHECK(exercise::split_of("doc51") == llm::Split::validation);
  INFO("doc6 is in bucket 90, the first test bucket");
  CHECK(exercise::split_of("doc6") == llm::Split::test);
}

TEST_CASE("a document's split depends on its name, not its text") {
  // An edited document must stay where it was, or text once used for
  // training could move into the test split.
  const std::vector<llm::Document> before = {{"doc6", "In the beginning"},
                                             {"doc76", "And the earth"}};
  const std::vector<llm::Document> after = {{"doc6", "In the beginning."},
                                            {"doc76", "And the earth was"}};
  const llm::CorpusSplits a = exercise::split_documents(before);
  const llm::CorpusSplits b = exercise::split_documents(after);
  REQUIRE(a.test.size() == 1);
  CHECK(a.test[0].name == "doc6");
  REQUIRE(b.test.size() == 1);
  CHECK(b.test[0].name == "doc6");
  REQUIRE(b.validation.size() == 1);
  CHECK(b.validation[0].name == "doc76");
}

TEST_CASE("the same splits as the book's split_documents on 500 names") {
  std::vector<llm::Document> docs;
  for (int i = 0; i < 500; ++i) {
    docs.push_back({"chapter " + std::to_string(i), "text " + std::to_string(i * 7)});
  }
  const llm::CorpusSplits want = llm::split_documents(docs);
  const llm::CorpusSplits got = exercise::split_documents(docs);
  auto names = [](const std::vector<llm::Document>& v) {
    std::vector<std::string> n;
    for (const auto& d : v) n.push_back(d.name);
    return n;
  };
  CHECK(names(got.train) == names(want.train));
  CHECK(names(got.validation) == names(want.validation));
  CHECK(names(got.test) == names(want.test));
}
