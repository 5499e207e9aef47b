// The parts of reading a chapter that stand apart from extract.cpp's walk
// over its blocks and inlines: a code block (extract_code.cpp) and the
// lint of numbers in prose (prose_lint.cpp). Model phase only.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "chapter.hpp"

namespace litbook {

/// What every part of the walk writes to: the chapter's model and the
/// problems found.
struct ExtractContext {
  Chapter& ch;
  Diagnostics& diags;
  /// Records an id the page writes as the author gave it.
  void element_id(const Json& attr);
  /// Reports each attribute of `attr` that is not data-pos or in `ok`,
  /// naming `what` carries it and what it accepts.
  void check_keys(const Json& attr, std::initializer_list<std::string_view> ok,
                  std::string_view what);
};

/// A code block: the chapter's output block, a region (shown or hidden,
/// with file=, fill= or revise=) or an ordinary block, each checked and
/// recorded in the model.
void read_code_block(ExtractContext& x, const Json& node);

/// Prose text `s` at `line`: each number of two or more digits, or with
/// a fraction or exponent, standing on its own (not inside a word such
/// as C++20 or UTF-8, not a year) goes to ch.unbound; text that holds a
/// "$" or a TeX command (math Pandoc did not pair) goes to ch.stray_tex.
void lint_prose_text(Chapter& ch, const std::string& s, int line);

}  // namespace litbook
