// The HTML writer against Pandoc's own html5 writer, on every example of
// the CommonMark spec (npm package commonmark-spec, pinned in
// package-lock.json and installed by tools/setup.sh).
//
// Both sides read the same Markdown with Pandoc's commonmark_x reader, so
// what is compared is the writer alone: litbook's HtmlWriter on the tree a
// chapter is rendered from (commonmark_x+sourcepos, simplified as
// parse_with_pandoc simplifies it), and Pandoc's html5 writer on the
// example itself. The spec's own expected HTML is not the reference: the
// book promises to render what Pandoc renders, and Pandoc's reader departs
// from the spec in places that are no concern of the writer.
//
// Every example must give the same body, up to the spelling differences
// that `normalize` removes, except those listed with a reason in
// commonmark-known-differences.txt. The list is exact both ways: a new
// difference fails, and so does a listed example that now agrees (remove it).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chapter.hpp"  // litbook::simplify_document, litbook::Json
#include "bookio/escape.hpp"  // book::escape_markup
#include "html.hpp"     // litbook::HtmlWriter
#include "util.hpp"     // litbook::run_process, litbook::read_file

namespace {

namespace fs = std::filesystem;

struct Example {
  int number = 0;    // its file in the Pandoc run: ex-NUMBER.*
  std::string key;   // its name in the list of known differences
  std::string section;
  std::string markdown;
};

// The examples of spec.txt: a line of 32 backticks and " example", the
// Markdown, a line ".", the HTML, 32 backticks. A tab is shown as "→".
std::vector<Example> spec_examples(const std::string& text) {
  const std::string fence(32, '`');
  std::vector<Example> out;
  std::istringstream in(text);
  std::string line, section;
  Example* open = nullptr;
  bool in_markdown = false;
  while (std::getline(in, line)) {
    if (!open && line == fence + " example") {
      int n = static_cast<int>(out.size()) + 1;
      out.push_back({n, std::to_string(n), section, ""});
      open = &out.back();
      in_markdown = true;
    } else if (open && line == fence) {
      open = nullptr;
    } else if (open && in_markdown && line == ".") {
      in_markdown = false;
    } else if (open && in_markdown) {
      open->markdown += line + "\n";
    } else if (!open && line.rfind("#", 0) == 0) {
      section = line.substr(line.find_first_not_of('#'));
      if (!section.empty() && section[0] == ' ') section.erase(0, 1);
    }
  }
  for (auto& e : out) {
    for (std::size_t i; (i = e.markdown.find("\u2192")) != std::string::npos;) {
      e.markdown.replace(i, 3, "\t");
    }
  }
  return out;
}

// Spellings that differ with no difference to a browser: Pandoc writes
// void elements XHTML-style (<hr />, <br />, <img ... />) where litbook
// writes <hr>; a line break inside a tag is a space; newlines between two
// tags outside <pre> are layout; Pandoc trims the end of the document.
std::string normalize(std::string html) {
  while (!html.empty() && (html.back() == '\n' || html.back() == ' ')) {
    html.pop_back();
  }
  std::string out;
  bool in_tag = false;
  int in_pre = 0;
  for (std::size_t i = 0; i < html.size(); ++i) {
    char c = html[i];
    if (c == '<') {
      in_tag = true;
      if (html.compare(i, 4, "<pre") == 0) ++in_pre;
      if (html.compare(i, 6, "</pre>") == 0) --in_pre;
    }
    if (in_tag && c == '/' && i + 1 < html.size() && html[i + 1] == '>' &&
        !out.empty() && out.back() == ' ') {
      out.pop_back();  // "<hr />" -> "<hr>"
    } else if (in_tag && c == '\n') {
      out += ' ';
    } else if (c == '\n' && !in_pre && !out.empty() && out.back() == '>' &&
               html.find_first_not_of('\n', i) != std::string::npos &&
               html[html.find_first_not_of('\n', i)] == '<') {
      continue;  // between two tags
    } else {
      out += c;
    }
    if (c == '>') in_tag = false;
  }
  return out;
}

// The body litbook writes for the tree: blocks then footnotes, as
// render_chapter does. Code is not highlighted (as on Pandoc's side);
// math is written as Pandoc's html5 writer writes it without --katex or
// --mathjax only for plain TeX, so math is one of the listed differences.
std::string litbook_body(const litbook::Json& doc) {
  litbook::HtmlContext ctx;
  ctx.highlights = [](const std::string&) { return false; };
  ctx.highlight = [](const std::string&, const std::string& code,
                     const std::string&) {
    return "<pre><code>" + book::escape_markup(code) + "</code></pre>";
  };
  ctx.math = [](const std::string& tex, bool display) {
    return std::string("<span class=\"math ") +
           (display ? "display" : "inline") + "\">" +
           book::escape_markup(tex) + "</span>";
  };
  litbook::HtmlWriter w(ctx);
  std::string body = w.blocks(doc["blocks"]);
  body += w.footnotes();
  return body;
}

// "KEY: reason" lines (KEY a spec example's number, or ext-N for the Nth
// of kExtensions); '#' starts a comment line.
std::map<std::string, std::string> known_differences(const fs::path& path) {
  std::map<std::string, std::string> out;
  std::istringstream in(litbook::read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    REQUIRE(colon != std::string::npos);
    out[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return out;
}

// One example of each of Pandoc's commonmark_x extensions that a chapter
// can use, beyond the spec (math is left out: KaTeX writes it, not the
// writer).
const std::vector<std::string> kExtensions = {
    // footnotes, one of two paragraphs
    "Text[^1] and more[^n].\n\n[^1]: One *note*.\n\n[^n]: Two.\n\n"
    "    Second paragraph.\n",
    // fenced_divs, bracketed_spans, attributes
    "::: {#d .c key=\"v\"}\nInside.\n:::\n",
    "[span]{.x #y z=\"1\"} and [plain]{} text\n",
    "# Head {#h .c}\n\n`code`{.cpp}\n\n[l](u){.c target=\"_blank\"}\n",
    "```{#c .python n=\"1\"}\nx = 1\n```\n",
    // definition_lists, pipe_tables, task_lists, fancy_lists
    "Term\n:   Definition\n\nTerm 2\n:   Def 2\n",
    "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n",
    "- [ ] todo\n- [x] done\n",
    "a. x\nb. y\n\niv. a\nv. b\n\n(1) p\n(2) q\n\nB) one\nC) two\n",
    // strikeout, superscript, subscript, smart, emoji
    "~~gone~~ H~2~O x^2^\n",
    "\"Double\" and 'single' -- en --- em...\n",
    ":smile: face\n",
    // images and figures
    "![A caption](f.png \"t\")\n",
    "An ![inline](i.png){width=\"50%\"} image.\n",
    // raw_attribute
    "```{=html}\n<b>raw</b>\n```\n\n`<i>x</i>`{=html} and `\\x`{=latex}\n",
    // auto_identifiers, implicit_header_references
    "# A b\n\n# A b\n\nSee [A b].\n",
};

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern =
        (fs::temp_directory_path() / "litbook-commonmark-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Pandoc's tree and html5 body for each example, in one Pandoc run.
void run_pandoc(const std::vector<Example>& examples, const fs::path& dir) {
  for (const auto& e : examples) {
    std::ofstream(dir / ("ex-" + std::to_string(e.number) + ".md"),
                  std::ios::binary)
        << e.markdown;
  }
  auto r = litbook::run_process(
      {"pandoc", "-f", "markdown", "-t", "plain", "--lua-filter",
       (fs::path(BOOK_SOURCE) / "tests/tool/commonmark-spec.lua").string(),
       "-M", "dir=" + dir.string(), "-M",
       "count=" + std::to_string(examples.size())});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

// Compares every example, each against the list of known differences
// (by key); returns how many agree.
int compare_with_pandoc(const std::vector<Example>& examples) {
  auto known = known_differences(fs::path(BOOK_SOURCE) /
                                 "tests/tool/commonmark-known-differences.txt");
  TempDir tmp;
  run_pandoc(examples, tmp.path);
  int same = 0;
  for (const auto& e : examples) {
    fs::path base = tmp.path / ("ex-" + std::to_string(e.number));
    INFO("example " << e.key << " (" << e.section << "):\n" << e.markdown);
    REQUIRE_FALSE(fs::exists(base.string() + ".error"));
    auto doc = litbook::simplify_document(
        litbook::Json::parse(litbook::read_file(base.string() + ".json")));
    std::string ours = normalize(litbook_body(doc));
    std::string pandoc = normalize(litbook::read_file(base.string() + ".html"));
    INFO("pandoc:  " << pandoc << "\nlitbook: " << ours);
    if (auto it = known.find(e.key); it != known.end()) {
      INFO("listed as a known difference:" << it->second);
      CHECK(ours != pandoc);
    } else {
      CHECK(ours == pandoc);
    }
    same += ours == pandoc;
  }
  return same;
}

}  // namespace

TEST_CASE("normalize keeps every difference a reader could see",
          "[tool][commonmark]") {
  CHECK(normalize("<hr />\n<p>a<br />\nb</p>\n") == "<hr><p>a<br>\nb</p>");
  CHECK(normalize("<a\nhref=\"x\">y</a>") == "<a href=\"x\">y</a>");
  CHECK(normalize("<p>a</p>") != normalize("<p>b</p>"));
  CHECK(normalize("<p>a b</p>") != normalize("<p>a  b</p>"));
  CHECK(normalize("<pre><code>a\n</code></pre>") !=
        normalize("<pre><code>a</code></pre>"));
  CHECK(normalize("<img alt=\"a / b\" />") == "<img alt=\"a / b\">");
}

TEST_CASE("the HTML writer writes what Pandoc's html5 writer writes for "
          "every CommonMark spec example, but the listed ones",
          "[tool][commonmark]") {
  const fs::path spec = COMMONMARK_SPEC;
  INFO("the spec comes from npm (commonmark-spec): run tools/setup.sh");
  REQUIRE(fs::exists(spec));
  auto examples = spec_examples(litbook::read_file(spec));
  REQUIRE(examples.size() == 652);  // commonmark-spec 0.31.2
  int same = compare_with_pandoc(examples);
  WARN(same << " of " << examples.size() << " examples give Pandoc's body");
}

TEST_CASE("the HTML writer writes what Pandoc's html5 writer writes for "
          "the commonmark_x extensions, but the listed ones",
          "[tool][commonmark]") {
  std::vector<Example> examples;
  for (const auto& md : kExtensions) {
    int n = static_cast<int>(examples.size()) + 1;
    examples.push_back({n, "ext-" + std::to_string(n), "extensions", md});
  }
  int same = compare_with_pandoc(examples);
  WARN(same << " of " << examples.size() << " extension examples give "
                                            "Pandoc's body");
}
