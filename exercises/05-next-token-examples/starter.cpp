// Exercise of the next-token-examples chapter: window counts and example
// positions, which compile, run, and are wrong in three places. Fix them
// until the exercise tests pass:
//
//   cmake --build build --target run_exercise_05
#include "exercise.hpp"

#include <string>

namespace exercise {

std::size_t window_count(std::size_t length, const llm::WindowConfig& config) {
  const std::size_t t = config.context, s = config.stride;
  if (length < t) return 0;
  return (length - t) / s + 1;
}

Position example_at(const std::vector<std::size_t>& lengths,
                    const llm::WindowConfig& config, std::size_t i) {
  std::size_t left = i;  // examples still to skip
  for (std::size_t d = 0; d < lengths.size(); ++d) {
    const std::size_t n = exercise::window_count(lengths[d], config);
    if (left < n) return {d, left};
    left -= n;
  }
  throw llm::IndexError("example_at: example " + std::to_string(i) +
                        " is past the last example");
}

}  // namespace exercise
