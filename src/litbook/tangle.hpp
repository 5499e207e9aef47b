// Tangle: chapters to the C++ files under snippets/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "chapter.hpp"

namespace litbook {

/// The regions of one chapter, as `litbook parse` stores them.
struct ChapterCode {
  std::string stem;
  std::string id;
  std::string display;  ///< chapters/NN-slug.md
  std::vector<Region> regions;
};

ChapterCode code_from_json(const Json& j, const std::string& display);
ChapterCode code_of(const Chapter& ch);

/// Where a region's current text came from.
struct RegionInfo {
  std::string name;
  std::string file;          ///< the file it ends up in
  std::string chapter;       ///< stem of the defining chapter
  std::string revised_in;    ///< stem of the last revising chapter, if any
  std::string previous_code; ///< the text before the last revision
  std::string code;
  int line = 0;
};

/// Everything tangling produces: file path (relative to snippets/) to bytes.
struct TangleResult {
  std::map<std::string, std::string> files;
  std::map<std::string, RegionInfo> regions;
  /// Per chapter stem: region name -> {"file", "origin", "previous",
  /// "lines"}, what the rendered listing says about the region. "lines" are
  /// the [first, last] line ranges the region wrote in the generated file.
  std::map<std::string, Json> listings;
};

/// Tangles the given chapters in order. Throws Failure with every problem.
TangleResult tangle(const std::vector<ChapterCode>& chapters);

/// The generated-file header and checksum.
std::string with_header(const std::string& body,
                        const std::vector<std::string>& chapters);
/// For a generated file: true when its body still matches its checksum.
/// std::nullopt when the file has no litbook header.
std::optional<bool> checksum_intact(const std::string& bytes);

struct WriteReport {
  std::vector<std::string> written;
  std::vector<std::string> removed;
  bool manifest_changed = false;
};

/// Writes the result under `dir`, refusing (before writing anything) when a
/// generated file there was edited by hand, unless `force`.
WriteReport write_tangle(const TangleResult& result, const fs::path& dir,
                         bool force);

/// Compares the result with `dir` without writing; returns the problems.
std::vector<Diagnostic> check_tangle(const TangleResult& result,
                                     const fs::path& dir);

}  // namespace litbook
