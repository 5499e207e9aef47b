// Tests for chapter corpus-splits: the corpus file format (every way a
// file can be malformed, each with its message), the split's rule
// against an independent FNV-1a, its stability when a document is added,
// and word counts.
// The texts are short ones written for these tests.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "llm/corpus.hpp"
#include "llm/error.hpp"
#include "llm/sha256.hpp"

namespace {

using Catch::Matchers::Message;
using llm::Document;
using llm::Split;

// The split's hash restated: the first 16 hex digits of the digest.
std::uint64_t first_16_hex_digits(const std::string& name) {
  return std::stoull(llm::sha256_hex(name).substr(0, 16), nullptr, 16);
}

// The split rule restated from the chapter's formula.
Split expected_split(const std::string& name) {
  const std::uint64_t b = first_16_hex_digits(name) % 100;
  return b < 80 ? Split::train : b < 90 ? Split::validation : Split::test;
}

const std::string sep(1, llm::document_separator);

std::vector<Document> little_corpus(int n) {
  std::vector<Document> docs;
  for (int i = 0; i < n; ++i) {
    docs.push_back({"note " + std::to_string(i),
                    "a short note\nnumber " + std::to_string(i) + "\n"});
  }
  return docs;
}

}  // namespace

TEST_CASE("split_of follows the bucket rule", "[corpus-splits]") {
  // sha256sum prints ca978112ca1bbdca... for "a"; that number mod 100 is
  // 50 (Python's integers), so "a" goes to train.
  CHECK(llm::split_hash("a") == 0xca978112ca1bbdcaULL);
  CHECK(llm::split_hash("a") % 100 == 50);
  CHECK(llm::split_of("a") == Split::train);
  // "foobar": c3ab8ff13720e8ad..., mod 100 = 97, so test.
  CHECK(llm::split_hash("foobar") == 0xc3ab8ff13720e8adULL);
  CHECK(llm::split_of("foobar") == Split::test);
  int seen[3] = {0, 0, 0};
  for (int i = 0; i < 2000; ++i) {
    const std::string name = "doc " + std::to_string(i);
    const Split s = llm::split_of(name);
    REQUIRE(s == expected_split(name));
    seen[static_cast<int>(s)] += 1;
  }
  // A uniform hash gives 1600 / 200 / 200 on average; the standard
  // deviation of a count with p = 0.1 is about 13, so 60 is far out.
  CHECK(std::abs(seen[0] - 1600) < 60);
  CHECK(std::abs(seen[1] - 200) < 60);
  CHECK(std::abs(seen[2] - 200) < 60);
  CHECK(llm::split_name(Split::validation) == "validation");
}

TEST_CASE("split_documents partitions the documents in corpus order",
          "[corpus-splits]") {
  const std::vector<Document> docs = little_corpus(40);
  const llm::CorpusSplits s = llm::split_documents(docs);
  CHECK(s.train.size() + s.validation.size() + s.test.size() == docs.size());
  // Each split holds exactly the documents the rule sends there, in order.
  for (const auto& [split, part] :
       {std::pair{Split::train, &s.train},
        std::pair{Split::validation, &s.validation},
        std::pair{Split::test, &s.test}}) {
    std::vector<std::string> expected, actual;
    for (const Document& d : docs) {
      if (expected_split(d.name) == split) expected.push_back(d.name);
    }
    for (const Document& d : *part) actual.push_back(d.name);
    CHECK(actual == expected);
  }
  CHECK(!s.validation.empty());
  CHECK(!s.test.empty());
}

TEST_CASE("adding a document moves no other document",
          "[corpus-splits]") {
  std::vector<Document> docs = little_corpus(30);
  const llm::CorpusSplits before = llm::split_documents(docs);
  // The new document goes in the middle of the corpus.
  docs.insert(docs.begin() + 15, {"a new note", "written later\n"});
  const llm::CorpusSplits after = llm::split_documents(docs);
  const Split placed = llm::split_of("a new note");
  auto names = [](const std::vector<Document>& part) {
    std::vector<std::string> n;
    for (const Document& d : part) {
      if (d.name != "a new note") n.push_back(d.name);
    }
    return n;
  };
  CHECK(names(after.train) == names(before.train));
  CHECK(names(after.validation) == names(before.validation));
  CHECK(names(after.test) == names(before.test));
  const std::size_t grew = (after.train.size() - before.train.size()) * 1 +
                           (after.validation.size() - before.validation.size()) * 2 +
                           (after.test.size() - before.test.size()) * 3;
  CHECK(grew == static_cast<std::size_t>(placed) + 1);
}

TEST_CASE("count_words counts runs of non-space bytes",
          "[corpus-splits]") {
  CHECK(llm::count_words("") == 0);
  CHECK(llm::count_words("   \n") == 0);
  CHECK(llm::count_words("one") == 1);
  // "In", "the", "beginning," and "light:" and "dark." over two lines,
  // with a double space and a tab: 5 words.
  CHECK(llm::count_words("In the  beginning,\nlight:\tdark.\n") == 5);
  CHECK(llm::count_words(" a b\r\nc ") == 3);
}

TEST_CASE("parse_documents reads a well-formed corpus file",
          "[corpus-splits]") {
  const std::string file = sep + "first\none line\n" + sep +
                           "second one\ntwo\nlines\n";
  const std::vector<Document> docs = llm::parse_documents(file, "t.txt");
  REQUIRE(docs.size() == 2);
  CHECK(docs[0].name == "first");
  CHECK(docs[0].text == "one line\n");
  CHECK(docs[1].name == "second one");
  CHECK(docs[1].text == "two\nlines\n");
  CHECK(llm::format_documents(docs) == file);
  // UTF-8 text is fine.
  const std::string utf8 = sep + "caf\u00e9\nna\u00efve\n";
  CHECK(llm::parse_documents(utf8, "u.txt")[0].text == "na\u00efve\n");
}

TEST_CASE("a malformed corpus file is rejected, each mistake with its "
          "message", "[corpus-splits]") {
  CHECK_THROWS_MATCHES(
      llm::parse_documents("", "c.txt"), llm::FormatError,
      Message("parse_documents: c.txt: byte 0: the file is empty, expected "
              "at least one document"));
  CHECK_THROWS_MATCHES(
      llm::parse_documents("Ge 1\ntext\n", "c.txt"), llm::FormatError,
      Message("parse_documents: c.txt: byte 0: expected the document "
              "separator U+001E, found U+0047"));
  // A separator inside a line: byte 8, after the separator, "a\nsome ".
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a\nsome " + sep + "text\n", "c.txt"),
      llm::FormatError,
      Message("parse_documents: c.txt: byte 8: the document separator "
              "U+001E inside a line, expected it only at the start of a "
              "line"));
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "\ntext\n", "c.txt"), llm::FormatError,
      Message("parse_documents: c.txt: byte 0: a document with an empty "
              "name"));
  // The second document (at byte 8) has no text before the third.
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a\ntext\n" + sep + "b\n" + sep + "c\nx\n",
                           "c.txt"),
      llm::FormatError,
      Message("parse_documents: c.txt: byte 8: document 'b' is empty, "
              "expected at least one line"));
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a\ntext", "c.txt"), llm::FormatError,
      Message("parse_documents: c.txt: byte 7: document 'a' does not end "
              "with a newline"));
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a", "c.txt"), llm::FormatError,
      Message("parse_documents: c.txt: byte 0: the document header has no "
              "end of line"));
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a\nx\n" + sep + "a\ny\n", "c.txt"),
      llm::FormatError,
      Message("parse_documents: c.txt: byte 5: document 'a' repeats the "
              "name of the document at byte 0"));
  // Bytes that are not UTF-8: 0xFF at byte 3.
  CHECK_THROWS_MATCHES(
      llm::parse_documents(sep + "a\n\xff\n", "c.txt"), llm::EncodingError,
      Message("decode_utf8: byte 3: invalid lead byte 0xff"));
}

TEST_CASE("read_documents reads a file and reports one it cannot open",
          "[corpus-splits]") {
  namespace fs = std::filesystem;
  // A directory of its own (mkdtemp): snapshots run this test in
  // parallel processes.
  std::string dir_name =
      (fs::temp_directory_path() / "llm-test-corpus-XXXXXX").string();
  REQUIRE(mkdtemp(dir_name.data()) != nullptr);
  const fs::path dir = dir_name;
  const fs::path good = dir / "good.txt";
  {
    std::ofstream out(good, std::ios::binary);
    out << llm::format_documents(little_corpus(3));
  }
  const std::vector<Document> docs = llm::read_documents(good.string());
  REQUIRE(docs.size() == 3);
  CHECK(docs[2].name == "note 2");
  CHECK(docs[2].text == "a short note\nnumber 2\n");

  const fs::path missing = dir / "missing.txt";
  fs::remove(missing);
  CHECK_THROWS_MATCHES(
      llm::read_documents(missing.string()), llm::IoError,
      Message("read_documents: cannot open '" + missing.string() +
              "' for reading"));
  // A malformed file names its path.
  const fs::path bad = dir / "bad.txt";
  {
    std::ofstream out(bad, std::ios::binary);
    out << "no separator\n";
  }
  CHECK_THROWS_WITH(llm::read_documents(bad.string()),
                    Catch::Matchers::StartsWith("parse_documents: " +
                                                bad.string() + ": byte 0:"));
  fs::remove_all(dir);
}
