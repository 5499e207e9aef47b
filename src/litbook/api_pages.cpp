// The API reference leads back to the book: every page of Doxygen's HTML
// gets a link to the book, each documented symbol the chapter listing
// that declares it, and the main page a table of the library's files with
// the chapter that starts each one.
#include <map>

#include "api.hpp"
#include "api_markup.hpp"
#include "bookio/escape.hpp"
#include "html.hpp"
#include "tangle.hpp"

namespace litbook {

using book::escape_markup;

namespace {

// "chapter 7, Tensor storage" or "review page 26r, Attention review".
std::string chapter_label(const IndexEntry& e) {
  std::string number = item_number_prefix(e.stem);
  bool review = !number.empty() && number.back() == 'r';
  return std::string(review ? "review page " : "chapter ") + number + ", " +
         e.title;
}

std::size_t count_lines(const std::string& code) {
  std::size_t n = 0;
  for (char c : code) n += c == '\n';
  return n + (!code.empty() && code.back() != '\n');
}

// The listing a chapter line belongs to: its page anchor, or "" for a
// hidden region or a line outside every region.
std::string region_at(const ChapterCode& ch, int line) {
  for (const auto& r : ch.regions) {
    int first = r.line + 1;  // the line after the opening fence
    int last = r.line + static_cast<int>(count_lines(r.code));
    if (line >= first && line <= last) {
      return r.hidden ? "" : region_anchor(r.name, !r.revise.empty());
    }
  }
  return {};
}

}  // namespace

std::optional<Taught> taught_at(const Json& origins,
                                const std::vector<ChapterCode>& chapters,
                                const BookIndex& index,
                                const std::string& file, int line) {
  auto from = origin_of(origins, file, line);
  if (!from) return std::nullopt;
  std::string stem = fs::path(from->file).stem().string();
  const IndexEntry* entry = index.by_stem(stem);
  if (!entry) return std::nullopt;
  Taught t;
  t.href = stem + ".html";
  for (const auto& ch : chapters) {
    if (ch.stem != stem) continue;
    if (auto anchor = region_at(ch, from->line); !anchor.empty()) {
      t.href += "#" + anchor;
    }
  }
  t.label = chapter_label(*entry);
  return t;
}

namespace {

// Inserts `html` after the first occurrence of `marker` at or after `from`;
// returns the position after the insertion, or npos if there is no marker.
std::size_t insert_after(std::string& page, std::string_view marker,
                         std::size_t from, const std::string& html) {
  std::size_t at = page.find(marker, from);
  if (at == std::string::npos) return at;
  page.insert(at + marker.size(), html);
  return at + marker.size() + html.size();
}

std::string taught_html(const Taught& t) {
  return "\n<p class=\"book-taught\">Taught in <a href=\"../" +
         escape_markup(t.href) + "\">" + escape_markup(t.label) + "</a></p>";
}

// The titles of the pages in `api_dir`, by file name, to name the links
// that show only an icon.
ApiTitles api_titles(const fs::path& api_dir) {
  ApiTitles titles;
  for (const auto& entry : fs::directory_iterator(api_dir)) {
    if (entry.path().extension() != ".html") continue;
    titles[entry.path().filename().string()] =
        api_page_title(read_file(entry.path()));
  }
  return titles;
}

// The main page's table: each header of the library and where it starts.
std::string files_table(const Json& origins,
                        const std::vector<ChapterCode>& chapters,
                        const BookIndex& index) {
  std::string rows;
  for (const auto& [file, runs] : origins.items()) {
    if (file.rfind("llm/", 0) != 0 || !file.ends_with(".hpp")) continue;
    // The earliest chapter that writes to the file (a later one may
    // revise its first lines).
    const Json* earliest = nullptr;
    for (const auto& run : runs) {
      if (!earliest || run[1].get<std::string>() < (*earliest)[1].get<std::string>()) {
        earliest = &run;
      }
    }
    if (!earliest) continue;
    auto t = taught_at(origins, chapters, index, file, (*earliest)[0].get<int>());
    if (!t) continue;
    rows += "<tr><td><code>" + escape_markup(file) + "</code></td><td><a href=\"../" +
            escape_markup(t->href) + "\">" + escape_markup(t->label) +
            "</a></td></tr>\n";
  }
  return "\n<p>The library the book builds, chapter by chapter. Each header "
         "below starts in the chapter named next to it; each symbol's page "
         "names the listing that declares it. <a href=\"../index.html\">"
         "Back to the book</a>.</p>\n<table class=\"book-files\"><caption>"
         "The library's headers and the chapters that start them</caption>\n"
         "<thead><tr><th scope=\"col\">Header</th><th scope=\"col\">Starts in"
         "</th></tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n";
}

}  // namespace

std::size_t link_api_to_book(const fs::path& api_dir,
                             const std::vector<ApiSymbol>& symbols,
                             const Json& origins,
                             const std::vector<ChapterCode>& chapters,
                             const BookIndex& index) {
  // Page -> (anchor or "" for the page itself) -> where it is taught.
  std::map<std::string, std::map<std::string, Taught>> by_page;
  for (const auto& s : symbols) {
    auto t = taught_at(origins, chapters, index, s.file, s.line);
    if (!t) continue;
    std::string page = s.href.substr(0, s.href.find('#'));
    std::string anchor = page.size() < s.href.size()
                             ? s.href.substr(page.size() + 1) : "";
    if (page.rfind("api/", 0) == 0) page.erase(0, 4);
    by_page[page].emplace(anchor, *t);
  }
  const ApiTitles titles = api_titles(api_dir);
  std::size_t linked = 0;
  for (const auto& entry : fs::directory_iterator(api_dir)) {
    if (entry.path().extension() != ".html") continue;
    std::string page = clean_api_markup(read_file(entry.path()), titles);
    const std::string name = entry.path().filename().string();
    // The book's theme choice, before the first paint (as the book's own
    // pages do it), and the way back to the book.
    insert_after(page, "<head>", 0,
                 "\n<script>try{var t=localStorage.getItem(\"book-theme\");"
                 "if(t===\"light\"||t===\"dark\")document.documentElement."
                 "setAttribute(\"data-theme\",t);}catch(e){}</script>");
    insert_after(page, "<div id=\"doc-content\">", 0,
                 "\n<p class=\"book-back\"><a href=\"../index.html\">"
                 "&#8592; Back to the book</a></p>");
    if (name == "index.html") {
      insert_after(page, "<div class=\"contents\">", 0,
                   files_table(origins, chapters, index));
    }
    for (const auto& [anchor, t] : by_page[name]) {
      std::size_t at =
          anchor.empty()
              ? insert_after(page, "<div class=\"contents\">", 0, taught_html(t))
              : insert_after(page, "</h2>",
                             page.find("<a id=\"" + anchor + "\""),
                             taught_html(t));
      linked += at != std::string::npos;
    }
    write_atomic(entry.path(), page);
  }
  return linked;
}

}  // namespace litbook
