#include "check.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <regex>

namespace litbook {

bool DemoOutputs::has_table(const std::string& name) const {
  return fs::exists(dir / "tables" / (name + ".json"));
}

bool DemoOutputs::has_figure(const std::string& name) const {
  return fs::exists(dir / "figures" / (name + ".svg"));
}

DemoOutputs load_outputs(const fs::path& dir) {
  DemoOutputs out;
  out.dir = dir;
  auto text = read_file_if_exists(dir / "stdout.txt");
  auto values = read_file_if_exists(dir / "values.json");
  if (!text || !values) return out;
  out.present = true;
  out.stdout_text = *text;
  out.values = Json::parse(*values);
  return out;
}

namespace {

// printf's "%e" text (1.5e-07, 0.0e+00) in the author's exponent style:
// a '+' only if the author wrote one, two digits only if the author padded
// (e-07, e+00), otherwise none (e-7, e0).
std::string exponent_like_author(const std::string& s, bool plus, bool padded) {
  auto e = s.find_first_of("eE");
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e), exp = s.substr(e + 1);
  std::string sign;
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
    sign = exp[0] == '-' ? "-" : (plus ? "+" : "");
    exp.erase(0, 1);
  }
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  if (padded && exp.size() < 2) exp = "0" + exp;
  return mant + "e" + sign + exp;
}

std::string group_thousands(const std::string& s) {
  std::size_t start = s[0] == '-' ? 1 : 0;
  std::size_t end = s.find('.');
  if (end == std::string::npos) end = s.size();
  std::string head = s.substr(start, end - start), grouped;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (i > 0 && (head.size() - i) % 3 == 0) grouped += ',';
    grouped += head[i];
  }
  return s.substr(0, start) + grouped + s.substr(end);
}

}  // namespace

Expected expected_value_text(const Json& value, const std::string& written) {
  std::string kind = value.value("kind", "");
  if (kind == "text") return {value["text"].get<std::string>(), ""};
  static const std::regex number_form(
      R"(^(-?)([0-9][0-9,]*)(\.([0-9]+))?([eE]([+-]?[0-9]+))?$)");
  std::smatch m;
  if (!std::regex_match(written, m, number_form)) {
    return {"", "'" + written + "' is not written as a number"};
  }
  bool commas = m[2].str().find(',') != std::string::npos;
  int decimals = static_cast<int>(m[4].length());
  bool exponent = m[5].matched;
  std::string repr = value["value"].get<std::string>();
  if (kind == "integer") {
    if (decimals > 0 || exponent) {
      return {"", "value is an integer (" + repr + ") but '" + written +
                      "' has decimals"};
    }
    return {commas ? group_thousands(repr) : repr, ""};
  }
  double v = std::strtod(repr.c_str(), nullptr);
  std::string text;
  if (exponent) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", decimals, v);
    std::string written_exp = m[6].str();
    bool plus = written_exp[0] == '+';
    if (written_exp[0] == '+' || written_exp[0] == '-') written_exp.erase(0, 1);
    bool padded = written_exp.size() > 1 && written_exp[0] == '0';
    text = exponent_like_author(buf, plus, padded);
  } else {
    text = format_fixed(v, decimals);
    if (commas) text = group_thousands(text);
  }
  return {text, ""};
}

namespace {

void check_output(const Chapter& ch, const DemoOutputs& out,
                  std::vector<Diagnostic>& diags) {
  if (!ch.output) return;
  std::string want = out.stdout_text;
  std::string have = ch.output->text.empty() ? "" : ch.output->text + "\n";
  if (want == have) return;
  if (!want.empty() && want.back() != '\n') {
    diags.push_back({ch.at(ch.output->open_line),
                     "demos/" + ch.stem + ".cpp does not end its output with a "
                     "newline, which an output block cannot show; print one"});
    return;
  }
  auto a = split_lines(have), b = split_lines(want);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string x = i < a.size() ? a[i] : "<no line>";
    std::string y = i < b.size() ? b[i] : "<no line>";
    if (x != y) {
      int line = ch.output->open_line + 1 + static_cast<int>(i);
      diags.push_back({ch.at(line),
                       "output block differs from what demos/" + ch.stem +
                           ".cpp prints: the chapter has '" + x +
                           "', the program prints '" + y +
                           "' (litbook check --update rewrites the block)"});
      return;
    }
  }
  diags.push_back({ch.at(ch.output->open_line),
                   "output block differs from the program's output in "
                   "whitespace or line endings"});
}

void check_values(const Chapter& ch, const DemoOutputs& out,
                  std::vector<Diagnostic>& diags) {
  for (const auto& v : ch.values) {
    if (!out.values.contains(v.name)) {
      diags.push_back({ch.at(v.range.line),
                       "checked value '" + v.name + "' is not published by "
                       "demos/" + ch.stem + ".cpp (book::show or "
                       "book::publish)"});
      continue;
    }
    auto e = expected_value_text(out.values[v.name], v.text);
    if (!e.error.empty()) {
      diags.push_back({ch.at(v.range.line),
                       "checked value '" + v.name + "': " + e.error});
    } else if (e.text != v.text) {
      diags.push_back({ch.at(v.range.line),
                       "checked value '" + v.name + "' is " + e.text +
                           " in the program but the prose says " + v.text});
    }
  }
}

void check_links(const Chapter& ch, const BookIndex& index,
                 std::vector<Diagnostic>& diags) {
  const IndexEntry* self = index.by_stem(ch.stem);
  for (const auto& link : ch.links) {
    std::string target = link.target;
    const IndexEntry* chapter = nullptr;
    std::string anchor;
    if (target.rfind("chapter:", 0) == 0) {
      std::string rest = target.substr(8);
      auto hash = rest.find('#');
      std::string id = rest.substr(0, hash);
      if (hash != std::string::npos) anchor = rest.substr(hash + 1);
      chapter = index.by_id(id);
      if (!chapter) {
        diags.push_back({ch.at(link.line), "link to unknown chapter '" + id +
                                               "'"});
        continue;
      }
    } else if (!target.empty() && target[0] == '#') {
      chapter = self;
      anchor = target.substr(1);
    } else {
      continue;  // external links are not checked offline
    }
    if (anchor.empty() || !chapter) continue;
    const auto& a = chapter->anchors;
    if (std::find(a.begin(), a.end(), anchor) == a.end()) {
      diags.push_back({ch.at(link.line), "link to unknown anchor '#" + anchor +
                                             "' in chapter '" + chapter->id +
                                             "'"});
    }
  }
}

// A word with the punctuation around it removed: "(tensor-views," ->
// "tensor-views".
std::string bare_word(const std::string& w) {
  auto keep = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  };
  std::size_t a = 0, b = w.size();
  while (a < b && !keep(w[a])) ++a;
  while (b > a && !keep(w[b - 1])) --b;
  return w.substr(a, b - a);
}

// The first line at or after `from` (0-based) that holds `word` between
// non-word characters; prose words carry no position of their own, so
// a mention is placed by searching the source. Returns 0 if none.
int find_line(const std::vector<std::string>& lines, std::size_t& from,
              const std::string& word) {
  auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  };
  for (std::size_t i = from; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    for (auto at = l.find(word); at != std::string::npos;
         at = l.find(word, at + 1)) {
      bool left = at == 0 || !word_char(l[at - 1]);
      bool right = at + word.size() >= l.size() || !word_char(l[at + word.size()]);
      if (left && right) {
        from = i;
        return static_cast<int>(i) + 1;
      }
    }
  }
  return 0;
}

// "the tensor-autodiff chapter" in prose: a chapter named by its id
// must be a link, and "the kv-cache chapter", a hyphenated name of no
// chapter, is reported too. A link, code, math or a value span between
// the words breaks the pair (each leaves an empty word).
void check_mentions(const Chapter& ch, const BookIndex& index,
                    std::vector<Diagnostic>& diags) {
  const auto& w = ch.prose_words;
  std::vector<std::string> lines;
  std::size_t cursor = 0;
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    if (w[i].text.empty() || w[i + 1].text.rfind("chapter", 0) != 0) continue;
    const std::string name = bare_word(w[i].text);
    if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) {
      continue;
    }
    const bool known = index.by_id(name) != nullptr;
    const bool after_the =
        i > 0 && (w[i - 1].text == "the" || w[i - 1].text == "The");
    if (!known && !(after_the && name.find('-') != std::string::npos)) {
      continue;
    }
    if (lines.empty()) {
      lines = split_lines(read_file(ch.path));
      if (!lines.empty() && lines[0] == "---") {  // skip the front matter
        auto end = std::find(lines.begin() + 1, lines.end(), "---");
        if (end != lines.end()) cursor = static_cast<std::size_t>(end - lines.begin()) + 1;
      }
    }
    const int line = find_line(lines, cursor, name);
    if (known) {
      diags.push_back({ch.at(line),
                       "chapter '" + name + "' is named in prose without a "
                       "link: write [the " + name + " chapter](chapter:" +
                           name + ")"});
    } else {
      diags.push_back({ch.at(line),
                       "'" + name + " chapter' names no chapter of the book "
                       "(no chapter has the id '" + name + "')"});
    }
  }
}

// A decimal with four or more significant digits inside math (0.8485,
// 1.6487, 0.001999) is a computed result that no check compares with the
// demo; shorter ones (0.999, 0.001, 1.5) are usually chosen inputs.
void check_math_numbers(const Chapter& ch, std::vector<Diagnostic>& diags) {
  for (const auto& m : ch.math) {
    const std::string& s = m.tex;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i])) ||
          (i > 0 && (std::isalnum(static_cast<unsigned char>(s[i - 1])) ||
                     s[i - 1] == '.' || s[i - 1] == '\\'))) {
        continue;
      }
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      std::size_t fraction = 0;
      if (j + 1 < s.size() && s[j] == '.') {
        std::size_t k = j + 1;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
        fraction = k - j - 1;
        j = k;
      }
      const std::string digits = s.substr(i, j - i);
      const std::size_t first = digits.find_first_of("123456789");
      std::size_t significant = 0;
      for (std::size_t d = first; d < digits.size(); ++d) {
        significant += digits[d] != '.' ? 1 : 0;
      }
      if (fraction > 0 && first != std::string::npos && significant >= 4) {
        const std::string number = s.substr(i, j - i);
        diags.push_back({ch.at(m.line),
                         "number '" + number + "' in math is not checked: "
                         "move it out of the math as [" + number +
                             "]{value=NAME}, or as [" + number +
                             "]{.lit} if it is an input"});
      }
      i = j;
    }
  }
}

}  // namespace

std::vector<Diagnostic> missing_placements(const Chapter& ch,
                                           const DemoOutputs& out) {
  std::vector<Diagnostic> diags;
  for (const auto& p : ch.placements) {
    bool ok = p.kind == "table" ? out.has_table(p.name)
                                : out.has_figure(p.name);
    if (!ok) {
      diags.push_back({ch.at(p.line), p.kind + " '" + p.name +
                                          "' is not published by demos/" +
                                          ch.stem + ".cpp"});
    }
  }
  return diags;
}

std::vector<Diagnostic> check_chapter(const Chapter& ch,
                                      const DemoOutputs& out,
                                      const BookIndex& index) {
  std::vector<Diagnostic> diags;
  bool needs_demo = ch.output || !ch.values.empty() || !ch.placements.empty();
  if (needs_demo && !out.present) {
    diags.push_back({ch.at(1), "no demo output to check against (expected "
                               "demos/" + ch.stem + ".cpp to have run into " +
                               display_path(out.dir) + ")"});
  } else if (needs_demo) {
    check_output(ch, out, diags);
    check_values(ch, out, diags);
    for (auto& d : missing_placements(ch, out)) diags.push_back(std::move(d));
  }
  if (!ch.output && out.present && !out.stdout_text.empty()) {
    diags.push_back({ch.at(1), "demos/" + ch.stem + ".cpp prints a report "
                               "but the chapter has no output block "
                               "(```{.output}) to check it against"});
  }
  for (const auto& n : ch.unbound) {
    diags.push_back({ch.at(n.line),
                     "number '" + n.text + "' in prose is not bound to a "
                     "value: write [" + n.text + "]{value=NAME}, or [" +
                         n.text + "]{.lit} if it is an input"});
  }
  for (const auto& t : ch.stray_tex) {
    diags.push_back({ch.at(t.line),
                     "'" + t.text + "' looks like math outside $...$ (are the "
                     "dollar signs unbalanced?)"});
  }
  check_links(ch, index, diags);
  check_mentions(ch, index, diags);
  check_math_numbers(ch, diags);
  std::stable_sort(diags.begin(), diags.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.where.line < b.where.line;
                   });
  return diags;
}

namespace {

// Byte offset of a 1-based code-point column in a UTF-8 line.
std::size_t byte_offset(const std::string& line, int col) {
  std::size_t i = 0;
  for (int c = 1; c < col && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) {
      ++i;
    }
  }
  return i;
}

}  // namespace

int update_chapter(const Chapter& ch, const DemoOutputs& out) {
  if (!out.present) {
    throw Failure(ch.at(1), "no demo output to update from (run the build "
                            "first)");
  }
  std::string source = read_file(ch.path);
  bool crlf = source.find("\r\n") != std::string::npos;
  bool final_newline = !source.empty() && source.back() == '\n';
  std::vector<std::string> lines = split_lines(source);
  int edits = 0;
  // Values, last first, so earlier columns stay valid.
  std::vector<const ValueRef*> values;
  for (const auto& v : ch.values) values.push_back(&v);
  std::sort(values.begin(), values.end(), [](auto* a, auto* b) {
    return std::tie(a->range.line, a->range.col) >
           std::tie(b->range.line, b->range.col);
  });
  for (const ValueRef* v : values) {
    if (!out.values.contains(v->name)) continue;
    auto e = expected_value_text(out.values[v->name], v->text);
    if (!e.error.empty() || e.text == v->text) continue;
    std::string& line = lines.at(static_cast<std::size_t>(v->range.line - 1));
    std::size_t open = byte_offset(line, v->range.col);
    if (open >= line.size() || line[open] != '[' ||
        line.compare(open + 1, v->text.size(), v->text) != 0 ||
        line[open + 1 + v->text.size()] != ']') {
      throw Failure(ch.at(v->range.line),
                    "cannot update checked value '" + v->name +
                        "': write it as [number]{value=" + v->name + "}");
    }
    line.replace(open + 1, v->text.size(), e.text);
    ++edits;
  }
  std::string shown = ch.output && !ch.output->text.empty()
                          ? ch.output->text + "\n"
                          : "";
  bool representable = out.stdout_text.empty() || out.stdout_text.back() == '\n';
  if (ch.output && shown != out.stdout_text && representable) {
    std::vector<std::string> body;
    for (const auto& l : split_lines(out.stdout_text)) {
      body.push_back(l.empty() ? l : ch.output->indent + l);
    }
    auto first = lines.begin() + ch.output->open_line;   // after the fence
    auto last = lines.begin() + (ch.output->close_line - 1);
    lines.erase(first, last);
    lines.insert(lines.begin() + ch.output->open_line, body.begin(),
                 body.end());
    ++edits;
  }
  if (edits == 0) return 0;
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    text += lines[i];
    if (i + 1 < lines.size() || final_newline) text += crlf ? "\r\n" : "\n";
  }
  write_atomic(ch.path, text);
  return edits;
}

}  // namespace litbook
