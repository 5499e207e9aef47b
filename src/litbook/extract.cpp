// Extracting the book's constructs from a simplified chapter document.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "chapter.hpp"
#include "checkpoint.hpp"
#include "classify.hpp"
#include "extract_parts.hpp"

namespace litbook {

// ---- the walk's context ------------------------------------------------

// An id the page writes as the author gave it.
void ExtractContext::element_id(const Json& attr) {
  const std::string& id = attr[0].get_ref<const std::string&>();
  if (!id.empty()) ch.element_ids.push_back(id);
}

void ExtractContext::check_keys(const Json& attr,
                                std::initializer_list<std::string_view> ok,
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
  Walker(Chapter& c, Diagnostics& d) : x{c, d} {}
  ExtractContext x;
  Chapter& ch = x.ch;
  Diagnostics& diags = x.diags;
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
      read_code_block(x, node);
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
        x.check_keys(attr, {"name"}, "a workbench");
        ch.workbenches.push_back(
            {attr_get(attr, "name").value_or(""), line, workbench_anchor(attr)});
        break;
      case DivKind::Callout:
      case DivKind::Plain:
        x.element_id(attr);
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
    x.check_keys(attr, {"table", "figure"}, "a table or figure");
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
    x.check_keys(attr, {"caption"}, "a table caption");
    number("Table", attr[0].get<std::string>(), line);
    if (content.size() != 1 || content[0]["t"] != "Table") {
      diags.add(ch.at(line), "a caption div must hold exactly one table");
    }
    in_caption_div = true;
    blocks(content);
    in_caption_div = false;
  }

  void exercise(const Json& attr, const Json& content, int line) {
    x.check_keys(attr, {"title", "tests"}, "an exercise");
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
      if (!exempt) lint_prose_text(ch, node["c"].get<std::string>(), line);
      if (!in_link) ch.prose_words.push_back({node["c"].get<std::string>(), line});
    } else if (t == "Code" || t == "RawInline") {
      ch.prose_words.push_back({"", line});
    } else if (t == "Span") {
      const Json& attr = node["c"][0];
      int here = attr_line(attr);
      if (here == 0) here = line;
      const SpanClass what = classify_span(attr);
      if (what.kind == SpanKind::Value) {
        x.check_keys(attr, {"value"}, "a checked value");
        // Its range is its key too: the writer finds the span's value by
        // it (Chapter::value_at).
        ValueRef v{what.name, inline_text(node["c"][1]),
                   attr_range(attr).value_or(SourceRange{})};
        ch.values.push_back(v);
        ch.prose_words.push_back({"", line});
        return;
      }
      x.element_id(attr);
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
  Walker walker(ch, diags);
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
