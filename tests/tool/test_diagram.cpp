// Tests of the SVG drawing helper (src/bookio/diagram.hpp).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "bookio/diagram.hpp"

namespace {

// True when every element opened in `svg` is closed in order: the tags
// of a well-formed document without comments or CDATA, as ours are.
bool balanced(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t i = svg.find('<'); i != std::string::npos;
       i = svg.find('<', i + 1)) {
    const std::size_t end = svg.find('>', i);
    if (end == std::string::npos) return false;
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.empty() || tag.back() == '/') continue;  // <rect .../>
    const bool closing = tag[0] == '/';
    const std::string name =
        tag.substr(closing, tag.find_first_of(" \n", closing) - closing);
    if (!closing) {
      open.push_back(name);
    } else if (open.empty() || open.back() != name) {
      return false;
    } else {
      open.pop_back();
    }
  }
  return open.empty();
}

std::size_t occurrences(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t i = s.find(part); i != std::string::npos;
       i = s.find(part, i + 1)) {
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("a Canvas escapes its text as the pages do",
          "[tool][bookio][diagram]") {
  // Title, desc and text go through book::escape_markup (test_bookio.cpp),
  // so ' stays a ' here too, where the diagram once wrote &#39;.
  book::Canvas c(10, 10, "it's <1>", "a \"b\" & c");
  c.text(0, 0, "q_{k'} & k'");
  const std::string svg = c.svg();
  CHECK(svg.find("<title>it's &lt;1&gt;</title>") != std::string::npos);
  CHECK(svg.find("<desc>a &quot;b&quot; &amp; c</desc>") !=
        std::string::npos);
  CHECK(svg.find("\">k'</tspan><tspan dy=\"-3.60\"> &amp; k'</tspan>") !=
        std::string::npos);
  CHECK(svg.find("&#39;") == std::string::npos);
}

TEST_CASE("a Canvas emits a standalone, accessible, scalable SVG",
          "[tool][bookio][diagram]") {
  book::Canvas c(200, 100, "x < y & z", "a \"desc\"");
  c.rect(1, 2, 3, 4, {.fill = "#fff"});
  c.text(10, 20, "<b>V_{0}</b>");
  c.arrow(0, 0, 50, 50);
  c.arc(10, 90, 60, 20);
  c.bracket(10, 90, 80);
  const std::string svg = c.svg();
  CHECK(balanced(svg));
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                  "viewBox=\"0 0 200.00 100.00\" role=\"img\"", 0) == 0);
  const std::string root = svg.substr(0, svg.find('>'));
  CHECK(root.find("width") == std::string::npos);  // no fixed size
  CHECK(svg.find("<title>x &lt; y &amp; z</title>") != std::string::npos);
  CHECK(svg.find("<desc>a &quot;desc&quot;</desc>") != std::string::npos);
  // Text is escaped; only _{...} becomes markup, a subscript tspan.
  CHECK(svg.find("&lt;b&gt;V<tspan") != std::string::npos);
  CHECK(svg.find(">0</tspan><tspan dy=\"-3.60\">&lt;/b&gt;</tspan>") !=
        std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
}

TEST_CASE("text without a closed _{ stays literal", "[tool][bookio][diagram]") {
  book::Canvas c(10, 10, "t", "d");
  c.text(0, 0, "split_heads a_{b");
  const std::string svg = c.svg();
  CHECK(svg.find(">split_heads a_{b</text>") != std::string::npos);
  CHECK(balanced(svg));
}

TEST_CASE("the three diagrams are well-formed and check their input",
          "[tool][bookio][diagram]") {
  book::BufferDiagram b{.title = "buffer", .cells = {"0", "1", "2", "3"},
                        .band = 2, .jumps = {{0, 2, "+2"}},
                        .marks = {{2, "[1,0]"}, {3, "[1,1]"}},
                        .spans = {{0, 1, "i = 0"}}};
  const std::string buffer = book::to_svg(b);
  CHECK(balanced(buffer));
  CHECK(occurrences(buffer, "<polygon") == 1);  // one arrowhead per jump
  b.marks.push_back({4, "[2,0]"});
  CHECK_THROWS_WITH(book::to_svg(b), "book::to_svg: buffer mark names cell "
                                     "4, but the buffer has 4 cells");

  const book::Matrix m2{"M", 1, 2, {1, 2}}, m4{"W", 1, 4, {1, 2, 3, 4}};
  book::HeadDiagram h{.title = "heads", .input = m4, .heads_in = {m2, m2},
                      .heads_out = {m2, m2}, .concat = m4, .out = m4};
  CHECK(balanced(book::to_svg(h)));
  h.out.cols = 3;
  CHECK_THROWS_AS(book::to_svg(h), std::invalid_argument);

  book::FlowDiagram f{.title = "flow",
                      .stages = {{.label = "x", .edge = "[2]"},
                                 {.label = "f", .edge = "[2]"},
                                 {.label = "+", .add = true, .skip_from = 0}}};
  CHECK(balanced(book::to_svg(f)));
  f.stages[2].skip_from = 2;
  CHECK_THROWS_WITH(book::to_svg(f), "book::to_svg: stage 2 skips from "
                                     "stage 2, expected an earlier stage");
}
