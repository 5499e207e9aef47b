#pragma once
// How a number with fixed decimals is written, defined once: demos print
// it through book::fixed, and `litbook check` writes the demo's published
// value the same way before it compares it with the prose. Header-only, so
// that the tool can use it without linking the demos' library.

#include <cmath>
#include <cstdio>
#include <string>

namespace book {

/// Formats v with a fixed number of decimals; -0.000000 becomes 0.000000.
inline std::string fixed(double v, int decimals = 6) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[512];  // %f of 1e308 has 309 digits before the point
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) {
    s.erase(0, 1);
  }
  return s;
}

}  // namespace book
