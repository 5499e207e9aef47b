// The learner's four checkpoints (predict, experiment, implement,
// explain) and the blocks a chapter ends with (self-check questions,
// failure modes), read into the model. Extract calls read_checkpoint and
// read_ending on every div and check_checkpoints once the chapter is
// walked. The other phases each keep their part: classify.hpp says which
// kind a div is (checkpoint_kind, ending_kind), check.hpp checks the
// chapter against book.yaml (check_required, check_workbenches), and
// html.hpp writes the boxes (checkpoint_html, ending_html).
#pragma once

#include "chapter.hpp"

namespace litbook {

/// Validates one div's checkpoint, if it is one, and records it in
/// ch.checkpoints.
void read_checkpoint(Chapter& ch, Diagnostics& diags, const Json& attr,
                     const Json& content, int line);

/// Validates one div's self-check or failure-modes block, if it is one,
/// and records it in ch.checkpoints under its kind.
void read_ending(Chapter& ch, Diagnostics& diags, const Json& attr,
                 const Json& content, int line);

/// A chapter that declares any checkpoint must declare all four, and one
/// that has self-check questions or failure modes must have both.
void check_checkpoints(const Chapter& ch, Diagnostics& diags);

}  // namespace litbook
