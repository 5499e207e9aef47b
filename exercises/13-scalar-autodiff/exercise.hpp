// What the scalar-autodiff chapter's exercise asks for: the backward pass
// over a computation graph written as a list of nodes. The exercise tests
// (tests.cpp) call it; starter.cpp defines it with three mistakes for the
// reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

namespace exercise {

/// One node of a graph: the nodes it was computed from (by position in
/// the list, always earlier than this node's own) and d(node)/d(input)
/// for each, as llm::Value records them in the forward pass. A leaf has
/// no inputs.
struct Node {
  std::vector<std::size_t> inputs;
  std::vector<double> local_grads;
};

/// d(nodes[output])/d(nodes[i]) for every i, as llm::Value::backward
/// computes them: seed the output with 1, then visit the nodes from the
/// output back to the first, each sending its gradient times each local
/// derivative to its inputs, where the contributions add up.
std::vector<double> gradients(const std::vector<Node>& nodes,
                              std::size_t output);

}  // namespace exercise
