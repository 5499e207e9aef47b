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
  DemoSettings demo;
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
  std::string code_from;     ///< chapter (as displayed) whose block holds `code`
  int code_line = 0;         ///< that block's opening fence line
};

/// Everything tangling produces: file path (relative to snippets/) to bytes.
struct TangleResult {
  std::map<std::string, std::string> files;
  std::map<std::string, RegionInfo> regions;
  /// Per chapter stem: region name -> {"file", "origin", "previous",
  /// "lines"}, what the rendered listing says about the region. "lines" are
  /// the [first, last] line ranges the region wrote in the generated file.
  std::map<std::string, Json> listings;
  /// Per generated file: file line -> the chapter line it was tangled from
  /// (region lines only; headers, region comments and blanks have none).
  std::map<std::string, std::map<int, Location>> origins;
};

/// The origins as JSON for the compiler-diagnostic mapper: per file, runs
/// [first file line, chapter, first chapter line, count] of lines that
/// follow each other in both.
Json origins_to_json(const TangleResult& result);

/// Where a line of a generated file came from, given origins_to_json's
/// output; std::nullopt for a line no chapter wrote.
std::optional<Location> origin_of(const Json& origins, const std::string& file,
                                  int line);

/// Tangles the given chapters in order. Throws Failure with every problem.
/// With `without_revisions_of` (a chapter stem), that chapter's revisions
/// are left out, and so are its fills of placeholders that only those
/// revisions wrote: the code of the earlier chapters as they wrote it,
/// with whatever else that chapter adds (the fast-kernels chapter's
/// simple reference). A kept region may use what only a left-out
/// revision provides (an #include, a member); it then compiles only
/// while nothing uses it, and the build that uses it says so.
TangleResult tangle(const std::vector<ChapterCode>& chapters,
                    const std::string& without_revisions_of = "");

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
