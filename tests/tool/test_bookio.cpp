// Tests of the demos' support library (src/bookio) that need no demo.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "bookio/bookio.hpp"

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
