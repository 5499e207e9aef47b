#include "check.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <string_view>

#include "bookio/fixed.hpp"
#include "classify.hpp"

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
    text = book::fixed(v, decimals);
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
    const std::string& target = link.target;
    const LinkTarget to = parse_link_target(target);
    if (to.kind == LinkTarget::Kind::External) continue;  // not checked offline
    const IndexEntry* chapter =
        to.kind == LinkTarget::Kind::Chapter ? index.by_id(to.chapter) : self;
    if (!chapter && to.kind == LinkTarget::Kind::Chapter) {
      diags.push_back({ch.at(link.line), "link to unknown chapter '" +
                                             to.chapter + "'"});
      continue;
    }
    if (!chapter) continue;
    const std::string& anchor = to.anchor;
    const auto& a = chapter->anchors;
    if (!anchor.empty() && std::find(a.begin(), a.end(), anchor) == a.end()) {
      diags.push_back({ch.at(link.line), "link to unknown anchor '#" + anchor +
                                             "' in chapter '" + chapter->id +
                                             "'"});
    } else if (link.bare && !chapter->labels.contains(anchor)) {
      // [](#figure-NAME) shows "Figure 29.1": only numbered items have one.
      diags.push_back({ch.at(link.line),
                       "a link without text shows the number of a figure, "
                       "table or exercise, but '" + target +
                           "' is none of them"});
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

// Whether the text after a word, from `rest` on (the rest of its line,
// then the next line), reads " chapter" outside a link's text: the word
// "chapter" (or "chapter's"), not followed by "]" or "s".
bool followed_by_chapter(std::string_view rest, std::string_view next_line) {
  auto skip_space = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) {
      t.remove_prefix(1);
    }
    return t;
  };
  std::string_view t = skip_space(rest);
  if (t.empty()) t = skip_space(next_line);
  if (t.substr(0, 7) != "chapter") return false;
  t.remove_prefix(7);
  return t.empty() || (t.front() != ']' && t.front() != 's');
}

// The first line at or after `from` (0-based) where `word` stands between
// non-word characters and is followed by " chapter" that is not a link's
// text; prose words carry no position of their own, so a mention is
// placed by searching the source. Returns 0 if none.
// Empties the lines of fenced code blocks (fence lines included), so that
// a search for prose words passes a code comment holding the same words.
void blank_code_blocks(std::vector<std::string>& lines) {
  std::string fence;  // the open fence's run of ` or ~, or empty
  for (auto& l : lines) {
    const std::size_t at = l.find_first_not_of(' ');
    const bool marks = at != std::string::npos && at < 4 &&
                       (l.compare(at, 3, "```") == 0 || l.compare(at, 3, "~~~") == 0);
    if (fence.empty() && marks) {
      fence = l.substr(at, l.find_first_not_of(l[at], at) - at);
      l.clear();
    } else if (!fence.empty()) {
      const bool closes = marks && l.compare(at, fence.size(), fence) == 0 &&
                          l.find_first_not_of(std::string(1, fence[0]) + " ", at) ==
                              std::string::npos;
      if (closes) fence.clear();
      l.clear();
    }
  }
}

int find_line(const std::vector<std::string>& lines, std::size_t& from,
              const std::string& word) {
  auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  };
  for (std::size_t i = from; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const std::string_view next =
        i + 1 < lines.size() ? std::string_view(lines[i + 1]) : "";
    for (auto at = l.find(word); at != std::string::npos;
         at = l.find(word, at + 1)) {
      const std::size_t end = at + word.size();
      bool left = at == 0 || !word_char(l[at - 1]);
      bool right = end >= l.size() || !word_char(l[end]);
      if (left && right &&
          followed_by_chapter(std::string_view(l).substr(end), next)) {
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
// The front matter's words are checked the same way and reported at
// line 1.
void check_mentions(const Chapter& ch, const BookIndex& index,
                    std::vector<Diagnostic>& diags) {
  std::vector<std::string> lines;
  std::size_t cursor = 0;
  for (const auto* words : {&ch.meta_words, &ch.prose_words}) {
    const auto& w = *words;
    const bool front_matter = words == &ch.meta_words;
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      // "chapter" or "chapter's", not "chapters": "the held-out chapters"
      // of a corpus name no chapter of the book.
      const std::string& next = w[i + 1].text;
      if (w[i].text.empty() || next.rfind("chapter", 0) != 0 ||
          next.rfind("chapters", 0) == 0) {
        continue;
      }
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
      if (lines.empty() && !front_matter) {
        lines = split_lines(read_file(ch.path));
        if (!lines.empty() && lines[0] == "---") {  // skip the front matter
          auto end = std::find(lines.begin() + 1, lines.end(), "---");
          if (end != lines.end()) {
            cursor = static_cast<std::size_t>(end - lines.begin()) + 1;
          }
        }
        blank_code_blocks(lines);  // the prose's words are never in code
      }
      const int line = front_matter ? 1 : find_line(lines, cursor, name);
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
}

// A number standing alone after "=" or "\approx" whose left side
// computes something ("6 \cdot 4 = 24", "\sqrt{d_k} = 16",
// "2 \cdot 512^3 \approx 2.7 \times 10^8") is a derived result that no
// check compares with the demo. A left side that only names a symbol
// ("d_k = 256", "f = 12") gives an input and passes, and so does a
// result that stays exact as a fraction or a power ("25/2", "10^{-k}")
// or has one digit ("\sin^2 1 + \cos^2 1 = 1").
struct MathResult {
  std::string text;    ///< as written: "262{,}144", "2.7 \times 10^8"
  std::string plain;   ///< as a checked value would hold it: "262144"
};

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// The number at s[i] (digits, "{,}" groups, a fraction, a "\times 10^k"
// tail) if it ends the expression; std::nullopt if it is part of one.
std::optional<MathResult> standalone_number(const std::string& s,
                                            std::size_t i) {
  std::size_t j = i;
  std::string plain;
  while (j < s.size()) {
    if (is_digit(s[j])) {
      plain += s[j++];
    } else if (s.compare(j, 3, "{,}") == 0 && j + 3 < s.size() &&
               is_digit(s[j + 3])) {
      j += 3;
    } else if (s[j] == '.' && j + 1 < s.size() && is_digit(s[j + 1]) &&
               plain.find('.') == std::string::npos) {
      plain += s[j++];
    } else {
      break;
    }
  }
  auto skip = [&](std::size_t k) {
    while (k < s.size() && (s[k] == ' ' || s[k] == '\n' || s[k] == '~')) ++k;
    return k;
  };
  std::size_t k = skip(j);
  if (s.compare(k, 6, "\\times") == 0) {  // scientific: 2.7 \times 10^8
    std::size_t t = skip(k + 6);
    if (s.compare(t, 3, "10^") != 0) return std::nullopt;
    t += 3;
    std::string exponent;
    const bool braced = t < s.size() && s[t] == '{';
    if (braced) ++t;
    while (t < s.size() && (is_digit(s[t]) || s[t] == '-')) exponent += s[t++];
    if (braced && (t >= s.size() || s[t] != '}')) return std::nullopt;
    if (braced) ++t;
    if (exponent.empty()) return std::nullopt;
    plain += "e" + exponent;
    j = t;
    k = skip(j);
  }
  // The expression ends here: the math, a separator, or a relation.
  static const char* const enders[] = {"\\approx", "\\quad", "\\qquad",
                                       "\\\\",     "\\text",  "\\;",
                                       "\\,",      "\\end"};
  bool ends = k >= s.size() || std::string_view(",.;:)]}=&<>").find(s[k]) !=
                                   std::string_view::npos;
  for (const char* e : enders) ends = ends || s.compare(k, std::strlen(e), e) == 0;
  if (!ends) return std::nullopt;
  return MathResult{s.substr(i, j - i), plain};
}

// Whether the left side of a relation computes something: after
// subscripts and text are dropped, it holds a digit, an operator or a
// function ("6 \cdot 4", "\sqrt{d_k}", "x^2"), not only symbols ("d_k").
bool computes(std::string lhs) {
  static const std::regex dropped(
      R"(_\{[^{}]*\}|_\\?[A-Za-z0-9]|\\(text|mathrm|operatorname)\{[^{}]*\})");
  lhs = std::regex_replace(lhs, dropped, " ");
  static const std::regex operation(
      R"([0-9+*/^!-]|\\(cdot|times|sqrt|frac|tfrac|dfrac|log|ln|exp|sum|prod|lfloor|lceil)(?![A-Za-z]))");
  return std::regex_search(lhs, operation);
}

// The results of computations written in `tex` (see MathResult).
std::vector<MathResult> math_results(const std::string& s) {
  std::vector<MathResult> found;
  std::vector<std::size_t> lhs_start{0};  // one per bracket depth
  auto at = [&](std::size_t i, const char* w) {
    return s.compare(i, std::strlen(w), w) == 0 &&
           (i + std::strlen(w) >= s.size() ||
            !std::isalpha(static_cast<unsigned char>(s[i + std::strlen(w)])));
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '{' && s.compare(i, 3, "{,}") == 0) {
      i += 2;
    } else if (c == '{' || c == '(' || c == '[') {
      lhs_start.push_back(i + 1);
    } else if ((c == '}' || c == ')' || c == ']') && lhs_start.size() > 1) {
      lhs_start.pop_back();
    } else if (c == ',' || c == ';' || c == '&' || c == '<' || c == '>' ||
               at(i, "\\quad") || at(i, "\\qquad") || at(i, "\\\\") ||
               at(i, "\\le") || at(i, "\\ge") ||
               at(i, "\\leq") || at(i, "\\geq")) {
      lhs_start.back() = i + 1;
    } else if (c == '=' || at(i, "\\approx")) {
      const std::size_t after = c == '=' ? i + 1 : i + 7;
      const std::string lhs = s.substr(lhs_start.back(), i - lhs_start.back());
      lhs_start.back() = after;
      std::size_t k = after;
      while (k < s.size() && (s[k] == ' ' || s[k] == '\n')) ++k;
      std::size_t start = k;
      if (k < s.size() && s[k] == '-') ++k;
      if (k >= s.size() || !is_digit(s[k]) || !computes(lhs)) continue;
      auto r = standalone_number(s, k);
      if (!r) continue;
      const bool decimal = r->plain.find_first_of(".e") != std::string::npos;
      if (!decimal && r->plain.size() < 2) continue;
      if (start != k) {
        r->text = "-" + r->text;
        r->plain = "-" + r->plain;
      }
      found.push_back(*r);
    }
  }
  return found;
}

// A decimal with four or more significant digits inside math (0.8485,
// 1.6487, 0.001999) is a computed result that no check compares with the
// demo; shorter ones (0.999, 0.001, 1.5) are usually chosen inputs.
void check_math_numbers(const Chapter& ch, std::vector<Diagnostic>& diags) {
  for (const auto& m : ch.math) {
    const std::string& s = m.tex;
    std::vector<std::string> reported;
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
        reported.push_back(number);
        diags.push_back({ch.at(m.line),
                         "number '" + number + "' in math is not checked: "
                         "move it out of the math as [" + number +
                             "]{value=NAME}, or as [" + number +
                             "]{.lit} if it is an input"});
      }
      i = j;
    }
    for (const auto& r : math_results(s)) {
      std::string unsigned_plain = r.plain;
      if (!unsigned_plain.empty() && unsigned_plain[0] == '-') {
        unsigned_plain.erase(0, 1);
      }
      if (std::find(reported.begin(), reported.end(), unsigned_plain) !=
          reported.end()) {
        continue;  // already reported above
      }
      diags.push_back({ch.at(m.line),
                       "number '" + r.text + "' in math is a computed "
                       "result that no check compares with the demo: keep "
                       "the computation in math and write the result after "
                       "it as [" + r.plain + "]{value=NAME}"});
    }
  }
}

// The names of the demo's integer values of four or more digits, by
// their text ("1026" -> "vocab"); the first name in order where several
// share a number. Shorter ones (256, 40) match constants and chosen
// inputs by chance too often.
std::map<std::string, std::string> published_integers(const DemoOutputs& out) {
  std::map<std::string, std::string> names;
  for (const auto& [name, v] : out.values.items()) {
    if (v.value("kind", "") != "integer") continue;
    std::string text = v.value("value", "");
    if (!text.empty() && text[0] == '-') text.erase(0, 1);
    if (text.size() >= 4) names.emplace(text, name);
  }
  return names;
}

// A symbol given a number in a formula ("V = 1026", "T = 1024,") reads
// as a chosen input; when the demo publishes that number, it is the
// demo's value, and the page would not notice if the demo changed it.
// Numbers inside a computation ("1026 \\cdot 32") are the computation's
// inputs and stay. Reports each such number with the fix.
void check_published_numbers(const Chapter& ch, const DemoOutputs& out,
                             std::vector<Diagnostic>& diags) {
  static const std::regex given(R"(=\s*([0-9]+)\s*(?=$|[,;]|\\[a-z]))");
  const auto names = published_integers(out);
  for (const auto& m : ch.math) {
    for (std::sregex_iterator it(m.tex.begin(), m.tex.end(), given), end;
         it != end; ++it) {
      const std::string n = (*it)[1].str();
      if (auto name = names.find(n); name != names.end()) {
        diags.push_back({ch.at(m.line),
                         "number '" + n + "' in math is the demo's value '" +
                             name->second + "': write it after the math as [" +
                             n + "]{value=" + name->second + "}"});
      }
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
  if (out.present) check_published_numbers(ch, out, diags);
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
