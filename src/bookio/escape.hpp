#pragma once
// How text is escaped for HTML and XML, defined once: the book's pages
// (litbook's HTML writer) and its SVG figures (bookio's diagrams and
// plots) both write it through book::escape_markup. Header-only, as
// fixed.hpp is, so that the tool can use it without linking the demos'
// library.

#include <string>
#include <string_view>

namespace book {

/// Escapes &, <, > and " for HTML or XML text and double-quoted attribute
/// values; every other byte, UTF-8 included, is copied as it is.
///
/// ' stays as it is. Everything the book writes quotes its attribute
/// values with ", so a ' can end nothing, in HTML or in XML; and Pandoc's
/// html5 writer, which the tool tests hold the HTML writer to
/// (tests/tool/test_commonmark.cpp), leaves it as well, so a chapter's
/// apostrophes read the same in the page source as in the Markdown. "
/// is escaped in text too, not only in attributes: site.cpp and
/// search.cpp find id="...", href="..." and src="..." in a page by
/// string search (tests/tool/commonmark-known-differences.txt).
inline std::string escape_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace book
