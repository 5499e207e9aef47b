#include "chapter.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>
#include <set>

namespace litbook {

// ---- positions and attributes -------------------------------------------

std::optional<SourceRange> parse_data_pos(std::string_view pos) {
  auto at = pos.rfind('@');
  if (at != std::string_view::npos) pos.remove_prefix(at + 1);
  auto read_point = [](std::string_view s, int& line, int& col) {
    auto colon = s.find(':');
    if (colon == std::string_view::npos) return false;
    auto a = std::from_chars(s.data(), s.data() + colon, line);
    auto b = std::from_chars(s.data() + colon + 1, s.data() + s.size(), col);
    return a.ec == std::errc() && b.ec == std::errc();
  };
  SourceRange r;
  auto first = pos.substr(0, pos.find(';'));
  auto last = pos.substr(pos.rfind(';') == std::string_view::npos
                             ? 0
                             : pos.rfind(';') + 1);
  auto dash1 = first.find('-');
  auto dash2 = last.find('-');
  if (dash1 == std::string_view::npos || dash2 == std::string_view::npos) {
    return std::nullopt;
  }
  if (!read_point(first.substr(0, dash1), r.line, r.col)) return std::nullopt;
  if (!read_point(last.substr(dash2 + 1), r.end_line, r.end_col)) {
    return std::nullopt;
  }
  return r;
}

std::optional<std::string> attr_get(const Json& attr, std::string_view key) {
  std::optional<std::string> found;
  for (const auto& kv : attr[2]) {
    if (kv[0].get_ref<const std::string&>() == key) {
      found = kv[1].get<std::string>();  // the last one wins (data-pos)
    }
  }
  return found;
}

bool attr_has_class(const Json& attr, std::string_view cls) {
  for (const auto& c : attr[1]) {
    if (c.get_ref<const std::string&>() == cls) return true;
  }
  return false;
}

int attr_line(const Json& attr) {
  const auto r = attr_range(attr);
  return r ? r->line : 0;
}

std::optional<SourceRange> attr_range(const Json& attr) {
  auto pos = attr_get(attr, "data-pos");
  return pos ? parse_data_pos(*pos) : std::nullopt;
}

OwnAttr own_attr(const Json& attr) {
  OwnAttr own{attr[0].get<std::string>(), {}, {}};
  for (const auto& c : attr[1]) own.classes.push_back(c.get<std::string>());
  for (const auto& kv : attr[2]) {
    if (kv[0] == "data-pos") continue;
    own.attributes.emplace_back(kv[0].get<std::string>(),
                                kv[1].get<std::string>());
  }
  return own;
}

namespace {

// The entry of `items` whose construct opens at `line`, or null.
template <class T>
const T* at_line(const std::vector<T>& items, int line) {
  for (const T& item : items) {
    if (item.line == line) return &item;
  }
  return nullptr;
}

}  // namespace

const Region* Chapter::region_at(int line) const {
  return at_line(regions, line);
}

const Numbered* Chapter::numbered_at(int line) const {
  return at_line(numbered, line);
}

const Checkpoint* Chapter::checkpoint_at(int line) const {
  return at_line(checkpoints, line);
}

const NameAt* Chapter::workbench_at(int line) const {
  return at_line(workbenches, line);
}

const DivClass* Chapter::div_at(int line) const {
  const DivAt* d = at_line(divs, line);
  return d ? &d->what : nullptr;
}

// A span has no fence line, so a checked value is found by its span's
// whole source range (start and end), not by its line nor by its start:
// the simplifier wraps a number in prose in a span positioned "L:1-L:1"
// (wrap_text), and a value span that opens a line starts at L:1 too, with
// such a wrapper around its own number (`[1026]{value=x}` at 38:1-38:33
// holds one at 38:1-38:1). A wrapper's range is empty; a bracketed
// span's covers at least its brackets, and two spans Pandoc read cover
// different text. Nor by the order of value spans: the writer would have
// to classify every span to count them, which is what the model saves it.
const ValueRef* Chapter::value_at(const SourceRange& range) const {
  if (range.line == 0) return nullptr;
  for (const ValueRef& v : values) {
    if (v.range == range) return &v;
  }
  return nullptr;
}

namespace {

bool only_position(const Json& attr) {
  if (!attr[0].get_ref<const std::string&>().empty()) return false;
  if (!attr[1].empty()) return false;
  for (const auto& kv : attr[2]) {
    if (kv[0].get_ref<const std::string&>() != "data-pos") return false;
  }
  return true;
}

// Keeps only the last data-pos (Pandoc sometimes adds two).
void tidy_attr(Json& attr) {
  Json kept = Json::array();
  std::optional<Json> pos;
  for (auto& kv : attr[2]) {
    if (kv[0] == "data-pos") {
      pos = kv;
    } else {
      kept.push_back(kv);
    }
  }
  if (pos) kept.insert(kept.begin(), *pos);
  attr[2] = kept;
}

bool has_digit(const std::string& s) {
  for (char c : s) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

// ---- simplification -----------------------------------------------------

// The tree can be large (a 5 MB chapter gives about 200 MB of JSON), so
// every step moves nodes instead of copying them.
Json simplify_inlines(Json in);
Json simplify_blocks(Json in);

// Which single children keep their position wrapper: links and math (for
// diagnostics). Text keeps a position only when it holds a digit (for the
// lint), and only after neighbouring pieces are joined: Pandoc splits
// "0.37" into "0", "." and "37".
bool keeps_position(const Json& content) {
  if (content.size() != 1) return false;
  const auto& t = content[0]["t"];
  return t == "Link" || t == "Math";
}

int pos_line(const Json& attr) {
  for (const auto& kv : attr[2]) {
    if (kv[0] == "data-pos") {
      auto r = parse_data_pos(kv[1].get<std::string>());
      if (r) return r->line;
    }
  }
  return 0;
}

// A piece of text and the line it started on.
struct Piece {
  Json node;
  int line = 0;
  std::string text;  // for Str pieces, joined before wrapping
};

Json wrap_text(Piece& p) {
  const std::string& text = p.text;
  bool interesting = has_digit(text) ||
                     text.find('\\') != std::string::npos ||
                     text.find('$') != std::string::npos;
  Json str = {{"t", "Str"}, {"c", std::move(p.text)}};
  if (!interesting || p.line == 0) return str;
  std::string pos = std::to_string(p.line) + ":1-" + std::to_string(p.line) +
                    ":1";
  return {{"t", "Span"},
          {"c", {Json::array({"", Json::array(),
                              Json::array({Json::array({"data-pos", pos})})}),
                 Json::array({std::move(str)})}}};
}

bool is_one_of(const std::string& t, std::initializer_list<const char*> list) {
  for (const char* x : list) {
    if (t == x) return true;
  }
  return false;
}

Json simplify_inline(Json node) {
  const std::string t = node["t"].get<std::string>();
  if (is_one_of(t, {"Emph", "Strong", "Strikeout", "Superscript", "Subscript",
                    "SmallCaps", "Underline"})) {
    node["c"] = simplify_inlines(std::move(node["c"]));
  } else if (t == "Quoted" || t == "Cite") {
    node["c"][1] = simplify_inlines(std::move(node["c"][1]));
  } else if (t == "Link" || t == "Image" || t == "Span") {
    tidy_attr(node["c"][0]);
    node["c"][1] = simplify_inlines(std::move(node["c"][1]));
  } else if (t == "Note") {
    node["c"] = simplify_blocks(std::move(node["c"]));
  }
  return node;
}

void add_piece(std::vector<Piece>& out, Json node, int line) {
  if (node["t"] == "Str") {
    std::string text = std::move(node["c"].get_ref<std::string&>());
    if (!out.empty() && out.back().node.is_null()) {
      out.back().text += text;
      return;
    }
    out.push_back({Json(), line, std::move(text)});  // null node: text
    return;
  }
  out.push_back({std::move(node), line, {}});
}

// Unwraps Pandoc's position spans into pieces, joining adjacent text.
void flatten(Json in, int line, std::vector<Piece>& out) {
  for (auto& node : in) {
    if (node["t"] == "Span" && only_position(node["c"][0])) {
      Json& content = node["c"][1];
      int here = pos_line(node["c"][0]);
      if (keeps_position(content)) {
        tidy_attr(node["c"][0]);
        node["c"][1] = simplify_inlines(std::move(content));
        out.push_back({std::move(node), here, {}});
        continue;
      }
      flatten(std::move(content), here ? here : line, out);
      continue;
    }
    add_piece(out, simplify_inline(std::move(node)), line);
  }
}

Json simplify_inlines(Json in) {
  std::vector<Piece> pieces;
  flatten(std::move(in), 0, pieces);
  Json out = Json::array();
  for (auto& p : pieces) {
    out.push_back(p.node.is_null() ? wrap_text(p) : std::move(p.node));
  }
  return out;
}

Json simplify_block(Json node) {
  const std::string t = node["t"].get<std::string>();
  Json& c = node["c"];
  if (t == "Para" || t == "Plain") {
    c = simplify_inlines(std::move(c));
  } else if (t == "Header") {
    tidy_attr(c[1]);
    c[2] = simplify_inlines(std::move(c[2]));
  } else if (t == "CodeBlock") {
    tidy_attr(c[0]);
  } else if (t == "Div") {
    tidy_attr(c[0]);
    c[1] = simplify_blocks(std::move(c[1]));
  } else if (t == "BlockQuote") {
    c = simplify_blocks(std::move(c));
  } else if (t == "BulletList") {
    for (auto& item : c) item = simplify_blocks(std::move(item));
  } else if (t == "OrderedList") {
    for (auto& item : c[1]) item = simplify_blocks(std::move(item));
  } else if (t == "DefinitionList") {
    for (auto& entry : c) {
      entry[0] = simplify_inlines(std::move(entry[0]));
      for (auto& def : entry[1]) def = simplify_blocks(std::move(def));
    }
  } else if (t == "LineBlock") {
    for (auto& line : c) line = simplify_inlines(std::move(line));
  } else if (t == "Table") {
    // [attr, caption, colspecs, head, bodies, foot]; cells hold blocks.
    tidy_attr(c[0]);
    auto fix_rows = [](Json& rows) {
      for (auto& row : rows) {
        for (auto& cell : row[1]) cell[4] = simplify_blocks(std::move(cell[4]));
      }
    };
    fix_rows(c[3][1]);
    for (auto& body : c[4]) {
      fix_rows(body[2]);
      fix_rows(body[3]);
    }
    fix_rows(c[5][1]);
    c[1][1] = simplify_blocks(std::move(c[1][1]));
  }
  return node;
}

Json simplify_blocks(Json in) {
  Json out = Json::array();
  for (auto& node : in) {
    if (node["t"] == "Div" && only_position(node["c"][0])) {
      for (auto& child : simplify_blocks(std::move(node["c"][1]))) {
        out.push_back(std::move(child));
      }
      continue;
    }
    out.push_back(simplify_block(std::move(node)));
  }
  return out;
}

Json simplify_meta(Json meta) {
  for (auto& [key, value] : meta.items()) {
    (void)key;
    if (value["t"] == "MetaInlines") {
      value["c"] = simplify_inlines(std::move(value["c"]));
    } else if (value["t"] == "MetaList") {
      for (auto& item : value["c"]) {
        if (item["t"] == "MetaInlines") {
          item["c"] = simplify_inlines(std::move(item["c"]));
        }
        if (item["t"] == "MetaBlocks") {
          item["c"] = simplify_blocks(std::move(item["c"]));
        }
      }
    } else if (value["t"] == "MetaBlocks") {
      value["c"] = simplify_blocks(std::move(value["c"]));
    }
  }
  return meta;
}

}  // namespace

std::string inline_text(const Json& inlines) {
  std::string out;
  for (const auto& node : inlines) {
    const std::string& t = node["t"].get_ref<const std::string&>();
    if (t == "Str") {
      out += node["c"].get<std::string>();
    } else if (t == "Space" || t == "SoftBreak" || t == "LineBreak") {
      out += ' ';
    } else if (t == "Code" || t == "Math") {
      out += node["c"][1].get<std::string>();
    } else if (t == "Quoted") {  // [kind, inlines], marks kept as Pandoc does
      bool single = node["c"][0]["t"] == "SingleQuote";
      out += single ? "\u2018" : "\u201c";
      out += inline_text(node["c"][1]);
      out += single ? "\u2019" : "\u201d";
    } else if (t == "Span" || t == "Link" || t == "Cite" || t == "Image") {
      out += inline_text(node["c"][1]);  // [attr or kind, inlines, ...]
    } else if (t == "Emph" || t == "Strong" || t == "Strikeout" ||
               t == "Superscript" || t == "Subscript" || t == "SmallCaps" ||
               t == "Underline") {
      out += inline_text(node["c"]);
    }
  }
  return out;
}

std::string item_number_prefix(const std::string& stem) {
  std::string number = stem.substr(0, stem.find('-'));
  while (number.size() > 1 && number[0] == '0') number.erase(0, 1);
  return number;
}

std::string exercise_anchor(const Json& attr, std::size_t k) {
  const std::string& id = attr[0].get_ref<const std::string&>();
  return id.empty() ? "exercise-" + std::to_string(k) : id;
}

std::string region_anchor(const std::string& name, bool revision) {
  return "region-" + name + (revision ? "-revised" : "");
}

Json simplify_document(Json doc) {
  Json out;
  out["pandoc-api-version"] = doc.value("pandoc-api-version", Json::array());
  out["meta"] = simplify_meta(doc.contains("meta") ? std::move(doc["meta"])
                                                   : Json::object());
  out["blocks"] = simplify_blocks(
      doc.contains("blocks") ? std::move(doc["blocks"]) : Json::array());
  return out;
}

namespace {

bool is_fence(const std::string& line, char* kind) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos || i > 3) return false;
  char c = line[i];
  if (c != '`' && c != '~') return false;
  if (line.compare(i, 3, std::string(3, c)) != 0) return false;
  if (kind) *kind = c;
  return true;
}

// The length of the fence that opens `line` (3 or more backticks or
// tildes after at most three spaces), and whether an info string follows.
std::size_t fence_length(const std::string& line, char kind, bool* info) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos || i > 3) return 0;
  std::size_t end = line.find_first_not_of(kind, i);
  std::size_t n = (end == std::string::npos ? line.size() : end) - i;
  if (n < 3) return 0;
  *info = end != std::string::npos &&
          line.find_first_not_of(" \t\r", end) != std::string::npos;
  return n;
}

// A line inside a fenced block that opens a fence of the same kind and at
// least the same length with an info string (```{.output}) was almost
// certainly meant to start a new block: an earlier fence was left open.
// (Only a closing fence could end the block, and one has no info string.)
void find_swallowed_fences(const std::vector<std::string>& lines, int open,
                           int close, char kind, const std::string& display,
                           Diagnostics& diags) {
  bool info = false;
  std::size_t length =
      fence_length(lines[static_cast<std::size_t>(open - 1)], kind, &info);
  for (int l = open + 1; l < close; ++l) {
    const std::string& text = lines[static_cast<std::size_t>(l - 1)];
    if (fence_length(text, kind, &info) >= length && info) {
      diags.add({display, l},
                "'" + text + "' is inside the code block opened at line " +
                    std::to_string(open) + "; close that block with " +
                    std::string(length, kind) + " first");
    }
  }
}

// CommonMark closes an unterminated fence at the end of the document; the
// book treats that as an error, since the rest of the chapter would
// silently become code.
void find_unterminated(const Json& node, const std::vector<std::string>& lines,
                       const std::string& display, Diagnostics& diags) {
  if (node.is_array()) {
    for (const auto& child : node) find_unterminated(child, lines, display, diags);
    return;
  }
  if (!node.is_object()) return;
  if (node.value("t", "") == "CodeBlock") {
    auto pos = attr_get(node["c"][0], "data-pos");
    auto r = pos ? parse_data_pos(*pos) : std::nullopt;
    if (!r || r->line < 1 || r->line > static_cast<int>(lines.size())) return;
    char open_kind = 0, close_kind = 0;
    if (!is_fence(lines[static_cast<std::size_t>(r->line - 1)], &open_kind)) {
      return;
    }
    int close = r->end_col == 1 ? r->end_line - 1 : r->end_line;
    bool closed = close > r->line && close <= static_cast<int>(lines.size()) &&
                  is_fence(lines[static_cast<std::size_t>(close - 1)],
                           &close_kind) &&
                  close_kind == open_kind;
    if (!closed) {
      diags.add({display, r->line}, "unterminated code fence (no closing " +
                                        std::string(3, open_kind) +
                                        " before the end of the file)");
    }
    find_swallowed_fences(lines, r->line,
                          std::min(close, static_cast<int>(lines.size()) + 1),
                          open_kind, display, diags);
    return;
  }
  if (node.contains("c")) find_unterminated(node["c"], lines, display, diags);
}

// Pandoc's "YAML parse exception at line L, column C[:,]\nWHAT" counts
// lines from the first line inside the front matter and columns from 0.
// Returns it at the chapter's line and 1-based column, or nullopt for
// another message. (Location has no column: the place is written whole
// into its file field, with no line, so it prints as file:LINE:COL: .)
std::optional<Diagnostic> yaml_error(const std::string& err,
                                     const std::string& source,
                                     const std::string& display) {
  const std::string head = "YAML parse exception at line ";
  auto at = err.find(head);
  if (at == std::string::npos) return std::nullopt;
  int line = 0, col = 0;
  if (std::sscanf(err.c_str() + at + head.size(), "%d, column %d", &line,
                  &col) != 2) {
    return std::nullopt;
  }
  auto rest = err.find_first_not_of("0123456789", err.find("column ", at) + 7);
  std::string what = rest == std::string::npos ? "" : err.substr(rest + 1);
  for (char& c : what) c = c == '\n' ? ' ' : c;
  while (!what.empty() && what.back() == ' ') what.pop_back();
  while (!what.empty() && what.front() == ' ') what.erase(0, 1);
  int open = 0;  // the line of the front matter's opening ---
  auto lines = split_lines(source);
  while (open < static_cast<int>(lines.size()) && lines[open] != "---") ++open;
  std::string place = display + ":" + std::to_string(open + 1 + line) + ":" +
                      std::to_string(col + 1);
  Diagnostic d;  // filled in place: see report_file in util.hpp
  d.where.file = place;
  d.message = "front matter: " + what;
  return d;
}

}  // namespace

Json parse_with_pandoc(const fs::path& path) {
  std::string display = display_path(path);
  if (!fs::exists(path)) throw Failure({display, 0}, "no such chapter file");
  std::string source = read_file(path);
  if (auto bad = first_invalid_utf8(source)) {
    throw Failure({display, bad->first},
                  "invalid UTF-8 at byte " + std::to_string(bad->second) +
                      " of the line; chapters must be UTF-8");
  }
  auto result = run_process({"pandoc", "-f", "commonmark_x+sourcepos", "-t",
                             "json", path.string()});
  if (result.exit_code != 0) {
    std::string msg = result.err.empty() ? "pandoc failed" : result.err;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) {
      msg.pop_back();
    }
    if (auto yaml = yaml_error(msg, source, display)) throw Failure({*yaml});
    throw Failure({display, 0}, "pandoc could not read the chapter: " + msg);
  }
  Json out = simplify_document(Json::parse(std::move(result.out)));
  Diagnostics diags;
  find_unterminated(out["blocks"], split_lines(source), display, diags);
  diags.throw_if_any();
  return out;
}

}  // namespace litbook
