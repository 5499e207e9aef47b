#include "classify.hpp"

namespace litbook {

namespace {

// The callouts and the heading each shows. A `prediction` that holds an
// answer is a checkpoint; without one it is a callout.
const char* const kCallouts[][2] = {{"prediction", "Predict first"},
                                    {"misconception", "Common misconception"},
                                    {"note", "Note"}};

// The kind of a div, by precedence, and what the kind needs.
DivClass div_kind(const Json& attr, const Json& content) {
  if (auto name = attr_get(attr, "table")) {
    return {DivKind::Placement, *name, "", false};
  }
  if (auto name = attr_get(attr, "figure")) {
    return {DivKind::Placement, *name, "", true};
  }
  if (auto caption = attr_get(attr, "caption")) {
    return {DivKind::Caption, *caption, "", false};
  }
  if (auto kind = checkpoint_kind(attr, content); !kind.empty()) {
    return {DivKind::Checkpoint, kind, "", false};
  }
  if (auto kind = ending_kind(attr); !kind.empty()) {
    return {DivKind::Ending, kind, "", false};
  }
  for (const auto& [cls, title] : kCallouts) {
    if (attr_has_class(attr, cls)) return {DivKind::Callout, cls, title, false};
  }
  if (attr_has_class(attr, "workbench")) return {DivKind::Workbench, "", "", false};
  if (attr_has_class(attr, "exercise")) return {DivKind::Exercise, "", "", false};
  return {};
}

}  // namespace

DivClass classify_div(const Json& attr, const Json& content) {
  DivClass what = div_kind(attr, content);
  what.answer = attr_has_class(attr, "answer");  // as is_answer reads it
  return what;
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

std::string ending_kind(const Json& attr) {
  for (const char* k : {"self-check", "failure-modes"}) {
    if (attr_has_class(attr, k)) return k;
  }
  return {};
}

CodeKind classify_code_block(const Json& attr) {
  if (attr_has_class(attr, "output")) return CodeKind::Output;
  if (attr_get(attr, "region") || attr_get(attr, "fill") ||
      attr_get(attr, "revise") || attr_get(attr, "file")) {
    return attr_has_class(attr, "hidden") ? CodeKind::HiddenRegion
                                          : CodeKind::Region;
  }
  return CodeKind::Plain;
}

bool is_answer(const Json& block) {
  return block["t"] == "Div" && attr_has_class(block["c"][0], "answer");
}

bool has_answer(const Json& blocks) {
  for (const auto& b : blocks) {
    if (is_answer(b)) return true;
  }
  return false;
}

SpanClass classify_span(const Json& attr) {
  if (auto name = attr_get(attr, "value")) return {SpanKind::Value, *name};
  if (auto event = attr_get(attr, "when")) return {SpanKind::When, *event};
  if (attr_has_class(attr, "lit")) return {SpanKind::Literal, ""};
  return {};
}

LinkTarget parse_link_target(const std::string& target) {
  if (target.rfind("chapter:", 0) == 0) {
    const std::string rest = target.substr(8);
    const auto hash = rest.find('#');
    return {LinkTarget::Kind::Chapter, rest.substr(0, hash),
            hash == std::string::npos ? "" : rest.substr(hash + 1)};
  }
  if (!target.empty() && target[0] == '#') {
    return {LinkTarget::Kind::Local, "", target.substr(1)};
  }
  return {};
}

std::string placement_anchor(bool figure, const std::string& name) {
  return (figure ? "figure-" : "table-") + name;
}

std::string workbench_anchor(const Json& attr) {
  const std::string& id = attr[0].get_ref<const std::string&>();
  return id.empty() ? "workbench-" + attr_get(attr, "name").value_or("") : id;
}

}  // namespace litbook
