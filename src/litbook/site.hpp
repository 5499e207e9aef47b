// Verifying a built site: every local link and anchor resolves, no KaTeX
// error, no unresolved placeholder.
#pragma once

#include "util.hpp"

namespace litbook {

/// Returns every problem found in the HTML files under `dir`.
std::vector<Diagnostic> verify_site(const fs::path& dir);

}  // namespace litbook
