// Reading the learner's checkpoints and a chapter's ending blocks into
// the model: extract calls read_checkpoint and read_ending on every div,
// then check_checkpoints once the chapter is walked. Which kind a div is
// comes from the classifier (checkpoint_kind, ending_kind).
#include "checkpoint.hpp"

#include "classify.hpp"

namespace litbook {

namespace {

// Whether any node below holds a checked value, [x]{value=NAME}.
bool holds_value(const Json& node) {
  if (node.is_array()) {
    for (const auto& child : node) {
      if (holds_value(child)) return true;
    }
    return false;
  }
  if (!node.is_object() || !node.contains("t")) return false;
  if (node["t"] == "Span" &&
      classify_span(node["c"][0]).kind == SpanKind::Value) {
    return true;
  }
  return node.contains("c") && holds_value(node["c"]);
}

// The `when` names of the spans below, each with its line (the line of
// `line`'s block when the span has no position of its own).
void when_names(const Json& node, int line, std::vector<NameAt>& out) {
  if (node.is_array()) {
    for (const auto& child : node) when_names(child, line, out);
    return;
  }
  if (!node.is_object() || !node.contains("t")) return;
  if (node["t"] == "Span") {
    if (const SpanClass what = classify_span(node["c"][0]);
        what.kind == SpanKind::When) {
      auto pos = parse_data_pos(attr_get(node["c"][0], "data-pos").value_or(""));
      out.push_back({what.name, pos ? pos->line : line});
    }
  }
  if (node.contains("c")) when_names(node["c"], line, out);
}

const Json* step_list(const Json& content) {
  for (const auto& b : content) {
    if (b["t"] == "OrderedList" || b["t"] == "BulletList") return &b;
  }
  return nullptr;
}

}  // namespace

void read_checkpoint(Chapter& ch, Diagnostics& diags, const Json& attr,
                     const Json& content, int line) {
  const std::string kind = checkpoint_kind(attr, content);
  if (kind.empty()) return;
  for (const auto& seen : ch.checkpoints) {
    if (seen.kind == kind) {
      diags.add(ch.at(line), "a second " + kind + " checkpoint (the first "
                             "is at line " + std::to_string(seen.line) +
                             "); a chapter has one of each");
      return;
    }
  }
  ch.checkpoints.push_back({kind, line, attr_get(attr, "tests")});
  if (kind == "predict" && !holds_value(content)) {
    diags.add(ch.at(line), "the prediction's answer must quote the demo: "
                           "put a checked value [x]{value=NAME} in it");
  } else if (kind == "experiment") {
    if (!step_list(content)) {
      diags.add(ch.at(line), "an experiment needs a list of steps (one "
                             "list item per step)");
    }
    when_names(content, line, ch.step_events);
  } else if (kind == "implement" && !ch.checkpoints.back().tests) {
    diags.add(ch.at(line), "an implement checkpoint needs tests=\"COMMAND\" "
                           "(the one command that runs its tests)");
  } else if (kind == "explain" && !has_answer(content)) {
    diags.add(ch.at(line), "an explain checkpoint needs a model answer "
                           "(add a '::: answer' div inside it)");
  }
}

namespace {

// The one list of a self-check or failure-modes div, or null when it has
// none or more than one (reported).
const Json* ending_list(Chapter& ch, Diagnostics& diags, const Json& content,
                        int line, const std::string& kind,
                        const char* list_type) {
  const Json* list = nullptr;
  int lists = 0;
  for (const auto& b : content) {
    // The type as a string: comparing the Json with a char* here trips
    // GCC 12's false -Warray-bounds at -O3 (tool-release-warnings).
    const std::string& t = b["t"].get_ref<const std::string&>();
    if (t == "OrderedList" || t == "BulletList") {
      ++lists;
      if (t == list_type) list = &b;
    }
  }
  const bool ordered = std::string(list_type) == "OrderedList";
  if (lists != 1 || !list) {
    diags.add(ch.at(line), kind + " holds one " +
                               (ordered ? "numbered" : "bulleted") +
                               " list (found " + std::to_string(lists) +
                               (lists == 1 ? " of the other kind" : "") + ")");
    return nullptr;
  }
  const auto& items = ordered ? (*list)["c"][1] : (*list)["c"];
  if (items.size() < 2) {
    diags.add(ch.at(line), kind + " needs at least 2 items (found " +
                               std::to_string(items.size()) + ")");
  }
  return &items;
}

void read_self_check(Chapter& ch, Diagnostics& diags, const Json& content,
                     int line) {
  const Json* items = ending_list(ch, diags, content, line, "self-check",
                                  "OrderedList");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const Json& item = (*items)[i];
    int answers = 0;
    for (const auto& b : item) {
      answers += is_answer(b);
    }
    if (answers != 1 || item.back()["t"] != "Div") {
      diags.add(ch.at(line), "self-check question " + std::to_string(i + 1) +
                                 " needs one '::: answer' div, last in its "
                                 "item (found " + std::to_string(answers) +
                                 ")");
    }
  }
}

void read_failure_modes(Chapter& ch, Diagnostics& diags, const Json& content,
                        int line) {
  const Json* items = ending_list(ch, diags, content, line, "failure-modes",
                                  "BulletList");
  if (!items) return;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const Json& first = (*items)[i].front();
    bool named = (first["t"] == "Plain" || first["t"] == "Para") &&
                 !first["c"].empty() && first["c"][0]["t"] == "Strong";
    if (!named) {
      diags.add(ch.at(line), "failure mode " + std::to_string(i + 1) +
                                 " must begin with its name in bold "
                                 "(**Name.**), then say how it shows in "
                                 "the numbers");
    }
  }
}

}  // namespace

void read_ending(Chapter& ch, Diagnostics& diags, const Json& attr,
                 const Json& content, int line) {
  const std::string kind = ending_kind(attr);
  if (kind.empty()) return;
  for (const auto& seen : ch.checkpoints) {
    if (seen.kind == kind) {
      diags.add(ch.at(line), "a second " + kind + " block (the first is at "
                             "line " + std::to_string(seen.line) + "); a "
                             "chapter ends with one");
      return;
    }
  }
  ch.checkpoints.push_back({kind, line});
  if (kind == "self-check") {
    read_self_check(ch, diags, content, line);
  } else {
    read_failure_modes(ch, diags, content, line);
  }
}

void check_checkpoints(const Chapter& ch, Diagnostics& diags) {
  std::string missing;
  const Checkpoint* first = nullptr;
  for (const char* kind : {"predict", "experiment", "implement", "explain"}) {
    bool found = false;
    for (const auto& c : ch.checkpoints) {
      if (c.kind != kind) continue;
      found = true;
      if (!first || c.line < first->line) first = &c;
    }
    if (!found) missing += missing.empty() ? kind : std::string(", ") + kind;
  }
  if (first && !missing.empty()) {
    diags.add(ch.at(first->line),
              "checkpoints: this chapter has some but lacks " + missing +
                  " (a chapter with checkpoints has all four: predict, "
                  "experiment, implement, explain)");
  }
  const Checkpoint* self_check = nullptr;
  const Checkpoint* failures = nullptr;
  for (const auto& c : ch.checkpoints) {
    if (c.kind == "self-check") self_check = &c;
    if (c.kind == "failure-modes") failures = &c;
  }
  if (!self_check != !failures) {
    const Checkpoint& one = self_check ? *self_check : *failures;
    diags.add(ch.at(one.line),
              std::string("a chapter that ends with ") +
                  (self_check ? "self-check questions" : "failure modes") +
                  " also needs " +
                  (self_check ? "a '::: failure-modes' list"
                              : "'::: self-check' questions"));
  }
}

}  // namespace litbook
