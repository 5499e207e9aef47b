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
  /// The second run is quick: BOOK_QUICK=1, and its trace.txt must be a
  /// non-empty prefix of the full run's (for demos that train for minutes).
  bool quick = false;
};

/// Runs the demo and replaces `out` atomically with stdout.txt,
/// values.json, tables/, figures/, artifacts/ and trace.txt. Throws Failure on any problem, in
/// which case `out` is left as it was.
void run_demo(const DemoOptions& options);

}  // namespace litbook
