// What the workbenches' entry points (book/workbench/NAME/NAME.cpp) share:
// the C interface's error message and the guard that turns a refusal or
// an error of the library into it, and the checks on the doubles that go
// in and out. Included by each NAME.cpp, which is compiled into one
// WebAssembly module and one native program of its own
// (cmake/Workbench.cmake), so each has its own last error.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace workbench {

// The message of the last failed call, "" after a successful one: what
// each NAME.cpp's wb_error() returns.
inline std::string last_error;

// A call that cannot be answered as asked: an input or a result that is
// not usable, in words for the reader.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Refuses the call, saying `why`, unless `ok`.
inline void require(bool ok, const std::string& why) {
  if (!ok) throw Refusal(why);
}

// Runs `body`, the work of one C entry point: 0, the error cleared, when
// it returns; 1, its message kept as the error, when it throws (a
// Refusal or an error of the library). `body` writes the caller's
// buffers last, after every check, so that a failed call writes nothing.
template <class Body>
int answer(Body&& body) {
  try {
    body();
    last_error.clear();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
    return 1;
  }
}

// The verdict of a wb_matches_* check for the native test program: 0 when
// `check()` is true, 1 when it is false or throws.
template <class Check>
int verdict(Check&& check) {
  try {
    return check() ? 0 : 1;
  } catch (const std::exception&) {
    return 1;
  }
}

// Whether each of the `n` doubles at `values` is a finite number.
inline bool all_finite(const double* values, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

inline bool all_finite(const std::vector<double>& values) {
  return all_finite(values.data(), values.size());
}

// Whether `a` and `b` hold the same doubles, bit for bit.
inline bool same_bits(const std::vector<double>& a,
                      const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Copies `from` into the caller's buffer `to`.
inline void copy_out(const std::vector<double>& from, double* to) {
  if (!from.empty()) std::memcpy(to, from.data(), from.size() * sizeof(double));
}

}  // namespace workbench
