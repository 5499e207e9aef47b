#include "checkpoint.hpp"

#include <algorithm>
#include <array>

#include "bookio/escape.hpp"
#include "classify.hpp"
#include "html.hpp"

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

std::string checkpoint_kind(const Json& attr, const Json& content) {
  if (attr_has_class(attr, "prediction")) {
    return has_answer(content) ? "predict" : "";
  }
  for (const char* k : {"experiment", "implement", "explain"}) {
    if (attr_has_class(attr, k)) return k;
  }
  return {};
}

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

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void check_workbenches(const Chapter& ch, const std::vector<Workbench>& known,
                       Diagnostics& diags) {
  std::vector<std::string> known_names, page_names, events;
  for (const auto& w : known) known_names.push_back(w.name);
  for (const auto& use : ch.workbenches) {
    const Workbench* w = nullptr;
    for (const auto& k : known) {
      if (k.name == use.name) w = &k;
    }
    if (use.name.empty()) {
      diags.add(ch.at(use.line), "a workbench div needs name=NAME (one of "
                                 "book/book.yaml's workbenches: " +
                                 joined(known_names) + ")");
    } else if (!w) {
      diags.add(ch.at(use.line), "unknown workbench '" + use.name +
                                     "' (book/book.yaml's workbenches: " +
                                     (known_names.empty() ? std::string("none")
                                                          : joined(known_names)) +
                                     ")");
    } else if (std::find(page_names.begin(), page_names.end(), use.name) !=
               page_names.end()) {
      diags.add(ch.at(use.line), "a second '" + use.name +
                                     "' workbench on this page; a page has "
                                     "one of each");
    } else {
      page_names.push_back(use.name);
      events.insert(events.end(), w->events.begin(), w->events.end());
    }
  }
  for (const auto& e : ch.step_events) {
    if (std::find(events.begin(), events.end(), e.name) != events.end()) {
      continue;
    }
    if (page_names.empty()) {
      diags.add(ch.at(e.line), "an experiment step waits for '" + e.name +
                                   "', but this page has no workbench to "
                                   "report it (drop {when=...}, or place a "
                                   "::: {.workbench name=NAME} div)");
    } else {
      diags.add(ch.at(e.line), "unknown workbench event '" + e.name +
                                   "' in an experiment step (the " +
                                   joined(page_names) + " workbench reports: " +
                                   joined(events) + ")");
    }
  }
}

void check_required(const Chapter& ch, const std::vector<std::string>& require,
                    Diagnostics& diags) {
  auto has = [&](const char* kind) {
    for (const auto& c : ch.checkpoints) {
      if (c.kind == kind) return true;
    }
    return false;
  };
  auto need = [&](std::initializer_list<const char*> kinds, const char* what,
                  const char* section) {
    std::string missing;
    for (const char* k : kinds) {
      if (!has(k)) missing += missing.empty() ? k : std::string(", ") + k;
    }
    if (missing.empty()) return;
    diags.add(ch.at(1), std::string("book/book.yaml requires ") + what +
                            " in every chapter; this one lacks " + missing +
                            " (chapters/README.md, \"" + section + "\")");
  };
  for (const auto& r : require) {
    if (r == "checkpoints") {
      need({"predict", "experiment", "implement", "explain"},
           "the four learner checkpoints", "Learner checkpoints");
    } else if (r == "chapter-end") {
      need({"self-check", "failure-modes"},
           "self-check questions and failure modes",
           "The end of a chapter: self-check questions and failure modes");
    }
  }
}

std::string ending_kind(const Json& attr) {
  for (const char* k : {"self-check", "failure-modes"}) {
    if (attr_has_class(attr, k)) return k;
  }
  return {};
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
    if (b["t"] == "OrderedList" || b["t"] == "BulletList") {
      ++lists;
      if (b["t"] == list_type) list = &b;
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

namespace litbook {

using book::escape_markup;

namespace {

struct KindInfo {
  const char* kind;
  const char* title;
  const char* answer_label;  ///< summary of the collapsed answer
};

constexpr std::array<KindInfo, 4> kKinds = {{
    {"predict", "Predict first", "The demo's answer"},
    {"experiment", "Experiment", ""},
    {"implement", "Implement", ""},
    {"explain", "Explain", "A model answer"},
}};

}  // namespace

std::string checkpoint_html(HtmlWriter& w, const Checkpoint& checkpoint,
                            const Json& content) {
  const std::string& kind = checkpoint.kind;
  std::size_t number = 0;
  while (number + 1 < kKinds.size() && kKinds[number].kind != kind) ++number;
  const KindInfo& info = kKinds[number];
  std::string body, answer;
  for (const auto& b : content) {
    if (is_answer(b)) {
      answer += w.blocks(b["c"][1]);
    } else {
      body += w.blocks(Json::array({b}));
    }
  }
  // Predict keeps the class of the "Predict first" box it grew from.
  const std::string cls = kind == "predict" ? "prediction" : kind;
  std::string out = "<div class=\"callout " + cls + " checkpoint\" "
                    "data-checkpoint=\"" + kind + "\" role=\"note\">"
                    "<p class=\"callout-title\">" + info.title +
                    " <span class=\"checkpoint-number\">(checkpoint " +
                    std::to_string(number + 1) + " of 4)</span></p>\n" + body;
  if (checkpoint.tests) {
    out += "<p class=\"exercise-tests\">Run its tests: <code>" +
           escape_markup(*checkpoint.tests) + "</code></p>\n";
  }
  if (kind != "experiment") {
    out += "<div class=\"checkpoint-entry\" data-entry=\"" + kind +
           "\"></div>\n";
  }
  if (!answer.empty()) {
    out += "<details class=\"answer checkpoint-answer\"><summary>" +
           std::string(info.answer_label) + "</summary>\n" + answer +
           "</details>\n";
  }
  return out + "</div>\n";
}

std::string ending_html(HtmlWriter& w, const std::string& kind,
                        const Json& content) {
  const bool self_check = kind == "self-check";
  std::string out = std::string("<div class=\"callout ") + kind +
                    "\" role=\"note\"><p class=\"callout-title\">" +
                    (self_check ? "Check yourself" : "Common failure modes") +
                    "</p>\n";
  for (const auto& b : content) {
    if (!self_check || b["t"] != "OrderedList") {
      out += w.blocks(Json::array({b}));
      continue;
    }
    // Each question with its answer collapsed under it.
    out += "<ol class=\"self-check-list\">\n";
    for (const auto& item : b["c"][1]) {
      out += "<li>";
      for (const auto& part : item) {
        if (is_answer(part)) {
          out += "<details class=\"answer\"><summary>Answer</summary>\n" +
                 w.blocks(part["c"][1]) + "</details>\n";
        } else {
          out += w.blocks(Json::array({part}));
        }
      }
      out += "</li>\n";
    }
    out += "</ol>\n";
  }
  return out + "</div>\n";
}

}  // namespace litbook
