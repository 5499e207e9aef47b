// What the evaluation chapter's exercise asks for: the windows that
// score every target of a document exactly once. The exercise tests
// (tests.cpp) call it; starter.cpp defines it with three mistakes for the
// reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

#include "llm/evaluation.hpp"

namespace exercise {

/// One window: L input ids and, for each, the id after it.
struct Window {
  std::vector<llm::TokenId> inputs;
  std::vector<llm::TokenId> targets;
  bool operator==(const Window&) const = default;
};

/// The windows of llm::document_windows for one document of n ids:
/// window j holds the L = min(T, n - 1 - jT) ids from jT on as inputs
/// and the L ids after them as targets, for j = 0, 1, ... while jT < n - 1.
std::vector<Window> windows(const std::vector<llm::TokenId>& doc,
                            std::size_t context);

}  // namespace exercise
