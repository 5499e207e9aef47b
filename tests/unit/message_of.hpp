// Shared by the unit tests that assert an error's exact message: the
// message of the E that f throws, or "no exception" (so a test that
// expected a throw fails with a readable comparison, not a crash).
#pragma once

#include <string>

template <typename E, typename F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "no exception";
}
