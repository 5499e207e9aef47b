// Check: does the prose still say what the program prints?
#pragma once

#include "book.hpp"
#include "chapter.hpp"

namespace litbook {

/// What a chapter's demo produced (build/out/NN-slug).
struct DemoOutputs {
  bool present = false;
  std::string stdout_text;
  Json values = Json::object();
  fs::path dir;
  bool has_table(const std::string& name) const;
  bool has_figure(const std::string& name) const;
};

DemoOutputs load_outputs(const fs::path& dir);

/// The text a checked value should show, written the way `written` is
/// (same decimals, exponent form, thousands separators). Returns an error
/// message instead when the value cannot be shown that way.
struct Expected {
  std::string text;
  std::string error;
};
Expected expected_value_text(const Json& value, const std::string& written);

/// The chapter's table and figure divs that name something the demo did
/// not publish into `out.dir`. Check reports them, and render refuses them
/// with the same messages before writing anything.
std::vector<Diagnostic> missing_placements(const Chapter& ch,
                                           const DemoOutputs& out);

/// Every difference between the chapter and its demo, plus unbound
/// numbers and broken links. An empty result means the chapter passes.
std::vector<Diagnostic> check_chapter(const Chapter& ch,
                                      const DemoOutputs& out,
                                      const BookIndex& index);

/// Rewrites the output block and checked values from the program, in
/// place (atomically). Returns the number of edits made.
int update_chapter(const Chapter& ch, const DemoOutputs& out);

/// What book.yaml's `require:` asks of every chapter ("checkpoints",
/// "chapter-end"), reported at the chapter's line 1.
void check_required(const Chapter& ch, const std::vector<std::string>& require,
                    Diagnostics& diags);

/// Each workbench div names a workbench of book.yaml, once a page, and
/// each experiment step's `when` names an event one of the page's
/// workbenches reports; each problem at its line.
void check_workbenches(const Chapter& ch, const std::vector<Workbench>& known,
                       Diagnostics& diags);

}  // namespace litbook
