#include "site.hpp"

#include <map>
#include <set>

namespace litbook {

namespace {

// Values of attribute `name` in the HTML text (double-quoted only, which
// is what Pandoc, KaTeX, Doxygen and litbook write).
std::vector<std::string> attribute_values(const std::string& html,
                                          const std::string& name) {
  std::vector<std::string> out;
  const std::string key = std::string(" ").append(name).append("=\"");
  std::size_t i = 0;
  while ((i = html.find(key, i)) != std::string::npos) {
    i += key.size();
    std::size_t end = html.find('"', i);
    if (end == std::string::npos) break;
    out.push_back(html.substr(i, end - i));
    i = end;
  }
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool amp = s.compare(i, 5, "&amp;") == 0;
    out += s[i];
    i += amp ? 5 : 1;
  }
  return out;
}


using PageIds = std::map<fs::path, std::set<std::string>>;

bool is_external(const std::string& href) {
  return href.empty() || href.find("://") != std::string::npos ||
         href.rfind("mailto:", 0) == 0 || href.rfind("javascript:", 0) == 0 ||
         href.rfind("data:", 0) == 0;
}

// A local link from `page` must reach a file and, on an HTML page, an
// element with the anchor's id or name.
void check_link(const fs::path& page, const std::string& shown,
                const std::string& href, PageIds& ids,
                std::vector<Diagnostic>& out) {
  std::string file = href.substr(0, href.find('#'));
  std::string anchor = href.find('#') == std::string::npos
                           ? ""
                           : href.substr(href.find('#') + 1);
  if (auto q = file.find('?'); q != std::string::npos) file.resize(q);
  fs::path target = file.empty()
                        ? page
                        : fs::weakly_canonical(page.parent_path() / file);
  if (!fs::exists(target)) {
    report_file(out, shown, "broken link '" + href + "'");
    return;
  }
  if (fs::is_directory(target)) target /= "index.html";
  if (!anchor.empty() && target.extension() == ".html" &&
      !ids[target].count(anchor)) {
    report_file(out, shown, "link '" + href + "' names a missing anchor");
  }
}

// One page: on the book's own pages, no KaTeX error or placeholder left,
// and the scripts and images they load exist; on every page, the links.
void check_page(const fs::path& page, const std::string& html, bool in_api,
                PageIds& ids, std::vector<Diagnostic>& out) {
  std::string shown = display_path(page);
  std::vector<std::string> targets = attribute_values(html, "href");
  if (!in_api) {
    if (html.find("katex-error") != std::string::npos) {
      report_file(out, shown, "contains a KaTeX error");
    }
    if (html.find('\x01') != std::string::npos) {
      report_file(out, shown, "contains an unresolved placeholder");
    }
    for (std::string& src : attribute_values(html, "src")) {
      targets.push_back(std::move(src));
    }
  }
  for (const std::string& raw : targets) {
    std::string href = unescape(raw);
    if (!is_external(href)) check_link(page, shown, href, ids, out);
  }
}

}  // namespace

std::vector<Diagnostic> verify_site(const fs::path& dir) {
  std::vector<Diagnostic> out;
  if (!fs::exists(dir / "index.html")) {
    report_file(out, display_path(dir), "no index.html: the book is not built");
    return out;
  }
  PageIds ids;
  std::map<fs::path, std::string> pages;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".html") continue;
    fs::path p = fs::weakly_canonical(e.path());
    pages[p] = read_file(p);
    auto list = attribute_values(pages[p], "id");
    auto names = attribute_values(pages[p], "name");
    ids[p].insert(list.begin(), list.end());
    ids[p].insert(names.begin(), names.end());
  }
  fs::path api = fs::weakly_canonical(dir / "api");
  for (const auto& [page, html] : pages) {
    bool in_api = page.string().rfind(api.string(), 0) == 0;
    check_page(page, html, in_api, ids, out);
  }
  return out;
}

}  // namespace litbook
