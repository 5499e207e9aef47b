// The book: parts and chapter order from book/book.yaml, checked against
// the files in chapters/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "chapter.hpp"

namespace litbook {

struct Part {
  int number = 0;
  std::string title;
  std::vector<std::string> stems;  ///< NN-slug, in reading order
};

/// A workbench of book.yaml's `workbenches:`: the book's own C++ compiled
/// to WebAssembly (book/workbench/NAME/), placed by a chapter's
/// `::: {.workbench name=NAME}` div.
struct Workbench {
  std::string name;
  /// What it reports as the reader works: the names an experiment step
  /// may wait for (`[...]{when=EVENT}`).
  std::vector<std::string> events;
};

struct Book {
  fs::path root;                   ///< the project root
  std::string title;
  std::vector<Part> parts;
  std::vector<std::string> order;  ///< every chapter stem in reading order
  /// What book.yaml's `require:` asks of every chapter: "checkpoints"
  /// (the four learner checkpoints) and "chapter-end" (self-check
  /// questions and failure modes).
  std::vector<std::string> require;
  std::vector<Workbench> workbenches;

  fs::path chapter_path(const std::string& stem) const {
    return root / "chapters" / (stem + ".md");
  }
  /// Index of a chapter given by stem or id (as "NN-slug" or "slug").
  std::optional<std::size_t> find(std::string_view stem_or_id) const;
  /// The workbench of that name, or nullptr.
  const Workbench* workbench(std::string_view name) const;
  /// The part a chapter belongs to.
  const Part* part_of(const std::string& stem) const;
};

/// Reads book/book.yaml under root and checks it against chapters/.
Book load_book(const fs::path& root);

}  // namespace litbook

namespace litbook {

/// What every page needs to know about the whole book: titles, order,
/// parts and the anchors each chapter defines (for links).
struct IndexEntry {
  std::string stem, id, title;
  int part = 0;
  std::vector<std::string> anchors;
  Json headings;
  /// Anchor -> number of each figure, table and exercise ("Figure 29.1").
  std::map<std::string, std::string> labels;
};

struct BookIndex {
  std::string title;
  std::vector<Part> parts;
  std::vector<IndexEntry> chapters;  ///< reading order
  const IndexEntry* by_id(std::string_view id) const;
  const IndexEntry* by_stem(std::string_view stem) const;
};

/// Combines book.yaml with every chapter's index entry (index_to_json).
Json make_book_index(const Book& book, const std::vector<Json>& chapters);
BookIndex book_index_from_json(const Json& j);

}  // namespace litbook
