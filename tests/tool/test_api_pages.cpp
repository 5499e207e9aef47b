// litbook api-links: the API reference's pages lead back to the chapter
// listings that declare each symbol.
#include <catch2/catch.hpp>

#include <fstream>

#include "api.hpp"
#include "util.hpp"

using namespace litbook;

namespace {

// A Doxygen page, reduced to the markers api-links edits.
std::string doxygen_page(const std::string& contents) {
  return "<!DOCTYPE html>\n<html>\n<head>\n<title>T</title>\n</head>\n<body>\n"
         "<div id=\"doc-content\">\n<div class=\"contents\">\n" + contents +
         "</div>\n</div>\n</body>\n</html>\n";
}

struct Fixture {
  fs::path dir = fs::temp_directory_path() / "litbook-api-pages-test";
  std::vector<ApiSymbol> symbols;
  Json origins;
  std::vector<ChapterCode> chapters;
  BookIndex index;

  Fixture() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_atomic(dir / "index.html", doxygen_page(""));
    write_atomic(dir / "namespacellm.html",
                 doxygen_page("<a id=\"af\" name=\"af\"></a>\n<h2 class=\"memtitle\">"
                              "f()</h2>\n<div class=\"memitem\">f</div>\n"
                              "<a id=\"ag\" name=\"ag\"></a>\n<h2 class=\"memtitle\">"
                              "g()</h2>\n<div class=\"memitem\">g</div>\n"));
    write_atomic(dir / "structllm_1_1S.html", doxygen_page("<p>S</p>\n"));
    // llm/a.hpp: file lines 4-6 come from chapter lines 21-23 (the body of
    // the region whose fence is line 20); line 9 from a hidden region.
    origins = Json::parse(R"({"llm/a.hpp": [[2, "chapters/02-beta.md", 5, 1],
                                            [4, "chapters/01-alpha.md", 21, 3],
                                            [9, "chapters/01-alpha.md", 31, 1]]})");
    Region shown;
    shown.name = "a-top";
    shown.line = 20;
    shown.code = "struct S {};\nvoid f();\nvoid g();\n";
    Region hidden;
    hidden.name = "a-detail";
    hidden.line = 30;
    hidden.hidden = true;
    hidden.code = "int detail;\n";
    chapters.push_back({"01-alpha", "alpha", "chapters/01-alpha.md",
                        {shown, hidden}, {}});
    IndexEntry e;
    e.stem = "01-alpha";
    e.id = "alpha";
    e.title = "Alpha & omega";
    index.chapters.push_back(e);
    symbols = {{"S", "api/structllm_1_1S.html", "llm/a.hpp", 4, "", 0},
               {"f", "api/namespacellm.html#af", "llm/a.hpp", 5, "", 0},
               {"g", "api/namespacellm.html#ag", "llm/a.hpp", 9, "", 0},
               {"h", "api/namespacellm.html#ah", "llm/b.hpp", 1, "", 0}};
  }
  ~Fixture() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("api-links: each symbol names the listing that declares it",
          "[tool][api]") {
  Fixture fx;
  std::size_t n = link_api_to_book(fx.dir, fx.symbols, fx.origins,
                                   fx.chapters, fx.index);
  // h comes from a file no chapter wrote: no link.
  CHECK(n == 3);
  std::string ns = read_file(fx.dir / "namespacellm.html");
  CHECK(ns.find("f()</h2>\n<p class=\"book-taught\">Taught in <a href=\"../"
                "01-alpha.html#region-a-top\">chapter 1, Alpha &amp; omega</a></p>"
                "\n<div class=\"memitem\">f</div>") != std::string::npos);
  // g's line is in a hidden region: the link goes to the page only.
  CHECK(ns.find("g()</h2>\n<p class=\"book-taught\">Taught in <a href=\"../"
                "01-alpha.html\">chapter 1") != std::string::npos);
  CHECK(ns.find("<main><div id=\"doc-content\">\n<p class=\"book-back\"><a href=\"../"
                "index.html\">&#8592; Back to the book</a></p>") != std::string::npos);
  // Doxygen's markup is rewritten as HTML (tests/tool/test_api_markup.cpp)
  // before the links go in: the anchors lose their names.
  CHECK(ns.find("<a id=\"af\"></a>\n<h2 class=\"memtitle\">f()</h2>") != std::string::npos);
  CHECK(ns.find("localStorage.getItem(\"book-theme\")") != std::string::npos);
  // A class's own page gets the link at the top of its contents.
  std::string s = read_file(fx.dir / "structllm_1_1S.html");
  CHECK(s.find("<div class=\"contents\">\n<p class=\"book-taught\">Taught in "
               "<a href=\"../01-alpha.html#region-a-top\">") != std::string::npos);
  // The main page lists each header with the chapter it starts in: the
  // earliest that writes to it, though 02-beta wrote its first line.
  std::string main = read_file(fx.dir / "index.html");
  CHECK(main.find("<tr><td><code>llm/a.hpp</code></td><td><a href=\"../"
                  "01-alpha.html#region-a-top\">chapter 1, Alpha &amp; omega"
                  "</a></td></tr>") != std::string::npos);
}

TEST_CASE("api-links: a review page is named as one", "[tool][api]") {
  Fixture fx;
  fx.chapters[0].stem = "06r-text-review";
  fx.index.chapters[0].stem = "06r-text-review";
  fx.index.chapters[0].title = "Text review";
  fx.origins = Json::parse(R"({"llm/a.hpp": [[4, "chapters/06r-text-review.md", 21, 3]]})");
  auto t = taught_at(fx.origins, fx.chapters, fx.index, "llm/a.hpp", 6);
  REQUIRE(t.has_value());
  CHECK(t->label == "review page 6r, Text review");
  CHECK(t->href == "06r-text-review.html#region-a-top");
  CHECK_FALSE(taught_at(fx.origins, fx.chapters, fx.index, "llm/a.hpp", 7));
}
