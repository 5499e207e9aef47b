// The HTML tag scanner that api-links and the search index share
// (src/litbook/html_tag.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "html_tag.hpp"
#include "search.hpp"

using namespace litbook;

TEST_CASE("parse_tag reads a start tag's name and attributes",
          "[html-tag]") {
  const std::string html =
      "x<A Href=\"a>b\" class='k m' checked data-n=3>y";
  std::size_t at = 1;
  auto t = parse_tag(html, at);
  REQUIRE(t);
  CHECK(t->name == "a");
  CHECK_FALSE(t->end);
  CHECK_FALSE(t->self_closed);
  REQUIRE(t->get("href") != nullptr);
  CHECK(*t->get("href") == "a>b");  // a quoted value may hold '>'
  CHECK(t->has("checked"));
  CHECK(t->get("checked") == nullptr);
  REQUIRE(t->get("data-n") != nullptr);
  CHECK(*t->get("data-n") == "3");
  CHECK(t->has_class("k"));
  CHECK(t->has_class("m"));
  CHECK_FALSE(t->has_class("k m"));
  CHECK(html.substr(at) == "y");
}

TEST_CASE("parse_tag reads end and self-closed tags, and refuses what is "
          "not a tag", "[html-tag]") {
  std::size_t at = 0;
  auto end = parse_tag("</Div >", at);
  REQUIRE(end);
  CHECK(end->end);
  CHECK(end->name == "div");
  CHECK(at == 7);

  at = 0;
  auto br = parse_tag("<br/>", at);
  REQUIRE(br);
  CHECK(br->self_closed);
  CHECK(at == 5);

  for (const char* text : {"< 2", "<3", "<a href=\"x", "<p class=x"}) {
    INFO(text);
    at = 0;
    CHECK_FALSE(parse_tag(text, at));
    CHECK(at == 0);
  }
}

TEST_CASE("declaration_end skips comments, declarations and processing "
          "instructions", "[html-tag]") {
  CHECK(declaration_end("<!-- a > b -->c", 0) == 14);
  CHECK(declaration_end("<!DOCTYPE html>c", 0) == 15);
  CHECK(declaration_end("<?xml v?>c", 0) == 9);
  CHECK(declaration_end("<!-- open", 0) == 9);  // to the end
  CHECK(declaration_end("<p>", 0) == 0);
}

TEST_CASE("search: a '<' that starts no tag is text", "[search][html-tag]") {
  auto s = page_sections("<article><p>1 < 2 <!-- note --> and 3</p></article>");
  REQUIRE(s.size() == 1);
  CHECK(s[0].text == "1 < 2 and 3");
}
