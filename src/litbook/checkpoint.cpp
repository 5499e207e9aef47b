#include "checkpoint.hpp"

#include <array>

#include "html.hpp"

namespace litbook {

namespace {

bool has_answer(const Json& content) {
  for (const auto& b : content) {
    if (b["t"] == "Div" && attr_has_class(b["c"][0], "answer")) return true;
  }
  return false;
}

// Whether any node below holds a checked value, [x]{value=NAME}.
bool holds_value(const Json& node) {
  if (node.is_array()) {
    for (const auto& child : node) {
      if (holds_value(child)) return true;
    }
    return false;
  }
  if (!node.is_object() || !node.contains("t")) return false;
  if (node["t"] == "Span" && attr_get(node["c"][0], "value")) return true;
  return node.contains("c") && holds_value(node["c"]);
}

// The `when` names of the spans below, each with its line (0 if unknown).
void when_names(const Json& node, std::vector<std::string>& out) {
  if (node.is_array()) {
    for (const auto& child : node) when_names(child, out);
    return;
  }
  if (!node.is_object() || !node.contains("t")) return;
  if (node["t"] == "Span") {
    if (auto w = attr_get(node["c"][0], "when")) out.push_back(*w);
  }
  if (node.contains("c")) when_names(node["c"], out);
}

const Json* step_list(const Json& content) {
  for (const auto& b : content) {
    if (b["t"] == "OrderedList" || b["t"] == "BulletList") return &b;
  }
  return nullptr;
}

}  // namespace

constexpr std::array<const char*, 5> kWorkbenchEvents = {
    "mask-off", "split-broken", "last-token-only", "head0-only",
    "head1-only"};

bool is_workbench_event(const std::string& name) {
  for (const char* e : kWorkbenchEvents) {
    if (name == e) return true;
  }
  return false;
}

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
  ch.checkpoints.push_back({kind, line});
  if (kind == "predict" && !holds_value(content)) {
    diags.add(ch.at(line), "the prediction's answer must quote the demo: "
                           "put a checked value [x]{value=NAME} in it");
  } else if (kind == "experiment") {
    if (!step_list(content)) {
      diags.add(ch.at(line), "an experiment needs a list of steps (one "
                             "list item per step)");
    }
    std::vector<std::string> names;
    when_names(content, names);
    for (const auto& name : names) {
      if (is_workbench_event(name)) continue;
      std::string known;
      for (const char* e : kWorkbenchEvents) {
        known += known.empty() ? e : std::string(", ") + e;
      }
      diags.add(ch.at(line), "unknown workbench event '" + name +
                             "' in an experiment step (expected one of: " +
                             known + ")");
    }
  } else if (kind == "implement" && !attr_get(attr, "tests")) {
    diags.add(ch.at(line), "an implement checkpoint needs tests=\"COMMAND\" "
                           "(the one command that runs its tests)");
  } else if (kind == "explain" && !has_answer(content)) {
    diags.add(ch.at(line), "an explain checkpoint needs a model answer "
                           "(add a '::: answer' div inside it)");
  }
}

void check_checkpoints(const Chapter& ch, Diagnostics& diags) {
  if (ch.checkpoints.empty()) return;
  std::string missing;
  for (const char* kind : {"predict", "experiment", "implement", "explain"}) {
    bool found = false;
    for (const auto& c : ch.checkpoints) found = found || c.kind == kind;
    if (!found) missing += missing.empty() ? kind : std::string(", ") + kind;
  }
  if (missing.empty()) return;
  diags.add(ch.at(ch.checkpoints.front().line),
            "checkpoints: this chapter has some but lacks " + missing +
                " (a chapter with checkpoints has all four: predict, "
                "experiment, implement, explain)");
}

}  // namespace litbook

namespace litbook {

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

std::string checkpoint_html(HtmlWriter& w, const std::string& kind,
                            const Json& attr, const Json& content) {
  std::size_t number = 0;
  while (number + 1 < kKinds.size() && kKinds[number].kind != kind) ++number;
  const KindInfo& info = kKinds[number];
  std::string body, answer;
  for (const auto& b : content) {
    if (b["t"] == "Div" && attr_has_class(b["c"][0], "answer")) {
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
  if (auto tests = attr_get(attr, "tests")) {
    out += "<p class=\"exercise-tests\">Run its tests: <code>" +
           escape_html(*tests) + "</code></p>\n";
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

}  // namespace litbook
