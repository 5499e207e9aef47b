// What the next-token-examples chapter's exercise asks for: counting the
// windows of a document and finding example i of a set of documents. The
// exercise tests (tests.cpp) call them; starter.cpp defines them with
// three mistakes for the reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/examples.hpp"

namespace exercise {

/// As llm::window_count: windows of T + 1 ids (T inputs and the id after
/// the last) starting at 0, S, 2S, ... inside a document of `length` ids.
std::size_t window_count(std::size_t length, const llm::WindowConfig& config);

/// Where example i of a set lies: its document and its first input id.
struct Position {
  std::size_t document;
  std::size_t start;
  bool operator==(const Position&) const = default;
};

/// Example i, counting document by document and window by window, as
/// llm::ExampleSet::at; throws llm::IndexError when there are not i + 1
/// examples. `lengths` are the documents' numbers of ids.
Position example_at(const std::vector<std::size_t>& lengths,
                    const llm::WindowConfig& config, std::size_t i);

}  // namespace exercise
