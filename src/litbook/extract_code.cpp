// Reading a code block into the model: the output block, a region, or
// an ordinary block (extract_parts.hpp).
#include <regex>

#include "classify.hpp"
#include "extract_parts.hpp"

namespace litbook {

namespace {

// A checked value or literal marker in a code block: code is not
// checked, so the page would print the marker as it is.
void code_marker_lint(ExtractContext& x, const std::string& code, int line) {
  static const std::regex marker(R"(\[[^\]]*\]\{(\.lit|value=)[^}]*\})");
  const auto lines = split_lines(code);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int at = line == 0 ? 0 : line + 1 + static_cast<int>(i);
    std::smatch m;
    if (std::regex_search(lines[i], m, marker)) {
      x.diags.add(x.ch.at(at), "a code block holds the marker '" + m.str() +
                               "', which code shows as it is: write the "
                               "number or name plainly");
    }
  }
}

// The chapter's one output block, with the lines it spans.
void output_block(ExtractContext& x, const Json& attr, int line,
                  const std::string& code) {
  x.check_keys(attr, {}, "an output block");
  if (x.ch.output) {
    x.diags.add(x.ch.at(line), "a second output block (the first is at line " +
                               std::to_string(x.ch.output->open_line) +
                               "); a chapter has at most one");
    return;
  }
  auto range = parse_data_pos(attr_get(attr, "data-pos").value_or(""));
  if (!range || range->line < 1 || range->col < 1) {
    x.diags.add(x.ch.at(line), "output block without a source position");
    return;
  }
  OutputBlock out;
  out.text = code;
  out.open_line = range->line;
  out.close_line = range->end_col == 1 ? range->end_line - 1 : range->end_line;
  out.indent = std::string(static_cast<std::size_t>(range->col - 1), ' ');
  x.ch.output = out;
}

// One target (file=, fill= or revise=) and a valid name.
bool valid_region(ExtractContext& x, const Region& r) {
  int targets = !r.file.empty() + !r.fill.empty() + !r.revise.empty();
  if (targets != 1) {
    x.diags.add(x.ch.at(r.line), "a code region needs exactly one of file=, "
                             "fill= or revise=");
    return false;
  }
  if (r.revise.empty() && r.name.empty()) {
    x.diags.add(x.ch.at(r.line), "a code region needs a region= name");
    return false;
  }
  if (!r.name.empty() && !is_valid_name(r.name)) {
    x.diags.add(x.ch.at(r.line), "invalid region name '" + r.name +
                                 "' (use a-z, 0-9 and -)");
    return false;
  }
  return true;
}

}  // namespace

void read_code_block(ExtractContext& x, const Json& node) {
  const Json& attr = node["c"][0];
  int line = attr_line(attr);
  std::string code = node["c"][1].get<std::string>();
  code_marker_lint(x, code, line);
  const CodeKind kind = classify_code_block(attr);
  if (kind == CodeKind::Output) {
    output_block(x, attr, line, code);
    return;
  }
  if (kind == CodeKind::Plain) {
    x.check_keys(attr, {}, "a code block");
    x.element_id(attr);
    return;
  }
  auto file = attr_get(attr, "file");
  auto name = attr_get(attr, "region");
  auto fill = attr_get(attr, "fill");
  auto revise = attr_get(attr, "revise");
  x.check_keys(attr, {"file", "region", "fill", "revise"}, "a code region");
  Region r;
  r.line = line;
  r.code = code;
  r.hidden = kind == CodeKind::HiddenRegion;
  for (const auto& cls : attr[1]) {
    if (cls != "hidden") {
      r.lang = cls.get<std::string>();
      break;
    }
  }
  r.name = name.value_or("");
  r.file = file.value_or("");
  r.fill = fill.value_or("");
  r.revise = revise.value_or("");
  if (!valid_region(x, r)) return;
  if (r.name.empty()) r.name = r.revise;  // a revision keeps the name
  x.ch.regions.push_back(std::move(r));
}

}  // namespace litbook
