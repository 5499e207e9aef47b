// The one way a demo shows an error message: demos do not catch, so a
// demo that wants to quote what a rejected call says asks this helper.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace book {

/// The what() of the E that `call` throws:
///   book::error_message<llm::ShapeError>([&] { (void)t.reshape({6}); })
/// Throws std::logic_error when the call is accepted (nothing thrown); an
/// exception of another type passes through.
template <class E, class F>
std::string error_message(F&& call) {
  try {
    static_cast<void>(std::forward<F>(call)());
  } catch (const E& error) {
    return error.what();
  }
  throw std::logic_error("book::error_message: the call was accepted");
}

}  // namespace book
