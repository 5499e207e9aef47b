// The chapter model: what tangle, check and render know about a chapter.
//
// Pandoc is the only Markdown parser. `load_chapter` runs it once with
// source positions, simplifies the tree (drops the position wrappers Pandoc
// adds around every word, keeps positions where a diagnostic needs them)
// and extracts the book's constructs: code regions, the output block,
// checked values, placed tables and figures, links, math and headings.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util.hpp"

namespace litbook {

using Json = nlohmann::json;

/// A span of the chapter source (1-based line and column, in code points).
struct SourceRange {
  int line = 0, col = 0, end_line = 0, end_col = 0;
  bool operator==(const SourceRange&) const = default;
};

/// Parses Pandoc's "file@L:C-L:C[;L:C-L:C...]" into its outer range.
std::optional<SourceRange> parse_data_pos(std::string_view pos);

/// How the build runs a chapter's demo: the front matter's `demo:` map.
struct DemoSettings {
  int timeout = 60;                ///< seconds the demo may run
  bool quick = false;              ///< second run with BOOK_QUICK=1 (trace prefix)
  std::vector<std::string> reads;  ///< stems of demos whose files it reads
  bool operator==(const DemoSettings&) const = default;
};

/// A fenced code block with a `region`, `fill` or `revise` attribute.
struct Region {
  std::string name;    ///< the region's own name
  std::string file;    ///< target file under snippets/ (append regions)
  std::string fill;    ///< placeholder this region fills
  std::string revise;  ///< earlier region this one replaces
  bool hidden = false;
  /// The first class but "hidden"; a region without one is C++, as
  /// every file it can be tangled into is (the HTML writer highlights
  /// the listing as this language).
  std::string lang = "cpp";
  std::string code;
  int line = 0;        ///< line of the opening fence
};

/// The chapter's output block.
struct OutputBlock {
  std::string text;
  int open_line = 0;   ///< line of the opening fence
  int close_line = 0;  ///< line of the closing fence
  std::string indent;  ///< indentation of the fence
};

/// A bracketed span quoting a published value: [0.25]{value=name}.
struct ValueRef {
  std::string name;
  std::string text;
  SourceRange range;  ///< the span's own, whole range (see value_at)
};

/// A `::: {table=NAME}` or `::: {figure=NAME}` div.
struct Placement {
  std::string kind;  ///< "table" or "figure"
  std::string name;
  bool has_caption = false;
  int line = 0;
};

struct LinkRef {
  std::string target;
  int line = 0;
  bool bare = false;  ///< no text: the page shows the target's number
};

/// A figure, table or exercise with its number in the chapter, in
/// document order: "Figure 29.1", "Table 25.2", "Exercise 25.3".
struct Numbered {
  std::string kind;    ///< "Figure", "Table" or "Exercise"
  std::string anchor;  ///< its id on the page ("figure-curves"), or empty
  std::string label;   ///< "Figure 29.1"
  int line = 0;
  std::string title = {};  ///< an exercise's title=, or empty
  std::string tests = {};  ///< an exercise's tests= (its test command)
};

struct MathRef {
  std::string tex;
  bool display = false;
  int line = 0;
};

struct Heading {
  std::string id;
  std::string text;
  int level = 1;
  int line = 0;
};

/// A learner checkpoint: a `prediction` div holding an `answer`, or an
/// `experiment`, `implement` or `explain` div (see checkpoint_kind in
/// classify.hpp).
struct Checkpoint {
  std::string kind;  ///< "predict", "experiment", "implement" or "explain"
  int line = 0;      ///< line of the div's opening fence
  std::optional<std::string> tests = {};  ///< its tests="COMMAND", if any
};

/// A name a chapter gives at a line: the workbench of a
/// `::: {.workbench name=NAME}` div, or the event an experiment step
/// waits for (`[...]{when=EVENT}`).
struct NameAt {
  std::string name;
  int line = 0;
  std::string anchor = {};  ///< a workbench's id on the page
};

/// A number in prose that is neither bound, nor literal, nor exempt.
struct UnboundNumber {
  std::string text;
  int line = 0;
};

/// What a div is, as classify_div (classify.hpp) decides it. The model
/// keeps each div's class, so that the writer does not decide it again.
enum class DivKind {
  Placement,   ///< `::: {table=NAME}` or `::: {figure=NAME}`
  Caption,     ///< `::: {caption="..."}` around a Markdown table
  Checkpoint,  ///< predict, experiment, implement or explain
  Ending,      ///< self-check or failure-modes
  Callout,     ///< prediction (without an answer), misconception, note
  Workbench,   ///< `::: {.workbench name=NAME}`
  Exercise,    ///< `::: {.exercise}` holding an answer
  Plain,       ///< any other div, written as Pandoc writes it
};

/// A div's kind and what the kind needs from its attributes.
struct DivClass {
  DivKind kind = DivKind::Plain;
  /// Placement: the table's or figure's name; Caption: the caption;
  /// Checkpoint and Ending: the kind ("predict", "self-check", ...);
  /// Callout: its class.
  std::string name;
  std::string title;    ///< Callout: the heading the page shows
  bool figure = false;  ///< Placement: a figure rather than a table
  /// An `answer` div (is_answer, classify.hpp), whatever its kind: the
  /// part of an exercise, checkpoint or self-check question the page
  /// collapses.
  bool answer = {};
};

/// A div's class, at the line of its opening fence.
struct DivAt {
  int line = 0;
  DivClass what;
};

struct Chapter {
  fs::path path;          ///< chapters/NN-slug.md
  std::string display;    ///< path as shown in diagnostics
  std::string stem;       ///< NN-slug
  std::string id;
  std::string title;
  int part = 0;
  Json meta;              ///< Pandoc metadata (objectives, prerequisites)
  DemoSettings demo;      ///< front matter `demo:` (defaults when absent)
  Json blocks;            ///< simplified Pandoc blocks
  std::vector<Region> regions;
  std::optional<OutputBlock> output;
  std::vector<ValueRef> values;
  std::vector<Placement> placements;
  std::vector<LinkRef> links;
  std::vector<MathRef> math;
  std::vector<Heading> headings;
  /// The ids authors give other blocks and spans (`::: {#id}`, a code
  /// block's `#id`, `[text]{#id}`), which the page keeps.
  std::vector<std::string> element_ids;
  std::vector<Numbered> numbered;  ///< figures, tables, exercises in order
  std::vector<Checkpoint> checkpoints;
  std::vector<NameAt> workbenches;  ///< the workbench divs, in order
  std::vector<DivAt> divs;  ///< every div extract walked, classified
  std::vector<NameAt> step_events;  ///< every experiment step's `when`
  std::vector<UnboundNumber> unbound;
  std::vector<UnboundNumber> stray_tex;  ///< "$" or "\cmd" outside math
  /// The words of the prose in order, outside code, math, links and value
  /// spans; each of those leaves an empty word, so that no two words
  /// around it look adjacent (the lint of chapter mentions reads them).
  std::vector<UnboundNumber> prose_words;
  /// The same for the front matter's objectives and prerequisites, each
  /// word at line 1 (where front-matter problems are reported).
  std::vector<UnboundNumber> meta_words;

  Location at(int line) const { return {display, line}; }
  /// The region whose opening fence is at `line` (the writer finds a
  /// listing's region by its block's position), or nullptr.
  const Region* region_at(int line) const;
  /// The figure, table or exercise whose div opens at `line`, or nullptr.
  const Numbered* numbered_at(int line) const;
  /// The workbench whose div opens at `line`, or nullptr.
  const NameAt* workbench_at(int line) const;
  /// The checkpoint (or chapter-end block) whose div opens at `line`.
  const Checkpoint* checkpoint_at(int line) const;
  /// The class of the div that opens at `line`, or nullptr.
  const DivClass* div_at(int line) const;
  /// The checked value whose span covers exactly `range`, or nullptr
  /// (and for an empty range: a span without a position has no key).
  const ValueRef* value_at(const SourceRange& range) const;
};

/// Runs Pandoc on a chapter and returns the simplified document
/// ({"meta":..., "blocks":...}); throws Failure with file:line.
Json parse_with_pandoc(const fs::path& path);

/// Drops the position wrappers Pandoc's sourcepos adds around every word
/// and paragraph, keeping positions where diagnostics need them.
Json simplify_document(Json pandoc_doc);

/// Builds the model from a simplified document. Validates the front matter
/// and every construct, reporting all problems at once.
Chapter build_chapter(const fs::path& path, const Json& doc);

/// parse_with_pandoc + build_chapter, or the cached simplified document
/// in model_dir (written by `litbook parse`) when model_dir is given.
Chapter load_chapter(const fs::path& path,
                     const std::optional<fs::path>& model_dir = {});

/// Plain text of a list of Pandoc inlines.
std::string inline_text(const Json& inlines);

/// The id of a region's listing on its page: region-NAME, or
/// region-NAME-revised for a revision. Check's anchors and render's ids
/// both come from here.
std::string region_anchor(const std::string& name, bool revision);

/// The chapter's part of an item number: "7" for 07-tensor-storage,
/// "26r" for 26r-attention-review.
std::string item_number_prefix(const std::string& stem);

/// The page id of an exercise: its own id (`{.exercise #ex-strides}`), or
/// exercise-K for the K-th exercise of the chapter.
std::string exercise_anchor(const Json& attr, std::size_t k);

/// Reads an attribute from a Pandoc Attr ([id, classes, [[k, v]...]]).
std::optional<std::string> attr_get(const Json& attr, std::string_view key);
bool attr_has_class(const Json& attr, std::string_view cls);
/// The line a block's or span's `data-pos` starts at, or 0 without one.
int attr_line(const Json& attr);
/// The whole range of a block's or span's `data-pos`, if it has one.
std::optional<SourceRange> attr_range(const Json& attr);

/// An element's own id, classes and attributes as the author wrote them,
/// without the `data-pos` Pandoc adds: what a page writes back out the
/// way Pandoc's html5 writer does. Read in one place, so the writer never
/// reads a Pandoc Attr itself.
struct OwnAttr {
  std::string id;
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, std::string>> attributes;
};
OwnAttr own_attr(const Json& attr);

/// The serialised forms `litbook parse` writes.
Json regions_to_json(const Chapter& ch);
Json index_to_json(const Chapter& ch);

}  // namespace litbook
