// Writing HTML from the simplified Pandoc tree, with the book's
// constructs (listings, output, tables, figures, callouts, exercises,
// checked values) turned into their reader-facing form.
//
// The tree gives the page its structure and prose; a construct's
// attributes are read once, by the model (extract.cpp). The writer finds
// a listing's Region, an item's number (with an exercise's title and
// tests), a workbench and a checkpoint (with its tests) in the model by
// the line of the block's fence (attr_line; Chapter::region_at,
// numbered_at, workbench_at, checkpoint_at), and so each div's class
// (div_at, with whether it is an answer) and each code block's kind (the
// output block, region_at); a checked value it finds by its span's source
// range (value_at). So it neither re-reads their attributes,
// re-classifies them, nor counts along with extract. An element's own
// id, classes and attributes it writes back out as Pandoc does, from
// own_attr.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "api.hpp"
#include "book.hpp"
#include "chapter.hpp"

namespace litbook {

/// What the writer needs beyond the tree. Callbacks keep it independent of
/// where highlighted code, rendered math and demo outputs come from.
struct HtmlContext {
  const Chapter* chapter = nullptr;
  const BookIndex* index = nullptr;
  /// Region name -> listing facts written by tangle ("file", "previous",
  /// "origin", "slot").
  Json listings = Json::object();
  /// The API reference's symbols (empty: listings link nothing).
  const std::vector<ApiSymbol>* api = nullptr;
  /// Highlighted HTML (a div.sourceCode, with `id` when not empty).
  std::function<std::string(const std::string& lang, const std::string& code,
                            const std::string& id)>
      highlight;
  /// Whether `highlight` colours this language (else a plain block).
  std::function<bool(const std::string& lang)> highlights;
  std::function<std::string(const std::string& tex, bool display)> math;
  std::function<std::string(const std::string& name)> table;   ///< HTML
  std::function<std::string(const std::string& name)> figure;  ///< SVG
};

class HtmlWriter {
public:
  explicit HtmlWriter(const HtmlContext& ctx) : ctx_(ctx) {}
  std::string blocks(const Json& list);
  std::string inlines(const Json& list);
  /// Footnotes collected while writing, as a closing section.
  std::string footnotes() const;
  /// Whether a block is an `answer` div (of an exercise, a checkpoint or
  /// a self-check question), as the model read the div.
  bool answer_div(const Json& block) const;

private:
  std::string block(const Json& node);
  std::string inline_node(const Json& node);
  std::string code_block(const Json& node);
  std::string listing(const Region& r);
  std::string api_links(const Json& facts) const;
  std::string div(const Json& node);
  std::string table_div(const std::string& name, const Json& attr,
                        const Json& content);
  std::string figure_div(const std::string& name, const Json& attr,
                         const Json& content);
  std::string caption_div(const std::string& caption, const Json& attr,
                          const Json& content);
  std::string workbench_div(const NameAt& wb, const Json& attr,
                            const Json& content);
  std::string exercise_div(const Numbered& n, const Json& content);
  std::string table(const Json& node);
  std::string link(const Json& node);
  std::string span(const Json& node);
  std::string attrs(const Json& attr, std::string extra_class = {}) const;
  const Numbered* numbered(const Json& attr) const;
  const NameAt* workbench(const Json& attr) const;
  const Checkpoint* checkpoint(const Json& attr) const;
  std::string reference_label(const std::string& target) const;

  const HtmlContext& ctx_;
  std::vector<std::string> notes_;
};

/// The HTML of a checkpoint div. The page reads as plain text without
/// JavaScript (the question, the steps, the answer collapsed); book.js's
/// progress code adds the fields and boxes into the empty entry slots.
/// Its kind and tests as the model read them.
std::string checkpoint_html(HtmlWriter& w, const Checkpoint& checkpoint,
                            const Json& content);

/// The HTML of a self-check or failure-modes div: a callout, the answers
/// collapsed under their questions.
std::string ending_html(HtmlWriter& w, const std::string& kind,
                        const Json& content);

/// A simple line diff (longest common subsequence) in unified style.
std::string line_diff(const std::string& before, const std::string& after);

/// Subset of Pandoc's template language: $var$, $if(v)$..$else$..$endif$,
/// $for(v)$..$endfor$ (the item is $v$ inside the loop), $$ for a dollar.
struct TemplateValue {
  std::string text;
  std::vector<std::string> list;
  bool is_list = false;
};
using TemplateVars = std::map<std::string, TemplateValue>;
std::string apply_template(const std::string& tmpl, const TemplateVars& vars,
                           const std::string& template_name);

}  // namespace litbook
