#include "render.hpp"

#include <algorithm>
#include <set>

#include "bookio/escape.hpp"

namespace litbook {

using book::escape_markup;

namespace {

const std::set<std::string> kHighlighted = {
    "cpp", "c", "bash", "sh", "cmake", "diff", "json", "yaml",
    "markdown", "javascript", "html", "css", "python"};

const fs::path kKatexDir = "/usr/share/javascript/katex";

// Removes Pandoc's per-line anchors and block ids, so a highlighted block
// can be cached and used anywhere.
std::string strip_code_ids(std::string html) {
  std::string out;
  std::size_t i = 0;
  while (i < html.size()) {
    if (html.compare(i, 10, "<a href=\"#") == 0) {
      std::size_t end = html.find("</a>", i);
      std::size_t aria = html.find("aria-hidden=\"true\"", i);
      if (end != std::string::npos && aria != std::string::npos && aria < end) {
        i = end + 4;
        continue;
      }
    }
    if (html.compare(i, 5, " id=\"") == 0) {
      std::size_t end = html.find('"', i + 5);
      if (end != std::string::npos && html.compare(i + 5, 2, "hl") == 0) {
        i = end + 1;
        continue;
      }
    }
    out += html[i++];
  }
  return out;
}

// Batch lookups against a cache directory: one process for every miss.
class Cache {
public:
  Cache(fs::path dir) : dir_(std::move(dir)) {}
  std::optional<std::string> get(const std::string& key) {
    return read_file_if_exists(dir_ / (key + ".html"));
  }
  void put(const std::string& key, const std::string& html) {
    write_atomic(dir_ / (key + ".html"), html);
  }

private:
  fs::path dir_;
};

struct Pending {
  std::string token;
  std::string key;
  std::string a;  // lang or tex
  std::string b;  // code or "display"
  std::string id = {};  // a highlighted block's own id, spliced in on use
};

std::string highlight_batch_plain(const std::string& code) {
  return "<div class=\"sourceCode\"><pre><code>" + escape_markup(code) +
         "</code></pre></div>";
}

void run_highlighter(std::vector<Pending>& todo, Cache& cache) {
  if (todo.empty()) return;
  Json blocks = Json::array();
  for (std::size_t i = 0; i < todo.size(); ++i) {
    blocks.push_back({{"t", "CodeBlock"},
                      {"c", {{"hl" + std::to_string(i), {todo[i].a}, Json::array()},
                             todo[i].b}}});
    blocks.push_back({{"t", "RawBlock"}, {"c", {"html", "<!--litbook-split-->"}}});
  }
  Json doc = {{"pandoc-api-version", {1, 22, 2, 1}},
              {"meta", Json::object()},
              {"blocks", blocks}};
  ProcessOptions opts;
  opts.input = doc.dump();
  auto r = run_process({"pandoc", "-f", "json", "-t", "html5"}, opts);
  if (r.exit_code != 0) throw Failure({}, "pandoc (highlighting) failed: " + r.err);
  std::size_t start = 0;
  for (auto& p : todo) {
    std::size_t end = r.out.find("<!--litbook-split-->", start);
    if (end == std::string::npos) throw Failure({}, "highlighting: bad output");
    std::string html = strip_code_ids(r.out.substr(start, end - start));
    while (!html.empty() && html.back() == '\n') html.pop_back();
    while (!html.empty() && html.front() == '\n') html.erase(0, 1);
    cache.put(p.key, html);
    start = end + 21;
  }
}

void run_katex(std::vector<Pending>& todo, Cache& cache, const Chapter& ch,
               const fs::path& root) {
  if (todo.empty()) return;
  Json input = Json::array();
  for (const auto& p : todo) {
    input.push_back({{"tex", p.a}, {"display", p.b == "display"}});
  }
  ProcessOptions opts;
  opts.input = input.dump();
  opts.env = {{"NODE_PATH", "/usr/share/nodejs"}};
  auto r = run_process({"node", (root / "tools" / "katex-render.js").string()},
                       opts);
  if (r.exit_code != 0) throw Failure(ch.at(0), "KaTeX failed: " + r.err);
  Json results = Json::parse(r.out);
  Diagnostics diags;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const Json& res = results[i];
    if (res.contains("error")) {
      int line = 0;
      for (const auto& m : ch.math) {
        if (m.tex == todo[i].a) line = m.line;
      }
      std::string tex = todo[i].a, delim = todo[i].b == "display" ? "$$" : "$";
      for (auto& c : tex) c = (c == '\n' || c == '\r') ? ' ' : c;
      std::string error = res["error"].get<std::string>();
      for (auto& c : error) c = (c == '\n' || c == '\r') ? ' ' : c;
      diags.add(ch.at(line), "invalid TeX in " + delim + tex + delim + ": " +
                                 error);
      continue;
    }
    cache.put(todo[i].key, res["html"].get<std::string>());
  }
  diags.throw_if_any();
}

// The number shown before a chapter's title: "07" for 07-tensor-storage,
// a review mark for a part's review page (NNr-slug).
std::string number_label(const std::string& stem) {
  std::string number = stem.substr(0, stem.find('-'));
  if (!number.empty() && number.back() == 'r') {
    return "<span class=\"chapter-number review-mark\" title=\"Part "
           "review\">R</span>";
  }
  return "<span class=\"chapter-number\">" + number + "</span>";
}

// The book's notation page, when the project has one (book/notation.html).
bool has_notation(const RenderOptions& o) {
  return fs::exists(o.root / "book" / "notation.html");
}

std::string sidebar(const BookIndex& index, const std::string& current,
                    bool notation) {
  std::string out = "<nav class=\"sidebar\" id=\"sidebar\" aria-label=\"Chapters\">"
                    "<p class=\"sidebar-title\"><a href=\"index.html\">" +
                    escape_markup(index.title) + "</a></p>\n";
  for (const auto& part : index.parts) {
    out += "<div class=\"sidebar-part\"><p class=\"sidebar-part-title\">Part " +
           std::to_string(part.number) + ": " + escape_markup(part.title) +
           "</p><ol>\n";
    for (const auto& stem : part.stems) {
      const IndexEntry* e = index.by_stem(stem);
      if (!e) continue;
      out += "<li><a href=\"" + stem + ".html\"" +
             (stem == current ? " aria-current=\"page\"" : "") + ">" +
             number_label(stem) + " " +
             escape_markup(e->title) + "</a></li>\n";
    }
    out += "</ol></div>\n";
  }
  if (notation) {
    out += std::string("<p class=\"sidebar-api\"><a href=\"notation.html\"") +
           (current == "notation" ? " aria-current=\"page\"" : "") +
           ">Notation</a></p>";
  }
  return out + "<p class=\"sidebar-api\"><a href=\"api/index.html\">API "
               "reference</a></p></nav>";
}

std::string toc_html(const Json& headings) {
  std::string out = "<ul>\n";
  bool nested = false;
  for (const auto& h : headings) {
    int level = h["level"];
    if (level < 2 || level > 3) continue;
    std::string item = "<li><a href=\"#" + escape_markup(h["id"].get<std::string>()) + "\">" +
                       escape_markup(h["text"].get<std::string>()) + "</a>";
    if (level == 3 && !nested) {
      if (out.size() > 5 && out.compare(out.size() - 6, 6, "</li>\n") == 0) {
        out.resize(out.size() - 6);
        out += "\n<ul>\n";
        nested = true;
      }
    } else if (level == 2 && nested) {
      out += "</ul></li>\n";
      nested = false;
    }
    out += item + "</li>\n";
  }
  if (nested) out += "</ul></li>\n";
  return out + "</ul>";
}

TemplateVars base_vars(const BookIndex& index) {
  TemplateVars v;
  v["book-title"] = {index.title, {}, false};
  v["root"] = {"", {}, false};
  v["api-href"] = {"api/index.html", {}, false};
  return v;
}

void write_page(const RenderOptions& o, const std::string& file,
                const TemplateVars& vars) {
  fs::path tmpl_path = o.root / "book" / "template.html";
  std::string tmpl = read_file(tmpl_path);
  write_atomic(o.site / file,
               apply_template(tmpl, vars, display_path(tmpl_path)));
}

std::vector<std::string> meta_list_html(const Json& meta, const char* key,
                                        HtmlWriter& w) {
  std::vector<std::string> out;
  if (!meta.contains(key) || meta[key]["t"] != "MetaList") return out;
  for (const auto& item : meta[key]["c"]) {
    if (item["t"] == "MetaInlines") out.push_back(w.inlines(item["c"]));
    if (item["t"] == "MetaString") out.push_back(escape_markup(item["c"].get<std::string>()));
    if (item["t"] == "MetaBlocks") out.push_back(w.blocks(item["c"]));
  }
  return out;
}

}  // namespace

std::string table_html(const Json& t) {
  auto is_number = [](const std::string& s) {
    if (s.empty()) return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
  };
  std::string out = "<div class=\"table-wrap\"><table>\n<caption>" +
                    escape_markup(t.value("caption", "")) + "</caption>\n";
  out += "<thead><tr>";
  for (const auto& col : t["columns"]) {
    out += "<th scope=\"col\">" + escape_markup(col.get<std::string>()) +
           "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t["rows"]) {
    out += "<tr>";
    for (const auto& cell : row) {
      std::string text = cell["text"];
      std::string classes = cell.value("classes", "");
      if (is_number(text)) classes += classes.empty() ? "num" : " num";
      std::string mark = cell.value("mark", "");
      std::string attr = classes.empty() ? "" : " class=\"" + escape_markup(classes) + "\"";
      if (cell.value("header", false)) {
        out += "<th scope=\"row\"" + attr + ">" + escape_markup(text) + "</th>";
      } else {
        out += "<td" + attr + ">" + escape_markup(text) +
               (mark.empty() ? ""
                             : "<span class=\"cell-mark\">" + escape_markup(mark) +
                                   "</span>") +
               "</td>";
      }
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>";
  std::string note = t.value("note", "");
  if (!note.empty()) out += "<p class=\"table-note\">" + escape_markup(note) + "</p>";
  return out;
}

namespace {

// Code listings and formulas are written as placeholder tokens first;
// the highlighter and KaTeX then run once each for the whole page.
struct Deferred {
  std::vector<Pending> code, math;
};

std::string deferred_token(char kind, std::size_t n) {
  return std::string("\x01") + kind + std::to_string(n) + "\x01";
}

HtmlContext chapter_context(const Chapter& ch, const BookIndex& index,
                            const Json& listings, const RenderOptions& o,
                            Deferred& d) {
  HtmlContext ctx;
  ctx.chapter = &ch;
  ctx.index = &index;
  ctx.listings = listings;
  if (!o.api.empty()) ctx.api = &o.api;
  ctx.highlight = [&d](const std::string& lang, const std::string& text,
                       const std::string& id) {
    if (!kHighlighted.count(lang)) return highlight_batch_plain(text);
    std::string key = hash_hex(lang + '\0' + text);
    std::string t = deferred_token('H', d.code.size());
    d.code.push_back({t, key, lang, text, id});
    return t;
  };
  ctx.highlights = [](const std::string& lang) {
    return kHighlighted.count(lang) > 0;
  };
  ctx.math = [&d](const std::string& tex, bool display) {
    // "q2": tools/katex-render.js double-quotes KaTeX's SVG attributes.
    std::string key = hash_hex(std::string(display ? "q2D" : "q2I") + tex);
    std::string t = deferred_token('M', d.math.size());
    d.math.push_back({t, key, tex, display ? "display" : "inline"});
    return t;
  };
  fs::path out_dir = o.outputs / ch.stem;
  ctx.table = [out_dir](const std::string& name) {
    fs::path p = out_dir / "tables" / (name + ".json");
    return table_html(Json::parse(read_file(p)));
  };
  ctx.figure = [out_dir](const std::string& name) {
    std::string svg = read_file(out_dir / "figures" / (name + ".svg"));
    auto start = svg.find("<svg");
    return start == std::string::npos ? svg : svg.substr(start);
  };
  return ctx;
}

// Fill the caches, one process per kind, only for what is missing.
void fill_caches(const Deferred& d, Cache& hl_cache, Cache& tex_cache,
                 const Chapter& ch, const fs::path& root) {
  std::vector<Pending> hl_missing, tex_missing;
  std::set<std::string> queued;
  for (const auto& p : d.code) {
    if (!hl_cache.get(p.key) && queued.insert("H" + p.key).second) {
      hl_missing.push_back(p);
    }
  }
  for (const auto& p : d.math) {
    if (!tex_cache.get(p.key) && queued.insert("M" + p.key).second) {
      tex_missing.push_back(p);
    }
  }
  run_highlighter(hl_missing, hl_cache);
  run_katex(tex_missing, tex_cache, ch, root);
}

// Replace each token by the cached HTML it stands for.
void substitute(std::string& text, const Deferred& d, Cache& hl_cache,
                Cache& tex_cache) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '\x01') {
      out += text[i++];
      continue;
    }
    std::size_t end = text.find('\x01', i + 1);
    char kind = text[i + 1];
    std::size_t n = std::stoul(text.substr(i + 2, end - i - 2));
    const Pending& p = kind == 'H' ? d.code.at(n) : d.math.at(n);
    std::string html = *(kind == 'H' ? hl_cache : tex_cache).get(p.key);
    const std::string div = "<div class=\"sourceCode\"";
    if (!p.id.empty() && html.rfind(div, 0) == 0) {
      html.insert(div.size(), " id=\"" + escape_markup(p.id) + "\"");
    }
    out += html;
    i = end + 1;
  }
  text = std::move(out);
}

// The page's frame: titles, sidebar, table of contents, prev and next.
TemplateVars chapter_vars(const Chapter& ch, const BookIndex& index,
                          const RenderOptions& o) {
  TemplateVars v = base_vars(index);
  v["pagetitle"] = {ch.title, {}, false};
  const Part* part = nullptr;
  for (const auto& p : index.parts) {
    if (p.number == ch.part) part = &p;
  }
  v["part-title"] = {part ? "Part " + std::to_string(part->number) + ": " +
                                part->title
                          : "",
                     {}, false};
  v["sidebar"] = {sidebar(index, ch.stem, has_notation(o)), {}, false};
  const IndexEntry* self = index.by_stem(ch.stem);
  if (self) v["toc"] = {toc_html(self->headings), {}, false};
  for (std::size_t i = 0; i < index.chapters.size(); ++i) {
    if (index.chapters[i].stem != ch.stem) continue;
    if (i > 0) {
      v["prev-href"] = {index.chapters[i - 1].stem + ".html", {}, false};
      v["prev-title"] = {escape_markup(index.chapters[i - 1].title), {}, false};
    }
    if (i + 1 < index.chapters.size()) {
      v["next-href"] = {index.chapters[i + 1].stem + ".html", {}, false};
      v["next-title"] = {escape_markup(index.chapters[i + 1].title), {}, false};
    }
  }
  return v;
}

}  // namespace

void render_chapter(const Chapter& ch, const BookIndex& index,
                    const Json& listings, const RenderOptions& o) {
  DemoOutputs published;
  published.dir = o.outputs / ch.stem;
  if (auto missing = missing_placements(ch, published); !missing.empty()) {
    throw Failure(std::move(missing));
  }
  Deferred d;
  HtmlContext ctx = chapter_context(ch, index, listings, o, d);
  HtmlWriter w(ctx);  // keeps a reference to ctx
  // Two statements: the footnotes exist only once the blocks are written,
  // and the operands of + are evaluated in an unspecified order.
  std::string body = w.blocks(ch.blocks);
  body += w.footnotes();
  auto objectives = meta_list_html(ch.meta, "objectives", w);
  auto prerequisites = meta_list_html(ch.meta, "prerequisites", w);

  Cache hl_cache(o.cache / "highlight"), tex_cache(o.cache / "katex");
  fill_caches(d, hl_cache, tex_cache, ch, o.root);
  substitute(body, d, hl_cache, tex_cache);
  for (auto& s : objectives) substitute(s, d, hl_cache, tex_cache);
  for (auto& s : prerequisites) substitute(s, d, hl_cache, tex_cache);

  TemplateVars v = chapter_vars(ch, index, o);
  v["objectives"] = {"", objectives, true};
  v["prerequisites"] = {"", prerequisites, true};
  // The intro box holds the objectives, the prerequisites, or both.
  v["intro"] = {objectives.empty() && prerequisites.empty() ? "" : "yes",
                {}, false};
  v["body"] = {body, {}, false};
  write_page(o, ch.stem + ".html", v);
}

namespace {

// The preface quotes what demos published: an empty element written with
// data-value="STEM/KEY" gets the text value KEY of STEM's demo as its
// text, so the landing page shows what this build's model really wrote.
// A reference that names no such value stops the render, at its line.
std::string fill_published_text(std::string html, const fs::path& outputs,
                                const std::string& display) {
  const std::string marker = "data-value=\"";
  for (std::size_t at = html.find(marker); at != std::string::npos;
       at = html.find(marker, at)) {
    const Location where{display, static_cast<int>(1 + std::count(
                                      html.begin(), html.begin() + at, '\n'))};
    const std::size_t start = at + marker.size();
    const std::size_t quote = html.find('"', start);
    const std::size_t close =
        quote == std::string::npos ? quote : html.find('>', quote);
    if (close == std::string::npos || html.compare(close + 1, 2, "</") != 0) {
      throw Failure(where, "an element with data-value must be empty and "
                           "closed: the demo's value is its text");
    }
    const std::string ref = html.substr(start, quote - start);
    const std::size_t slash = ref.find('/');
    const std::string stem = ref.substr(0, slash);
    const std::string key =
        slash == std::string::npos ? "" : ref.substr(slash + 1);
    const DemoOutputs out = load_outputs(outputs / stem);
    const auto v = out.values.find(key);
    if (!out.present || v == out.values.end() || !v->is_object() ||
        v->value("kind", "") != "text") {
      throw Failure(where, "data-value=\"" + ref + "\": expected STEM/KEY "
                           "naming a text value a demo published in " +
                           (outputs / stem).string() +
                           "/values.json; there is none (build the book "
                           "first, or check the key)");
    }
    const std::string text = escape_markup(v->value("text", ""));
    html.insert(close + 1, text);
    at = close + 1 + text.size();
  }
  return html;
}

}  // namespace

// The landing page: the preface (book/preface.html) above the parts and
// their chapters; and the notation page (book/notation.html). Both
// fragments are plain HTML written for the book and hold no computed
// number (those belong in chapters, where the check sees them); the
// preface may quote a demo's published text through data-value.
void render_landing(const BookIndex& index, const RenderOptions& o) {
  std::string body =
      fill_published_text(
          read_file_if_exists(o.root / "book" / "preface.html").value_or(""),
          o.outputs, "book/preface.html") +
      "<section class=\"landing\">\n";
  for (const auto& part : index.parts) {
    body += "<h2>Part " + std::to_string(part.number) + ": " +
            escape_markup(part.title) + "</h2>\n<ol class=\"chapter-list\">\n";
    for (const auto& stem : part.stems) {
      const IndexEntry* e = index.by_stem(stem);
      if (!e) continue;
      body += "<li><a href=\"" + stem + ".html\">" + number_label(stem) + " " +
              escape_markup(e->title) + "</a></li>\n";
    }
    body += "</ol>\n";
  }
  body += "</section>\n";
  TemplateVars v = base_vars(index);
  v["pagetitle"] = {index.title, {}, false};
  v["sidebar"] = {sidebar(index, "", has_notation(o)), {}, false};
  if (!index.chapters.empty()) {
    v["next-href"] = {index.chapters.front().stem + ".html", {}, false};
    v["next-title"] = {escape_markup(index.chapters.front().title), {}, false};
  }
  v["body"] = {body, {}, false};
  write_page(o, "index.html", v);

  if (!has_notation(o)) return;
  TemplateVars n = base_vars(index);
  n["pagetitle"] = {"Notation", {}, false};
  n["sidebar"] = {sidebar(index, "notation", true), {}, false};
  n["body"] = {read_file(o.root / "book" / "notation.html"), {}, false};
  write_page(o, "notation.html", n);
}

void write_assets(const RenderOptions& o) {
  for (const char* name : {"style.css", "book.js", "progress.js"}) {
    write_if_changed(o.site / name, read_file(o.root / "book" / name));
  }
  write_if_changed(o.site / "katex" / "katex.min.css",
                   read_file(kKatexDir / "katex.min.css"));
  for (const auto& e : fs::directory_iterator(kKatexDir / "fonts")) {
    write_if_changed(o.site / "katex" / "fonts" / e.path().filename(),
                     read_file(e.path()));
  }
  // Pandoc's highlighting colours, taken from a standalone page.
  ProcessOptions opts;
  opts.input = "```cpp\nint x = 0;\n```\n";
  auto r = run_process({"pandoc", "-s", "-f", "commonmark", "-t", "html5",
                        "--metadata", "title=x"},
                       opts);
  auto a = r.out.find("pre > code.sourceCode");
  auto b = r.out.find("</style>");
  if (r.exit_code != 0 || a == std::string::npos || b == std::string::npos) {
    throw Failure({}, "cannot obtain Pandoc's highlighting stylesheet");
  }
  write_if_changed(o.site / "highlight.css", r.out.substr(a, b - a));
}

}  // namespace litbook
