// What each fenced block of a chapter is, decided in one place. Extract
// (whose model check, tangle and search read) dispatches on these
// functions and keeps what it decided in the model (Chapter::divs,
// regions, output); the HTML writer renders from the model, so a block
// that check reads as one kind is rendered as that same kind: the two
// cannot drift apart. Only a writer without a chapter (tested alone)
// classifies for itself.
#pragma once

#include <string>

#include "chapter.hpp"

namespace litbook {

/// Classifies a div from its attributes and content. The order is the
/// precedence: a div with both a table and a caption is a placement.
DivClass classify_div(const Json& attr, const Json& content);

/// The checkpoint a div declares: "predict" (a `prediction` holding an
/// `answer`), "experiment", "implement" or "explain"; empty for any other.
std::string checkpoint_kind(const Json& attr, const Json& content);

/// The block a chapter ends with that a div declares: "self-check" (a
/// numbered list of questions, each with its `answer`) or "failure-modes"
/// (a bulleted list, each item opening with the mode's name in bold);
/// empty for any other div.
std::string ending_kind(const Json& attr);

enum class CodeKind {
  Output,        ///< the chapter's `{.output}` block
  Region,        ///< a code region the book shows (region, fill, revise, file)
  HiddenRegion,  ///< the same with `.hidden`: tangled, never shown
  Plain,         ///< an ordinary code block
};

CodeKind classify_code_block(const Json& attr);

/// Whether a block is an `::: answer` div (of an exercise, a checkpoint
/// or a self-check question).
bool is_answer(const Json& block);
/// Whether any of the blocks is one.
bool has_answer(const Json& blocks);

enum class SpanKind {
  Value,    ///< `[0.25]{value=NAME}`: a number checked against the demo
  Literal,  ///< `[4096]{.lit}`: a number the prose states as it is
  When,     ///< `[...]{when=EVENT}`: an experiment step's event
  Plain,    ///< any other span, written as Pandoc writes it
};

/// A span's kind and its name (Value: the value's name; When: the event).
struct SpanClass {
  SpanKind kind = SpanKind::Plain;
  std::string name;
};

SpanClass classify_span(const Json& attr);

/// Where a link points: `chapter:ID#ANCHOR` (another chapter, by id),
/// `#ANCHOR` (this page), or anything else (not checked offline).
struct LinkTarget {
  enum class Kind { Chapter, Local, External };
  Kind kind = Kind::External;
  std::string chapter;  ///< Chapter: the chapter's id
  std::string anchor;   ///< Chapter and Local: the anchor, or ""
};

LinkTarget parse_link_target(const std::string& target);

/// The page id of a table or figure the demo published: table-NAME or
/// figure-NAME. Check's anchors and render's ids both come from here.
std::string placement_anchor(bool figure, const std::string& name);

/// The page id of a workbench: its own id, or workbench-NAME.
std::string workbench_anchor(const Json& attr);

}  // namespace litbook
