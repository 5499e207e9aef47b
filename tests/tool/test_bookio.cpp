// Tests of the demos' support library (src/bookio) that need no demo.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "bookio/bookio.hpp"
#include "bookio/escape.hpp"

TEST_CASE("book::escape_markup escapes &, <, > and \" and nothing else",
          "[tool][bookio]") {
  // Each of the four becomes its entity; ' stays as it is (escape.hpp
  // says why).
  CHECK(book::escape_markup("<a href=\"x\">Tom & Jerry's</a>") ==
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry's&lt;/a&gt;");
  // An entity in the input is text, so its & is escaped again: the page
  // shows "&amp;" as written.
  CHECK(book::escape_markup("&amp;") == "&amp;amp;");
  // UTF-8 bytes are copied: "café ≤ x" is c a f 0xC3 0xA9, a space,
  // 0xE2 0x89 0xA4, a space and x; no byte of a multi-byte character is
  // below 0x80, so none can be one of the four.
  const std::string utf8 = "caf\xC3\xA9 \xE2\x89\xA4 x";
  CHECK(book::escape_markup(utf8) == utf8);
  CHECK(book::escape_markup("a<\xC3\xA9>'") == "a&lt;\xC3\xA9&gt;'");
  CHECK(book::escape_markup("") == "");
}

TEST_CASE("book::to_svg escapes a plot's title and labels",
          "[tool][bookio]") {
  book::Plot plot{.title = "loss's <min>",
                  .x_label = "step & \"epoch\"",
                  .y_label = "\xC3\xA9",
                  .series = {{.label = "a'<b", .x = {0, 1}, .y = {1, 2}}}};
  const std::string svg = book::to_svg(plot);
  CHECK(svg.find("<title>loss's &lt;min&gt;</title>") != std::string::npos);
  CHECK(svg.find(">step &amp; &quot;epoch&quot;</text>") !=
        std::string::npos);
  CHECK(svg.find(">\xC3\xA9</text>") != std::string::npos);
  CHECK(svg.find(">a'&lt;b</text>") != std::string::npos);
}

TEST_CASE("book::fmt formats one double and rejects other conversions",
          "[tool][bookio]") {
  // printf's own rounding: 1.5e-7 with one decimal of mantissa.
  CHECK(book::fmt("%.1e", 1.5e-7) == "1.5e-07");
  CHECK(book::fmt("%g", 0.5) == "0.5");
  CHECK(book::fmt("%.10f", 0.89) == "0.8900000000");
  CHECK(book::fmt("100%% of %.0f", 3.0) == "100% of 3");
  // A double passed to %x or %d is undefined behaviour; chapter 01's
  // byte table once printed garbage through it that differed between -O0
  // and -O2. Each of these must be refused, not formatted.
  for (const char* bad : {"0x%02X", "%d", "%s", "no conversion",
                          "%f and %f", "%"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(book::fmt(bad, 1.0), std::invalid_argument);
  }
  CHECK_THROWS_WITH(book::fmt("%d", 1.0),
                    "book::fmt: format '%d' must hold one conversion of a "
                    "double (%f, %e, %g or %a)");
}

// out_dir() reads LITBOOK_OUT once per process and these tests run with it
// unset, so trace and artifact only validate; run-demo's tool tests cover
// the files they write.
TEST_CASE("book::quick, trace and artifact check their input",
          "[tool][bookio][demo]") {
  ::unsetenv("BOOK_QUICK");
  CHECK_FALSE(book::quick());
  ::setenv("BOOK_QUICK", "1", 1);
  CHECK(book::quick());
  ::setenv("BOOK_QUICK", "0", 1);
  CHECK_FALSE(book::quick());
  ::unsetenv("BOOK_QUICK");
  CHECK_NOTHROW(book::trace("step 1 0x1.8p+1"));
  CHECK_THROWS_WITH(book::trace("two\nlines"),
                    "bookio: trace: a trace line holds no newline");
  CHECK_NOTHROW(book::artifact("model.params", "bytes"));
  CHECK_THROWS_WITH(book::artifact("../escape", "bytes"),
                    "bookio: invalid artifact name '../escape'");
}

TEST_CASE("book::output_path finds another demo's file or says why not",
          "[tool][bookio][demo]") {
  char dir_template[] = "/tmp/bookio-outputs-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  ::unsetenv("BOOK_OUTPUTS");
  CHECK_THROWS_WITH(book::output_path("29-training", "artifacts/model.params"),
                    Catch::Contains("BOOK_OUTPUTS is not set") &&
                        Catch::Contains("29-training/artifacts/model.params"));
  ::setenv("BOOK_OUTPUTS", dir.c_str(), 1);
  CHECK_THROWS_WITH(book::output_path("29-training", "artifacts/model.params"),
                    Catch::Contains(dir + "/29-training/artifacts/model.params "
                                          "cannot be opened") &&
                        Catch::Contains("demo.reads name 29-training"));
  const std::string sub = dir + "/29-training/artifacts";
  REQUIRE(std::system(("mkdir -p " + sub + " && printf w > " + sub +
                       "/model.params").c_str()) == 0);
  CHECK(book::output_path("29-training", "artifacts/model.params") ==
        sub + "/model.params");
  ::unsetenv("BOOK_OUTPUTS");
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}
