// Doxygen 1.9 writes XHTML-flavoured markup (<br/>, <a name>, script
// types, rows without <tbody>, divs where HTML has landmarks). The API
// reference must pass the checks the book's own pages pass (html-validate's
// recommended preset, axe-core), so api-links rewrites each page's tags in
// one pass. Text, comments, scripts and the tags the pass has no reason to
// change are copied byte for byte.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace litbook {

/// The text of a page's <title> after the project name and ": "
/// ("llm/tensor.hpp Source File"); "" for a page without a title.
std::string api_page_title(std::string_view page);

/// The titles of the API pages by file name ("tensor_8hpp_source.html").
using ApiTitles = std::map<std::string, std::string, std::less<>>;

/// `id` with every character html-validate's valid-id rule refuses
/// (anything but letters, digits, '-' and '_') replaced by '_', and "id-"
/// before it if it does not start with a letter: "llm::Error_map" becomes
/// "llm__Error_map".
std::string valid_id(std::string_view id);

/// Rewrites one page of Doxygen's HTML:
/// - void elements lose the XHTML slash (<br/> becomes <br>); any other
///   self-closed element gets an end tag;
/// - <script> loses type="text/javascript", <td> and <th> lose align and
///   valign (book/api.css aligns Doxygen's cells), <a> loses the name its
///   id repeats, a <th> without scope gets scope="col";
/// - ids, map names, usemap and link fragments are made valid_id;
/// - rows directly inside a <table> are wrapped in <tbody>;
/// - landmarks: div#main-nav and div#side-nav go into a <nav> each,
///   div#doc-content into <main> (the <header> and <footer> are in
///   book/api-header.html and api-footer.html); div.title, the page's
///   heading, becomes <h1>, and a page without one (the member indexes)
///   gets its <title> as one;
/// - a link with no text gets an aria-label: the title of the page it
///   leads to, from `titles`;
/// - spaces and tabs at the ends of lines of text (outside <pre>) go.
std::string clean_api_markup(std::string_view page, const ApiTitles& titles);

}  // namespace litbook
