// litbook search-index: the plain text and sections taken from a rendered
// page, and the script written for the book.
#include <catch2/catch.hpp>

#include "search.hpp"

using namespace litbook;

namespace {

std::string page(const std::string& body) {
  return "<!DOCTYPE html><html><head><title>T</title><script>var x = 1;</script></head>"
         "<body><header class=\"topbar\">Book title</header>"
         "<nav class=\"sidebar\"><a href=\"a.html\">Sidebar link</a></nav>"
         "<main><article class=\"page\"><header class=\"page-header\"><h1>Chapter</h1></header>"
         "<section class=\"intro-box\"><h2 id=\"intro-title\">In this chapter</h2>"
         "<ul><li>Objective one</li></ul></section>"
         "<nav class=\"page-toc\"><a href=\"#s\">Table of contents</a></nav>"
         "<div class=\"page-body\">" + body + "</div>"
         "<nav class=\"pager\"><a href=\"b.html\">Next chapter</a></nav>"
         "</article></main><p>After the article</p></body></html>";
}

}  // namespace

TEST_CASE("search: sections start at body headings with ids", "[search]") {
  auto s = page_sections(page(
      "<p>Intro text.</p><h2 id=\"first\">First <em>part</em></h2><p>Alpha</p>"
      "<h3 id=\"sub\">Sub</h3><p>Beta</p><h3>No id</h3><p>Gamma</p>"
      "<h4 id=\"deep\">Deep</h4><p>Delta</p>"));
  REQUIRE(s.size() == 3);
  CHECK(s[0].id.empty());
  CHECK(s[0].text == "In this chapter Objective one Intro text.");
  CHECK(s[1].id == "first");
  CHECK(s[1].heading == "First part");
  CHECK(s[1].text == "Alpha");
  CHECK(s[2].id == "sub");
  CHECK(s[2].text == "Beta No id Gamma Deep Delta");
}

TEST_CASE("search: navigation, header, scripts and chrome are left out", "[search]") {
  auto s = page_sections(page("<p>Body</p><button>Copy</button>"));
  REQUIRE(s.size() == 1);
  for (const char* word : {"Sidebar", "Book title", "Chapter", "Table of contents",
                           "Next chapter", "After the article", "Copy", "var x"}) {
    CHECK(s[0].text.find(word) == std::string::npos);
  }
}

TEST_CASE("search: math keeps its TeX as code, not KaTeX's visual copy", "[search]") {
  auto s = page_sections(page(
      "<p>Let <span class=\"katex\"><span class=\"katex-mathml\"><math><semantics>"
      "<mrow><msub><mi>x</mi><mi>i</mi></msub><mo>&lt;</mo><mi>n</mi></mrow>"
      "<annotation encoding=\"application/x-tex\">x_i &lt; n</annotation>"
      "</semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\">"
      "<span class=\"base\"><span>VISUAL</span></span></span></span> hold.</p>"
      "<p>Then</p><span class=\"katex-display\"><span class=\"katex\"><span class=\"katex-mathml\">"
      "<math display=\"block\"><semantics><mrow><mi>y</mi></mrow>"
      "<annotation encoding=\"application/x-tex\">\\sum_t y</annotation></semantics></math>"
      "</span></span></span><p>ends.</p>"));
  REQUIRE(s.size() == 1);
  // The prose shows an inline formula by its symbols, a display one not at all.
  CHECK(s[0].text == "In this chapter Objective one Let xi<n hold. Then ends.");
  // The TeX of both is searchable.
  CHECK(s[0].code == "x_i < n \\sum_t y");
  CHECK(s[0].text.find("VISUAL") == std::string::npos);
  CHECK(s[0].code.find("VISUAL") == std::string::npos);
}

TEST_CASE("search: entities, word breaks, figures, diffs and footnote marks", "[search]") {
  auto s = page_sections(page(
      "<p>a&amp;b &lt;c&gt; &#233;t&#xE9; &quot;q&quot;&nbsp;z</p>"
      "<ul><li>one</li><li>two</li></ul><p>in<code>line</code>d</p>"
      "<figure class=\"listing\"><figcaption><span class=\"listing-file\">llm/t.hpp</span>"
      "<span class=\"listing-region\">tensor-class</span></figcaption>"
      "<pre><code><span class=\"dt\">int</span> x;\n<span>std::</span>vector y;</code></pre>"
      "<details class=\"listing-diff\"><summary>What changed</summary>-old</details></figure>"
      "<figure class=\"book-figure\"><svg><text>axis label</text><svg><text>inner</text></svg></svg>"
      "<figcaption>Caption</figcaption></figure>"
      "<p>Note<a href=\"#fn1\" class=\"footnote-ref\"><sup>1</sup></a> end.</p>"));
  REQUIRE(s.size() == 1);
  const std::string& t = s[0].text;
  CHECK(t.find("a&b <c> \u00e9t\u00e9 \"q\" z") != std::string::npos);
  CHECK(t.find("one two") != std::string::npos);
  CHECK(t.find("inlined") != std::string::npos);
  // A listing's caption is prose; its code is searchable but not shown,
  // and highlighting spans do not split its tokens.
  CHECK(t.find("llm/t.hpp tensor-class Caption") != std::string::npos);
  CHECK(t.find("int") == std::string::npos);
  CHECK(s[0].code == "int x; std::vector y;");
  CHECK(t.find("What changed") == std::string::npos);
  CHECK(t.find("axis label") == std::string::npos);
  CHECK(t.find("inner") == std::string::npos);
  CHECK(t.find("Caption") != std::string::npos);
  CHECK(t.find("Note end.") != std::string::npos);
}

TEST_CASE("search: the index script lists every chapter in book order", "[search]") {
  fs::path site = fs::temp_directory_path() / "litbook-search-test";
  fs::remove_all(site);
  fs::create_directories(site);
  BookIndex index;
  index.title = "Book";
  index.parts.push_back({2, "Tensors", {"07-a", "08-b"}});
  index.chapters.push_back({"07-a", "a", "Storage \"A\"", 2, {}, Json::array(), {}});
  index.chapters.push_back({"08-b", "b", "Views", 2, {}, Json::array(), {}});
  write_atomic(site / "07-a.html", page("<h2 id=\"x\">X</h2><p>odometer</p>"));

  SECTION("a missing page is an error naming it") {
    REQUIRE_THROWS_WITH(search_index_script(index, site),
                        Catch::Contains("08-b.html"));
  }
  SECTION("the script assigns one global") {
    write_atomic(site / "08-b.html", page("<p>views</p>"));
    std::string js = search_index_script(index, site);
    const std::string prefix = "window.BOOK_SEARCH_INDEX = ";
    auto at = js.find(prefix);
    REQUIRE(at != std::string::npos);
    REQUIRE(js.size() > 2);
    CHECK(js.substr(js.size() - 2) == ";\n");
    Json j = Json::parse(js.substr(at + prefix.size(), js.size() - 2 - at - prefix.size()));
    REQUIRE(j["pages"].size() == 2);
    CHECK(j["pages"][0]["url"] == "07-a.html");
    CHECK(j["pages"][0]["title"] == "Storage \"A\"");
    CHECK(j["pages"][0]["number"] == "07");
    CHECK(j["pages"][0]["part"] == "Part 2: Tensors");
    CHECK(j["pages"][0]["sections"][1]["id"] == "x");
    CHECK(j["pages"][0]["sections"][1]["text"] == "odometer");
    CHECK(j["pages"][1]["url"] == "08-b.html");
  }
  SECTION("with a cache, a changed page is read again, an unchanged one not") {
    write_atomic(site / "08-b.html", page("<p>views</p>"));
    fs::path cache = site / "cache";
    std::string plain = search_index_script(index, site);
    CHECK(search_index_script(index, site, cache) == plain);
    CHECK(fs::exists(cache / "07-a.json"));
    CHECK(search_index_script(index, site, cache) == plain);

    // A cache entry is used only while its page is unchanged: doctor one,
    // and the doctored text shows; rewrite its page, and the new text does.
    std::string entry = read_file(cache / "08-b.json");
    entry.replace(entry.find("views"), 5, "STALE");
    write_atomic(cache / "08-b.json", entry);
    CHECK(search_index_script(index, site, cache).find("STALE") != std::string::npos);
    write_atomic(site / "08-b.html", page("<p>broadcasting rules</p>"));
    std::string js = search_index_script(index, site, cache);
    CHECK(js.find("STALE") == std::string::npos);
    CHECK(js.find("broadcasting rules") != std::string::npos);
    CHECK(js == search_index_script(index, site));
  }
  fs::remove_all(site);
}
