// litbook api-links: Doxygen's markup rewritten into HTML that passes
// html-validate's recommended preset and axe-core. Each rewrite is shown
// on a small hand-written input with the exact output.
#include <catch2/catch.hpp>

#include "api_markup.hpp"

using namespace litbook;

namespace {

std::string clean(std::string_view html, const ApiTitles& titles = {}) {
  return clean_api_markup(html, titles);
}

}  // namespace

TEST_CASE("api markup: void elements lose the XHTML slash", "[tool][api]") {
  CHECK(clean("<p>a<br/>b<br />c</p>") == "<p>a<br>b<br>c</p>");
  CHECK(clean("<meta charset=\"utf-8\"/><link href=\"a.css\" rel=\"stylesheet\"/>") ==
        "<meta charset=\"utf-8\"><link href=\"a.css\" rel=\"stylesheet\">");
  CHECK(clean("<img src=\"a.png\" alt=\"A\"/><hr/>") ==
        "<img src=\"a.png\" alt=\"A\"><hr>");
  // Any other element written self-closed gets an end tag.
  CHECK(clean("<div class=\"x\"/>text") == "<div class=\"x\"></div>text");
}

TEST_CASE("api markup: tags with nothing to fix are copied as written",
          "[tool][api]") {
  std::string_view page =
      "<!DOCTYPE html>\n<!-- a comment with <br/> -->\n"
      "<p class='x'  id=\"a\">T&amp;U <em>v</em></p>\n<input disabled>\n";
  CHECK(clean(page) == page);
  // Script bodies are raw text: nothing in them is a tag.
  CHECK(clean("<script>if (a<b) x = '<br/>';</script>") ==
        "<script>if (a<b) x = '<br/>';</script>");
  // A '<' that starts no tag is text.
  CHECK(clean("<p>a < b</p>") == "<p>a < b</p>");
}

TEST_CASE("api markup: attributes HTML5 does not have go", "[tool][api]") {
  CHECK(clean("<script type=\"text/javascript\" src=\"a.js\"></script>") ==
        "<script src=\"a.js\"></script>");
  // A script of another type keeps it.
  CHECK(clean("<script type=\"module\"></script>") == "<script type=\"module\"></script>");
  CHECK(clean("<table><tbody><tr><td class=\"memItemLeft\" align=\"right\" "
              "valign=\"top\">a</td><td valign=\"bottom\">b</td></tr></tbody></table>") ==
        "<table><tbody><tr><td class=\"memItemLeft\">a</td><td>b</td></tr>"
        "</tbody></table>");
  // Doxygen's anchors repeat the id as a name; an anchor with only a name
  // keeps it as its id.
  CHECK(clean("<a id=\"a1\" name=\"a1\"></a><a name=\"b2\" id=\"b2\"></a>"
              "<a name=\"c3\"></a>") ==
        "<a id=\"a1\"></a><a id=\"b2\"></a><a id=\"c3\"></a>");
}

TEST_CASE("api markup: a header cell without scope heads its column",
          "[tool][api]") {
  CHECK(clean("<table><tbody><tr><th colspan=\"2\">Enumerator</th>"
              "<th scope=\"row\">r</th></tr></tbody></table>") ==
        "<table><tbody><tr><th colspan=\"2\" scope=\"col\">Enumerator</th>"
        "<th scope=\"row\">r</th></tr></tbody></table>");
}

TEST_CASE("api markup: ids, map names and the references to them are valid",
          "[tool][api]") {
  CHECK(valid_id("llm::CheckpointError_map") == "llm__CheckpointError_map");
  CHECK(valid_id("a-b_c9") == "a-b_c9");
  CHECK(valid_id("9lives") == "id-9lives");
  CHECK(valid_id("") == "id-");
  CHECK(clean("<img src=\"a.png\" usemap=\"#llm::E_map\" alt=\"E\"/>\n"
              "<map id=\"llm::E_map\" name=\"llm::E_map\">\n"
              "<area href=\"e.html\" alt=\"E\" coords=\"1,2,3,4\"/>\n</map>") ==
        "<img src=\"a.png\" usemap=\"#llm__E_map\" alt=\"E\">\n"
        "<map id=\"llm__E_map\" name=\"llm__E_map\">\n"
        "<area href=\"e.html\" alt=\"E\" coords=\"1,2,3,4\">\n</map>");
  // A link's fragment follows the id it names; another site's is its own.
  CHECK(clean("<a href=\"p.html#x::y\">p</a><a href=\"https://e.org/#x::y\">e</a>") ==
        "<a href=\"p.html#x__y\">p</a><a href=\"https://e.org/#x::y\">e</a>");
}

TEST_CASE("api markup: rows directly in a table are wrapped in tbody",
          "[tool][api]") {
  CHECK(clean("<table class=\"memname\">\n<tr><td>a</td></tr>\n<tr><td>b</td></tr>\n"
              "</table>") ==
        "<table class=\"memname\">\n<tbody><tr><td>a</td></tr>\n<tr><td>b</td></tr>\n"
        "</tbody></table>");
  // A table with its own sections is left as it is; a nested table gets
  // its own tbody.
  CHECK(clean("<table><thead><tr><th scope=\"col\">h</th></tr></thead><tbody>"
              "<tr><td><table><tr><td>in</td></tr></table></td></tr></tbody></table>") ==
        "<table><thead><tr><th scope=\"col\">h</th></tr></thead><tbody>"
        "<tr><td><table><tbody><tr><td>in</td></tr></tbody></table></td></tr>"
        "</tbody></table>");
  // Rows before an explicit section end the one the pass opened.
  CHECK(clean("<table><tr><td>a</td></tr><tbody><tr><td>b</td></tr></tbody></table>") ==
        "<table><tbody><tr><td>a</td></tr></tbody><tbody><tr><td>b</td></tr>"
        "</tbody></table>");
}

TEST_CASE("api markup: Doxygen's layout divs go into landmarks", "[tool][api]") {
  CHECK(clean("<div id=\"main-nav\"></div>\n"
              "<div id=\"side-nav\" class=\"ui-resizable\">\n<div id=\"nav-tree\">"
              "</div>\n</div>\n<div id=\"doc-content\">\n<div class=\"contents\">"
              "<div>x</div></div>\n</div><!-- doc-content -->") ==
        "<nav aria-label=\"Index\"><div id=\"main-nav\"></div></nav>\n"
        "<nav aria-label=\"Tree of pages\"><div id=\"side-nav\" class=\"ui-resizable\">\n"
        "<div id=\"nav-tree\"></div>\n</div></nav>\n<main><div id=\"doc-content\">\n"
        "<div class=\"contents\"><div>x</div></div>\n</div></main><!-- doc-content -->");
}

TEST_CASE("api markup: the page's title is its h1, and headings do not skip levels",
          "[tool][api]") {
  CHECK(clean("<div class=\"headertitle\"><div class=\"title\">llm::Tensor Class "
              "Reference</div></div>\n<h2>Members</h2><h4>x</h4><h2>y</h2>") ==
        "<div class=\"headertitle\"><h1 class=\"title\">llm::Tensor Class "
        "Reference</h1></div>\n<h2>Members</h2><h3>x</h3><h2>y</h2>");
  // A member index has no title div: its <title> becomes the heading, and
  // the letters under it are one level down.
  CHECK(clean("<title>Tiny: Class Members</title>\n<div class=\"contents\">\n"
              "<h3><a id=\"index_a\"></a>- a -</h3></div>") ==
        "<title>Tiny: Class Members</title>\n<div class=\"header\"><div "
        "class=\"headertitle\"><h1 class=\"title\">Class Members</h1></div></div>\n"
        "<div class=\"contents\">\n<h2><a id=\"index_a\"></a>- a -</h2></div>");
  // A page with a title div gets no second heading.
  CHECK(clean("<title>Tiny: T</title>\n<div class=\"title\">T</div>\n"
              "<div class=\"contents\"></div>") ==
        "<title>Tiny: T</title>\n<h1 class=\"title\">T</h1>\n"
        "<div class=\"contents\"></div>");
}

TEST_CASE("api markup: a link showing only an icon is named after its page",
          "[tool][api]") {
  ApiTitles titles{{"a_8hpp_source.html", "llm/a.hpp Source File"}};
  CHECK(clean("<a href=\"a_8hpp_source.html\"><span class=\"icondoc\"></span></a>"
              "<a class=\"el\" href=\"a_8hpp.html\">a.hpp</a>", titles) ==
        "<a href=\"a_8hpp_source.html\" aria-label=\"llm/a.hpp Source File\">"
        "<span class=\"icondoc\"></span></a><a class=\"el\" href=\"a_8hpp.html\">"
        "a.hpp</a>");
  // Links with text, with an image's alt text, or to a page without a
  // known title are left alone.
  std::string_view kept =
      "<a href=\"a_8hpp_source.html\"><img src=\"i.png\" alt=\"a.hpp\"></a>"
      "<a href=\"elsewhere.html\"><span></span></a>";
  CHECK(clean(kept, titles) == kept);
}

TEST_CASE("api markup: spaces at the ends of lines of text go, but not in pre",
          "[tool][api]") {
  CHECK(clean("<p>one  \ntwo\t\nthree </p>\n<pre>kept  \n</pre>") ==
        "<p>one\ntwo\nthree </p>\n<pre>kept  \n</pre>");
}

TEST_CASE("api markup: a page's title without the project name", "[tool][api]") {
  CHECK(api_page_title("<head><title>Tiny LLM in C++: llm/a.hpp File Reference"
                       "</title></head>") == "llm/a.hpp File Reference");
  CHECK(api_page_title("<title>Main Page</title>") == "Main Page");
  CHECK(api_page_title("<p>no title</p>") == "");
}
