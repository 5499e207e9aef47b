// The book's search index: plain text of every rendered chapter, split
// into the sections its headings (with anchors) start, written as a
// JavaScript file that assigns a global. A script element can load it
// from file://, where fetch() of a JSON file is refused.
#pragma once

#include "book.hpp"

namespace litbook {

/// One searchable piece of a page: the text from a heading (h2 or h3
/// with an id) to the next one. The piece before the first such heading
/// has an empty id and heading.
struct SearchSection {
  std::string id;
  std::string heading;
  std::string text;  ///< the prose a result shows
  std::string code;  ///< formulas' TeX and listings' code: found, not shown
};

/// Splits a rendered page's <article> into sections of plain text. Only
/// headings inside its <div class="page-body"> start sections.
/// Leaves out what a reader does not read as prose: navigation, buttons,
/// the page header, SVG figures, scripts, KaTeX's visual copy of a formula,
/// footnote markers and "what changed" diffs. A formula's TeX and a code
/// block's text go to `code`; an inline formula's symbols (MathML's text,
/// "dk" for d_k) also stay in the prose so that its sentence reads on.
std::vector<SearchSection> page_sections(std::string_view html);

/// The index of every chapter of `index` from SITE/STEM.html, as the
/// script "window.BOOK_SEARCH_INDEX = {...};". With `cache`, each page's
/// sections are kept in CACHE/STEM.json and a page is parsed again only
/// when its size or modification time changed.
std::string search_index_script(const BookIndex& index, const fs::path& site,
                                const std::optional<fs::path>& cache = std::nullopt);

}  // namespace litbook
