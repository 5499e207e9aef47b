// The API reference as listings see it: every symbol Doxygen documents,
// with the line that declares it and the line that defines it, so that a
// listing can link the symbols its own lines introduce.
#pragma once

#include <string>
#include <vector>

#include "chapter.hpp"

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

}  // namespace litbook
