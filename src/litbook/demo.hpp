// Running a chapter's demo: twice, with a time and size limit, and only
// publishing its outputs when both runs agree byte for byte.
#pragma once

#include <chrono>

#include "util.hpp"

namespace litbook {

struct DemoOptions {
  fs::path exe;
  fs::path out;                 ///< build/out/NN-slug
  Location chapter;             ///< where to report problems
  std::chrono::milliseconds timeout{60000};
  std::size_t max_output = 64u << 20;
  int runs = 2;
};

/// Runs the demo and replaces `out` atomically with stdout.txt,
/// values.json, tables/ and figures/. Throws Failure on any problem, in
/// which case `out` is left as it was.
void run_demo(const DemoOptions& options);

}  // namespace litbook
