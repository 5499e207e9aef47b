// The learner's four checkpoints (predict, experiment, implement,
// explain) and the blocks a chapter ends with (self-check questions,
// failure modes): how a chapter writes them and what check requires.
// Extract calls read_checkpoint on every div and check_checkpoints once
// the chapter is walked; render asks checkpoint_kind which block it has.
#pragma once

#include <string>

#include "book.hpp"
#include "chapter.hpp"

namespace litbook {

class HtmlWriter;

/// The checkpoint a div declares: "predict" (a `prediction` holding an
/// `answer`), "experiment", "implement" or "explain"; empty for any other.
std::string checkpoint_kind(const Json& attr, const Json& content);

/// Validates one div's checkpoint, if it is one, and records it in
/// ch.checkpoints.
void read_checkpoint(Chapter& ch, Diagnostics& diags, const Json& attr,
                     const Json& content, int line);

/// The block a chapter ends with that a div declares: "self-check" (a
/// numbered list of questions, each with its `answer`) or "failure-modes"
/// (a bulleted list, each item opening with the mode's name in bold);
/// empty for any other div.
std::string ending_kind(const Json& attr);

/// Validates one div's self-check or failure-modes block, if it is one,
/// and records it in ch.checkpoints under its kind.
void read_ending(Chapter& ch, Diagnostics& diags, const Json& attr,
                 const Json& content, int line);

/// A chapter that declares any checkpoint must declare all four, and one
/// that has self-check questions or failure modes must have both.
void check_checkpoints(const Chapter& ch, Diagnostics& diags);

/// What book.yaml's `require:` asks of every chapter ("checkpoints",
/// "chapter-end"), reported at the chapter's line 1.
void check_required(const Chapter& ch, const std::vector<std::string>& require,
                    Diagnostics& diags);

/// The HTML of a self-check or failure-modes div: a callout, the answers
/// collapsed under their questions.
std::string ending_html(HtmlWriter& w, const std::string& kind,
                        const Json& content);

/// The HTML of a checkpoint div. The page reads as plain text without
/// JavaScript (the question, the steps, the answer collapsed); book.js's
/// progress code adds the fields and boxes into the empty entry slots.
/// Its kind and tests as the model read them.
std::string checkpoint_html(HtmlWriter& w, const Checkpoint& checkpoint,
                            const Json& content);

/// Each workbench div names a workbench of book.yaml, once a page, and
/// each experiment step's `when` names an event one of the page's
/// workbenches reports; each problem at its line.
void check_workbenches(const Chapter& ch, const std::vector<Workbench>& known,
                       Diagnostics& diags);

}  // namespace litbook
