// The API reference as listings see it: every symbol Doxygen documents,
// with the line that declares it and the line that defines it, so that a
// listing can link the symbols its own lines introduce.
#pragma once

#include <string>
#include <vector>

#include "book.hpp"
#include "chapter.hpp"
#include "tangle.hpp"

namespace litbook {

/// One documented symbol. Files are relative to snippets/ ("llm/x.hpp").
struct ApiSymbol {
  std::string name;       ///< qualified, without the "llm::" prefix
  std::string href;       ///< page and anchor under the site: "api/....html#a..."
  std::string file;       ///< where it is declared
  int line = 0;
  std::string body_file;  ///< where its body is, if it has one
  int body_line = 0;
};

/// Reads Doxygen's XML output (GENERATE_XML) from `xml_dir`: classes,
/// structs and namespaces with their public and protected members. Throws
/// Failure naming the file for a directory without index.xml or a file
/// that is not Doxygen's compound XML.
std::vector<ApiSymbol> read_doxygen_xml(const fs::path& xml_dir);

Json to_json(const std::vector<ApiSymbol>& symbols);
std::vector<ApiSymbol> api_symbols_from_json(const Json& j);

/// The symbols declared or defined on the given lines of `file`, in line
/// order, each name once. `ranges` is [[first, last], ...].
std::vector<const ApiSymbol*> symbols_on_lines(
    const std::vector<ApiSymbol>& symbols, const std::string& file,
    const Json& ranges);

/// Where the book teaches a line of the library: the chapter page (with
/// the listing's anchor when the line is in a listing the page shows) and
/// a label such as "chapter 7, Tensor storage".
struct Taught {
  std::string href;   ///< "07-tensor-storage.html#region-NAME"
  std::string label;
};

/// The chapter that wrote line `line` of snippet `file`, from the
/// origins tangle records (snippet-lines.json); nullopt for a line no
/// chapter wrote.
std::optional<Taught> taught_at(const Json& origins,
                                const std::vector<ChapterCode>& chapters,
                                const BookIndex& index,
                                const std::string& file, int line);

/// Rewrites Doxygen's HTML in `api_dir` so that it leads back to the
/// book: a link to the book on every page, under each symbol the chapter
/// listing that declares it, and on the main page a table of the headers
/// with the chapter each starts in. Returns how many symbols got a link.
std::size_t link_api_to_book(const fs::path& api_dir,
                             const std::vector<ApiSymbol>& symbols,
                             const Json& origins,
                             const std::vector<ChapterCode>& chapters,
                             const BookIndex& index);

}  // namespace litbook
