// Extracting the book's constructs from a simplified chapter document.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>
#include <set>

#include "chapter.hpp"
#include "checkpoint.hpp"
#include "classify.hpp"

namespace litbook {

namespace {

std::string meta_text(const Json& value) {
  if (value.is_null()) return {};
  const std::string& t = value["t"].get_ref<const std::string&>();
  if (t == "MetaString") return value["c"].get<std::string>();
  if (t == "MetaInlines") return inline_text(value["c"]);
  if (t == "MetaBool") return value["c"].get<bool>() ? "true" : "false";
  return {};
}

struct Walker {
  Chapter& ch;
  Diagnostics& diags;
  std::set<std::string> known_values;
  bool in_caption_div = false;
  /// The checkpoint or chapter-end div being walked, if any: another one
  /// inside it means a ':::' was left out before it.
  std::string open_box{};
  int open_box_line = 0;
  bool in_link = false;

  void blocks(const Json& list) {
    for (const auto& b : list) block(b);
  }

  void block(const Json& node) {
    const std::string& t = node["t"].get_ref<const std::string&>();
    ch.prose_words.push_back({"", 0});  // words of two blocks never meet
    if (t == "Para" || t == "Plain") {
      inlines(node["c"], false);
    } else if (t == "Header") {
      const Json& attr = node["c"][1];
      ch.headings.push_back({attr[0].get<std::string>(),
                             inline_text(node["c"][2]),
                             node["c"][0].get<int>(), attr_line(attr)});
      inlines(node["c"][2], false);
    } else if (t == "CodeBlock") {
      code_block(node);
    } else if (t == "Div") {
      div(node);
    } else if (t == "BlockQuote") {
      blocks(node["c"]);
    } else if (t == "BulletList") {
      for (const auto& item : node["c"]) blocks(item);
    } else if (t == "OrderedList") {
      for (const auto& item : node["c"][1]) blocks(item);
    } else if (t == "DefinitionList") {
      for (const auto& entry : node["c"]) {
        inlines(entry[0], false);
        for (const auto& def : entry[1]) blocks(def);
      }
    } else if (t == "LineBlock") {
      for (const auto& line : node["c"]) inlines(line, false);
    } else if (t == "Table") {
      if (!in_caption_div && node["c"][1][1].empty()) {
        diags.add(ch.at(attr_line(node["c"][0])),
                  "a table needs a caption for readers of screen readers: "
                  "wrap it in ::: {caption=\"...\"}");
      }
      in_caption_div = false;
      auto rows = [&](const Json& list) {
        for (const auto& row : list) {
          for (const auto& cell : row[1]) blocks(cell[4]);
        }
      };
      rows(node["c"][3][1]);
      for (const auto& body : node["c"][4]) {
        rows(body[2]);
        rows(body[3]);
      }
      rows(node["c"][5][1]);
      blocks(node["c"][1][1]);
    }
  }

  // An id the page writes as the author gave it.
  void element_id(const Json& attr) {
    const std::string& id = attr[0].get_ref<const std::string&>();
    if (!id.empty()) ch.element_ids.push_back(id);
  }

  void check_keys(const Json& attr, std::initializer_list<std::string_view> ok,
                  std::string_view what) {
    for (const auto& kv : attr[2]) {
      const std::string& key = kv[0].get_ref<const std::string&>();
      if (key == "data-pos") continue;
      bool known = false;
      for (auto k : ok) known = known || key == k;
      if (!known) {
        std::string expected;
        for (auto k : ok) {
          expected += expected.empty() ? "" : ", ";
          expected += k;
        }
        diags.add(ch.at(attr_line(attr)),
                  "unknown attribute '" + key + "' on " + std::string(what) +
                      " (expected one of: " + expected + ")");
      }
    }
  }

  // A checked value or literal marker in a code block: code is not
  // checked, so the page would print the marker as it is.
  void code_marker_lint(const std::string& code, int line) {
    static const std::regex marker(R"(\[[^\]]*\]\{(\.lit|value=)[^}]*\})");
    const auto lines = split_lines(code);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const int at = line == 0 ? 0 : line + 1 + static_cast<int>(i);
      std::smatch m;
      if (std::regex_search(lines[i], m, marker)) {
        diags.add(ch.at(at), "a code block holds the marker '" + m.str() +
                                 "', which code shows as it is: write the "
                                 "number or name plainly");
      }
    }
  }

  void code_block(const Json& node) {
    const Json& attr = node["c"][0];
    int line = attr_line(attr);
    std::string code = node["c"][1].get<std::string>();
    code_marker_lint(code, line);
    const CodeKind kind = classify_code_block(attr);
    if (kind == CodeKind::Output) {
      output_block(attr, line, code);
      return;
    }
    if (kind == CodeKind::Plain) {
      check_keys(attr, {}, "a code block");
      element_id(attr);
      return;
    }
    auto file = attr_get(attr, "file");
    auto name = attr_get(attr, "region");
    auto fill = attr_get(attr, "fill");
    auto revise = attr_get(attr, "revise");
    check_keys(attr, {"file", "region", "fill", "revise"}, "a code region");
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
    if (!valid_region(r)) return;
    if (r.name.empty()) r.name = r.revise;  // a revision keeps the name
    ch.regions.push_back(std::move(r));
  }

  // The chapter's one output block, with the lines it spans.
  void output_block(const Json& attr, int line, const std::string& code) {
    check_keys(attr, {}, "an output block");
    if (ch.output) {
      diags.add(ch.at(line), "a second output block (the first is at line " +
                                 std::to_string(ch.output->open_line) +
                                 "); a chapter has at most one");
      return;
    }
    auto range = parse_data_pos(attr_get(attr, "data-pos").value_or(""));
    if (!range || range->line < 1 || range->col < 1) {
      diags.add(ch.at(line), "output block without a source position");
      return;
    }
    OutputBlock out;
    out.text = code;
    out.open_line = range->line;
    out.close_line = range->end_col == 1 ? range->end_line - 1 : range->end_line;
    out.indent = std::string(static_cast<std::size_t>(range->col - 1), ' ');
    ch.output = out;
  }

  // One target (file=, fill= or revise=) and a valid name.
  bool valid_region(const Region& r) {
    int targets = !r.file.empty() + !r.fill.empty() + !r.revise.empty();
    if (targets != 1) {
      diags.add(ch.at(r.line), "a code region needs exactly one of file=, "
                               "fill= or revise=");
      return false;
    }
    if (r.revise.empty() && r.name.empty()) {
      diags.add(ch.at(r.line), "a code region needs a region= name");
      return false;
    }
    if (!r.name.empty() && !is_valid_name(r.name)) {
      diags.add(ch.at(r.line), "invalid region name '" + r.name +
                                   "' (use a-z, 0-9 and -)");
      return false;
    }
    return true;
  }

  // How many items of a kind ("Figure") the chapter has numbered so far.
  std::size_t count(const std::string& kind) const {
    return static_cast<std::size_t>(
        std::count_if(ch.numbered.begin(), ch.numbered.end(),
                      [&](const Numbered& n) { return n.kind == kind; }));
  }

  // Gives the next number of its kind: "Table 25.2".
  void number(const std::string& kind, std::string anchor, int line) {
    const std::string label = kind + " " + item_number_prefix(ch.stem) +
                              "." + std::to_string(count(kind) + 1);
    ch.numbered.push_back({kind, std::move(anchor), label, line});
  }

  void div(const Json& node) {
    const Json& attr = node["c"][0];
    const Json& content = node["c"][1];
    const int line = attr_line(attr);
    const DivClass what = classify_div(attr, content);
    ch.divs.push_back({line, what});
    switch (what.kind) {
      case DivKind::Placement:
        placement(attr, what, content, line);
        return;
      case DivKind::Caption:
        caption(attr, content, line);
        return;
      case DivKind::Exercise:
        exercise(attr, content, line);
        break;
      case DivKind::Workbench:
        check_keys(attr, {"name"}, "a workbench");
        ch.workbenches.push_back(
            {attr_get(attr, "name").value_or(""), line, workbench_anchor(attr)});
        break;
      case DivKind::Callout:
      case DivKind::Plain:
        element_id(attr);
        break;
      default:
        break;
    }
    read_checkpoint(ch, diags, attr, content, line);
    read_ending(ch, diags, attr, content, line);
    // A checkpoint, an ending or a prediction is a box: none nests in another.
    if (what.kind == DivKind::Checkpoint || what.kind == DivKind::Ending ||
        (what.kind == DivKind::Callout && what.name == "prediction")) {
      box(what.name, content, line);
    } else {
      blocks(content);
    }
  }

  void placement(const Json& attr, const DivClass& what, const Json& content,
                 int line) {
    check_keys(attr, {"table", "figure"}, "a table or figure");
    Placement p{what.figure ? "figure" : "table", what.name, !content.empty(),
                line};
    if (attr_get(attr, "table") && attr_get(attr, "figure")) {
      diags.add(ch.at(line), "a div places either a table or a figure");
    }
    if (p.kind == "figure" && !p.has_caption) {
      diags.add(ch.at(line), "figure '" + p.name +
                                 "' needs a caption (the div's content)");
    }
    ch.placements.push_back(p);
    number(what.figure ? "Figure" : "Table",
           placement_anchor(what.figure, p.name), line);
    blocks(content);
  }

  void caption(const Json& attr, const Json& content, int line) {
    check_keys(attr, {"caption"}, "a table caption");
    number("Table", attr[0].get<std::string>(), line);
    if (content.size() != 1 || content[0]["t"] != "Table") {
      diags.add(ch.at(line), "a caption div must hold exactly one table");
    }
    in_caption_div = true;
    blocks(content);
    in_caption_div = false;
  }

  void exercise(const Json& attr, const Json& content, int line) {
    check_keys(attr, {"title", "tests"}, "an exercise");
    number("Exercise", exercise_anchor(attr, count("Exercise") + 1), line);
    ch.numbered.back().title = attr_get(attr, "title").value_or("");
    ch.numbered.back().tests = attr_get(attr, "tests").value_or("");
    if (!has_answer(content)) {
      diags.add(ch.at(line), "exercise without an answer (add a "
                             "'::: answer' div inside it)");
    }
  }

  void box(const std::string& kind, const Json& content, int line) {
    if (!open_box.empty()) {
      const bool vowel = std::string("aeiou").find(kind[0]) != std::string::npos;
      diags.add(ch.at(line), (vowel ? "an " : "a ") + kind +
                                 " block inside the " + open_box +
                                 " block of line " +
                                 std::to_string(open_box_line) +
                                 ": close that one with ':::' first");
    }
    std::string outer = open_box;
    int outer_line = open_box_line;
    open_box = kind;
    open_box_line = line;
    blocks(content);
    open_box = outer;
    open_box_line = outer_line;
  }

  // ---- inlines ----------------------------------------------------------

  void inlines(const Json& list, bool exempt, int line = 0) {
    for (const auto& node : list) inline_node(node, exempt, line);
  }

  void inline_node(const Json& node, bool exempt, int line) {
    const std::string& t = node["t"].get_ref<const std::string&>();
    if (t == "Str") {
      if (!exempt) lint(node["c"].get<std::string>(), line);
      if (!in_link) ch.prose_words.push_back({node["c"].get<std::string>(), line});
    } else if (t == "Code" || t == "RawInline") {
      ch.prose_words.push_back({"", line});
    } else if (t == "Span") {
      const Json& attr = node["c"][0];
      int here = attr_line(attr);
      if (here == 0) here = line;
      const SpanClass what = classify_span(attr);
      if (what.kind == SpanKind::Value) {
        check_keys(attr, {"value"}, "a checked value");
        // Its range is its key too: the writer finds the span's value by
        // it (Chapter::value_at).
        ValueRef v{what.name, inline_text(node["c"][1]),
                   attr_range(attr).value_or(SourceRange{})};
        ch.values.push_back(v);
        ch.prose_words.push_back({"", line});
        return;
      }
      element_id(attr);
      inlines(node["c"][1], exempt || what.kind == SpanKind::Literal, here);
    } else if (t == "Math") {
      ch.math.push_back({node["c"][1].get<std::string>(),
                         node["c"][0]["t"] == "DisplayMath", line});
      ch.prose_words.push_back({"", line});
    } else if (t == "Link") {
      const Json& attr = node["c"][0];
      int here = attr_line(attr) ? attr_line(attr) : line;
      ch.links.push_back({node["c"][2][0].get<std::string>(), here,
                          node["c"][1].empty()});
      ch.prose_words.push_back({"", here});
      const bool outer = in_link;
      in_link = true;
      inlines(node["c"][1], exempt, here);
      in_link = outer;
    } else if (t == "Emph" || t == "Strong" || t == "Strikeout" ||
               t == "Superscript" || t == "Subscript" || t == "SmallCaps" ||
               t == "Underline") {
      inlines(node["c"], exempt, line);
    } else if (t == "Quoted" || t == "Cite") {
      inlines(node["c"][1], exempt, line);
    } else if (t == "Note") {
      blocks(node["c"]);
    }
  }

  static bool word_char(unsigned char c) {
    return std::isalpha(c) || c == '_' || c == '+' || c >= 0x80;
  }

  // Reports numbers of two or more digits, or with a fraction or exponent,
  // that stand on their own (not inside a word such as C++20 or UTF-8).
  void lint(const std::string& s, int line) {
    // Math whose dollars Pandoc did not pair stays as text.
    for (std::size_t k = 0; k < s.size(); ++k) {
      bool command = s[k] == '\\' && k + 1 < s.size() &&
                     std::isalpha(static_cast<unsigned char>(s[k + 1]));
      if (s[k] == '$' || command) {
        ch.stray_tex.push_back({s, line});
        break;
      }
    }
    std::size_t i = 0;
    while (i < s.size()) {
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
        ++i;
        continue;
      }
      std::size_t start = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      std::size_t int_end = i;
      bool fraction = false, exponent = false;
      if (i + 1 < s.size() && s[i] == '.' &&
          std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
        fraction = true;
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      }
      if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
        if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
          exponent = true;
          i = j;
          while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
      }
      bool joined_before =
          start > 0 && (word_char(static_cast<unsigned char>(s[start - 1])) ||
                        (s[start - 1] == '-' && start > 1 &&
                         std::isalpha(static_cast<unsigned char>(s[start - 2]))));
      bool joined_after =
          i < s.size() && (word_char(static_cast<unsigned char>(s[i])) ||
                           (s[i] == '-' && i + 1 < s.size() &&
                            std::isalpha(static_cast<unsigned char>(s[i + 1]))));
      if (joined_before || joined_after) continue;
      std::string number = s.substr(start, i - start);
      if (!fraction && !exponent) {
        std::size_t digits = int_end - start;
        long value = 0;
        std::from_chars(s.data() + start, s.data() + int_end, value);
        if (digits == 1) continue;
        if (digits == 4 && value >= 1900 && value <= 2099) continue;
        if (digits == 2 && number[0] == '0') continue;  // "07"
      }
      ch.unbound.push_back({number, line});
    }
  }
};

// Links inside front-matter inlines (objectives, prerequisites), so that
// the check resolves them like links in the prose; reported at line 1.
// Their words go to meta_words for the lint of chapter mentions: a link,
// code or math leaves an empty word, and so does the end of an item.
void meta_links(const Json& node, Chapter& ch, bool in_link = false) {
  if (node.is_array()) {
    for (const auto& child : node) meta_links(child, ch, in_link);
    return;
  }
  if (!node.is_object() || !node.contains("t")) return;
  const Json& t = node["t"];
  if (t == "Link") {
    ch.links.push_back({node["c"][2][0].get<std::string>(), 1});
    ch.meta_words.push_back({"", 1});
    meta_links(node["c"][1], ch, true);
    return;
  }
  if (t == "Str" && !in_link) {
    ch.meta_words.push_back({node["c"].get<std::string>(), 1});
  } else if (t == "Code" || t == "Math" || t == "MetaInlines" ||
             t == "MetaBlocks") {
    ch.meta_words.push_back({"", 1});
  }
  if (t != "Code" && t != "Math" && node.contains("c")) {
    meta_links(node["c"], ch, in_link);
  }
}

// The optional `demo:` map: timeout (whole seconds, 1 to 3600), quick
// (true or false) and reads (a list of chapter stems). Whether each stem
// names an earlier chapter with a demo is checked by tangle, which sees
// the whole book.
void read_demo_settings(Chapter& ch, Diagnostics& diags) {
  if (!ch.meta.contains("demo")) return;
  const Json& demo = ch.meta["demo"];
  if (demo["t"] != "MetaMap") {
    diags.add(ch.at(1), "front matter: 'demo' must be a map with timeout, "
                        "quick and reads");
    return;
  }
  for (const auto& [key, value] : demo["c"].items()) {
    if (key == "timeout") {
      std::string text = meta_text(value);
      int seconds = 0;
      auto r = std::from_chars(text.data(), text.data() + text.size(), seconds);
      if (r.ec != std::errc() || r.ptr != text.data() + text.size() ||
          seconds < 1 || seconds > 3600) {
        diags.add(ch.at(1), "front matter: demo.timeout must be a whole "
                            "number of seconds from 1 to 3600, got '" +
                                text + "'");
      } else {
        ch.demo.timeout = seconds;
      }
    } else if (key == "quick") {
      if (value["t"] != "MetaBool") {
        diags.add(ch.at(1), "front matter: demo.quick must be true or false, "
                            "got '" + meta_text(value) + "'");
      } else {
        ch.demo.quick = value["c"].get<bool>();
      }
    } else if (key == "reads") {
      if (value["t"] != "MetaList") {
        diags.add(ch.at(1), "front matter: demo.reads must be a list of "
                            "chapter names such as [29-training]");
        continue;
      }
      for (const auto& item : value["c"]) {
        ch.demo.reads.push_back(meta_text(item));
      }
    } else {
      diags.add(ch.at(1), "front matter: demo." + key + " is not a demo "
                          "setting (timeout, quick, reads)");
    }
  }
}

void read_front_matter(Chapter& ch, Diagnostics& diags) {
  const Json& meta = ch.meta;
  auto need = [&](const char* key) -> std::string {
    if (!meta.contains(key)) {
      diags.add(ch.at(1), std::string("front matter: missing '") + key + "'");
      return {};
    }
    return meta_text(meta[key]);
  };
  ch.id = need("id");
  ch.title = need("title");
  std::string part = need("part");
  if (!part.empty()) {
    auto r = std::from_chars(part.data(), part.data() + part.size(), ch.part);
    if (r.ec != std::errc() || r.ptr != part.data() + part.size()) {
      diags.add(ch.at(1), "front matter: 'part' must be a number, got '" +
                              part + "'");
    }
  }
  for (const char* key : {"objectives", "prerequisites"}) {
    if (!meta.contains(key)) {
      diags.add(ch.at(1), std::string("front matter: missing '") + key + "'");
    } else if (meta[key]["t"] != "MetaList") {
      diags.add(ch.at(1), std::string("front matter: '") + key +
                              "' must be a list");
    } else {
      meta_links(meta[key]["c"], ch);
    }
  }
  read_demo_settings(ch, diags);
  if (!ch.id.empty()) {
    // NN-id.md, or NNr-id.md for the review page after chapter NN.
    std::size_t dash = ch.stem.size() > 2 && ch.stem[2] == 'r' ? 3 : 2;
    bool matches = ch.stem.size() == ch.id.size() + dash + 1 &&
                   std::isdigit(static_cast<unsigned char>(ch.stem[0])) &&
                   std::isdigit(static_cast<unsigned char>(ch.stem[1])) &&
                   ch.stem[dash] == '-' &&
                   ch.stem.compare(dash + 1, ch.id.size(), ch.id) == 0;
    if (!matches) {
      diags.add(ch.at(1), "front matter: id '" + ch.id +
                              "' does not match the file name '" + ch.stem +
                              ".md' (expected NN-" + ch.id + ".md)");
    }
  }
}

}  // namespace

Chapter build_chapter(const fs::path& path, const Json& doc) {
  Chapter ch;
  ch.path = path;
  ch.display = display_path(path);
  ch.stem = path.stem().string();
  ch.meta = doc["meta"];
  ch.blocks = doc["blocks"];
  Diagnostics diags;
  read_front_matter(ch, diags);
  Walker walker{ch, diags, {}};
  walker.blocks(ch.blocks);
  check_checkpoints(ch, diags);
  diags.throw_if_any();
  return ch;
}

Chapter load_chapter(const fs::path& path,
                     const std::optional<fs::path>& model_dir) {
  if (model_dir) {
    fs::path cached = *model_dir / (path.stem().string() + ".json");
    if (auto text = read_file_if_exists(cached)) {
      return build_chapter(path, Json::parse(*text));
    }
  }
  return build_chapter(path, parse_with_pandoc(path));
}

Json regions_to_json(const Chapter& ch) {
  Json out = Json::array();
  for (const auto& r : ch.regions) {
    out.push_back({{"name", r.name}, {"file", r.file}, {"fill", r.fill},
                   {"revise", r.revise}, {"hidden", r.hidden},
                   {"lang", r.lang}, {"code", r.code}, {"line", r.line}});
  }
  Json demo{{"timeout", ch.demo.timeout}, {"quick", ch.demo.quick},
            {"reads", ch.demo.reads}};
  return Json{{"id", ch.id}, {"stem", ch.stem}, {"regions", out},
              {"demo", demo}};
}

Json index_to_json(const Chapter& ch) {
  Json headings = Json::array();
  Json anchors = Json::array();
  for (const auto& h : ch.headings) {
    headings.push_back({{"id", h.id}, {"text", h.text}, {"level", h.level}});
    anchors.push_back(h.id);
  }
  for (const auto& r : ch.regions) {
    if (!r.hidden) anchors.push_back(region_anchor(r.name, !r.revise.empty()));
  }
  for (const auto& p : ch.placements) {
    anchors.push_back(placement_anchor(p.kind == "figure", p.name));
  }
  for (const auto& w : ch.workbenches) anchors.push_back(w.anchor);
  for (const auto& id : ch.element_ids) anchors.push_back(id);
  // Exercises and captioned Markdown tables with an id add theirs.
  Json labels = Json::object();
  for (const auto& n : ch.numbered) {
    if (n.anchor.empty()) continue;
    labels[n.anchor] = n.label;
    if (std::find(anchors.begin(), anchors.end(), n.anchor) == anchors.end()) {
      anchors.push_back(n.anchor);
    }
  }
  return Json{{"id", ch.id},         {"stem", ch.stem},
              {"title", ch.title},   {"part", ch.part},
              {"headings", headings}, {"anchors", anchors},
              {"labels", labels}};
}

}  // namespace litbook
