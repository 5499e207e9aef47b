#include "search.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <unordered_map>

#include "html_tag.hpp"

namespace litbook {

namespace {

// Moves `pos` past the markup at html[pos] == '<' and returns its tag;
// nullopt for a comment or declaration, and for a '<' that starts neither,
// which is text: then `pos` moves past the '<' alone, appended to `text`.
std::optional<HtmlTag> read_markup(std::string_view html, std::size_t& pos,
                                   std::string& text) {
  if (std::size_t end = declaration_end(html, pos)) {
    pos = end;
    return std::nullopt;
  }
  std::optional<HtmlTag> t = parse_tag(html, pos);
  if (!t) text += html[pos++];
  return t;
}

// Just past the tag that closes the element `name` whose start tag ends at
// `pos` (same-name elements nest).
std::size_t skip_element(std::string_view html, const std::string& name,
                         std::size_t pos) {
  int depth = 1;
  std::string ignored;
  while (pos < html.size()) {
    pos = html.find('<', pos);
    if (pos == std::string_view::npos) return html.size();
    std::optional<HtmlTag> t = read_markup(html, pos, ignored);
    if (!t || t->name != name) continue;
    if (t->end) {
      if (--depth == 0) return pos;
    } else if (!t->self_closed) {
      ++depth;
    }
  }
  return html.size();
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x110000) {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes the character reference at html[pos] == '&' into out; returns
// the position after it (or after the '&' alone when it is none).
std::size_t decode_entity(std::string_view html, std::size_t pos, std::string& out) {
  static const std::array<std::pair<std::string_view, std::string_view>, 9> named = {{
      {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"},
      {"nbsp", " "}, {"ndash", "\u2013"}, {"mdash", "\u2014"}, {"hellip", "\u2026"}}};
  std::size_t semi = html.find(';', pos);
  if (semi == std::string_view::npos || semi - pos > 10) {
    out += '&';
    return pos + 1;
  }
  std::string_view ref = html.substr(pos + 1, semi - pos - 1);
  if (!ref.empty() && ref[0] == '#') {
    bool hex = ref.size() > 1 && (ref[1] == 'x' || ref[1] == 'X');
    std::string digits(ref.substr(hex ? 2 : 1));
    char* end = nullptr;
    unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
    if (!digits.empty() && end == digits.c_str() + digits.size()) {
      append_utf8(out, cp == 0xA0 ? ' ' : cp);
      return semi + 1;
    }
  }
  for (const auto& [name, text] : named) {
    if (ref == name) {
      out += text;
      return semi + 1;
    }
  }
  out += '&';
  return pos + 1;
}

enum class Kind { inline_, block, skip, maybe_skip };

// Block elements separate words; inline ones (span, em, code, a, ...) join
// the text around them. Skipped ones hold what a reader does not read as
// the page's prose; some are skipped only with a certain class.
Kind kind_of(const std::string& name) {
  static const std::unordered_map<std::string_view, Kind> kinds = [] {
    std::unordered_map<std::string_view, Kind> m;
    for (const char* b : {"p", "div", "li", "ul", "ol", "dl", "dt", "dd", "pre",
                          "br", "hr", "table", "tr", "td", "th", "caption",
                          "thead", "tbody", "figure", "figcaption", "section",
                          "aside", "blockquote", "h1", "h2", "h3", "h4", "h5",
                          "h6", "summary", "main", "article", "footer", "img"}) {
      m[b] = Kind::block;
    }
    for (const char* k : {"script", "style", "svg", "nav", "button", "template",
                          "header", "noscript", "textarea"}) {
      m[k] = Kind::skip;
    }
    for (const char* k : {"span", "details", "a"}) m[k] = Kind::maybe_skip;
    return m;
  }();
  auto it = kinds.find(name);
  return it == kinds.end() ? Kind::inline_ : it->second;
}

// A span, details or a element that is skipped for its class.
bool is_skipped_by_class(const HtmlTag& t) {
  if (t.name == "span") return t.has_class("katex-html");
  if (t.name == "details") return t.has_class("listing-diff");
  return t.has_class("footnote-ref") || t.has_class("footnote-back");
}

// The file, region and note of a listing's caption: separate words.
bool is_caption_part(const HtmlTag& t) {
  return t.has_class("listing-file") || t.has_class("listing-region") ||
         t.has_class("listing-note");
}

std::string collapse_spaces(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The text of an HTML fragment without its tags, entities decoded, into
// out. Tags join the text around them: in a highlighted listing they
// split tokens, not words; lines are separated by their newlines.
void append_text(std::string_view html, std::string& out) {
  std::size_t k = 0;
  while (k < html.size()) {
    if (html[k] == '&') {
      k = decode_entity(html, k, out);
    } else if (html[k] == '<') {
      read_markup(html, k, out);
    } else {
      out += html[k++];
    }
  }
}

// KaTeX's MathML copy of a formula: its TeX to `code`; for an inline
// formula also its symbols to `prose`, so that the sentence reads on.
void append_math(std::string_view math, bool display, std::string& prose,
                 std::string& code) {
  std::size_t a = math.find("<annotation");
  if (a == std::string_view::npos) return;
  std::size_t b = math.find('>', a);
  std::size_t e = math.find("</annotation>", b);
  if (b == std::string_view::npos || e == std::string_view::npos) return;
  code += ' ';
  append_text(math.substr(b + 1, e - b - 1), code);
  code += ' ';
  if (!display) {
    std::string symbols;
    append_text(math.substr(0, a), symbols);
    for (char c : symbols) {
      if (c != ' ') prose += c;
    }
  }
}

}  // namespace

namespace {

// Walks a page's article once, sending text to the current section's
// heading or text, and listings and math to its code.
class SectionReader {
 public:
  SectionReader(std::string_view html, std::size_t start)
      : html_(html), pos_(start), sections_(1), sink_(&sections_.back().text) {
    if (pos_ < html_.size() && html_[pos_] == '<') {
      read_markup(html_, pos_, *sink_);
    }
  }

  std::vector<SearchSection> read() {
    while (pos_ < html_.size()) {
      char c = html_[pos_];
      if (c == '&') {
        pos_ = decode_entity(html_, pos_, *sink_);
      } else if (c != '<') {
        text();
      } else {
        if (auto t = read_markup(html_, pos_, *sink_)) tag(*t);
      }
    }
    return finish();
  }

 private:
  void text() {
    std::size_t next = pos_;
    while (next < html_.size() && html_[next] != '<' && html_[next] != '&') {
      ++next;
    }
    sink_->append(html_.substr(pos_, next - pos_));
    pos_ = next;
  }

  void tag(const HtmlTag& t) {
    Kind kind = kind_of(t.name);
    if (t.end) {
      if (!heading_tag_.empty() && t.name == heading_tag_) {
        heading_tag_.clear();
        sink_ = &sections_.back().text;
      }
      if (kind == Kind::block) *sink_ += ' ';
    } else if (t.self_closed) {
      if (kind == Kind::block) *sink_ += ' ';
    } else if (kind == Kind::skip ||
               (kind == Kind::maybe_skip && is_skipped_by_class(t))) {
      pos_ = skip_element(html_, t.name, pos_);
    } else if (t.name == "math") {
      math(t);
    } else if (t.name == "pre") {
      listing();
    } else {
      open_tag(t, kind);
    }
  }

  void math(const HtmlTag& t) {
    std::size_t end = skip_element(html_, "math", pos_);
    const std::string* display_attr = t.get("display");
    bool display = display_attr && *display_attr == "block";
    append_math(html_.substr(pos_, end - pos_), display, *sink_,
                sections_.back().code);
    pos_ = end;
  }

  // A listing or an output block: searchable, not shown as prose.
  void listing() {
    std::size_t end = skip_element(html_, "pre", pos_);
    std::string& code = sections_.back().code;
    code += ' ';
    append_text(html_.substr(pos_, end - pos_), code);
    pos_ = end;
    *sink_ += ' ';
  }

  // Headings before the chapter's body (the boxes "In this chapter" and
  // "Before you start") do not start sections: they belong to the top.
  void open_tag(const HtmlTag& t, Kind kind) {
    if (t.name == "div" && t.has_class("page-body")) in_body_ = true;
    if (in_body_ && heading_tag_.empty() && (t.name == "h2" || t.name == "h3")) {
      if (const std::string* id = t.get("id"); id && !id->empty()) {
        sections_.push_back({std::string(*id), {}, {}, {}});
        heading_tag_ = t.name;
        sink_ = &sections_.back().heading;
        return;
      }
    }
    if (kind == Kind::block || (t.name == "span" && is_caption_part(t))) {
      *sink_ += ' ';
    }
  }

  std::vector<SearchSection> finish() {
    for (auto& s : sections_) {
      s.heading = collapse_spaces(s.heading);
      s.text = collapse_spaces(s.text);
      s.code = collapse_spaces(s.code);
    }
    if (sections_.front().text.empty() && sections_.front().code.empty() &&
        sections_.size() > 1) {
      sections_.erase(sections_.begin());
    }
    return std::move(sections_);
  }

  std::string_view html_;
  std::size_t pos_;
  std::vector<SearchSection> sections_;
  std::string* sink_;
  std::string heading_tag_;  // set while inside a section heading
  bool in_body_ = false;
};

}  // namespace

std::vector<SearchSection> page_sections(std::string_view html) {
  std::size_t start = html.find("<article");
  if (start == std::string_view::npos) start = html.find("<body");
  if (start == std::string_view::npos) start = 0;
  std::size_t stop = html.find("</article>", start);
  if (stop == std::string_view::npos) stop = html.size();
  return SectionReader(html.substr(0, stop), start).read();
}

namespace {

std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The sections of one page as JSON text. With a cache directory, a page
// whose size and modification time are those recorded is not read again:
// after a prose edit only the re-rendered page is parsed.
std::string page_sections_json(const fs::path& file, const std::string& stem,
                               const std::optional<fs::path>& cache) {
  std::string key;
  fs::path cached;
  if (cache) {
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    auto time = fs::last_write_time(file, ec);
    if (!ec) {
      key = "litbook-search-2 " + std::to_string(size) + " " +
            std::to_string(time.time_since_epoch().count());
      cached = *cache / (stem + ".json");
      if (auto text = read_file_if_exists(cached)) {
        auto nl = text->find('\n');
        if (nl != std::string::npos && text->compare(0, nl, key) == 0) {
          return text->substr(nl + 1);
        }
      }
    }
  }
  Json sections = Json::array();
  for (const auto& s : page_sections(read_file(file))) {
    Json section = {{"id", s.id}, {"heading", s.heading}, {"text", s.text}};
    if (!s.code.empty()) section["code"] = s.code;
    sections.push_back(section);
  }
  std::string text = dump(sections);
  if (!key.empty()) write_atomic(cached, key + "\n" + text);
  return text;
}

}  // namespace

std::string search_index_script(const BookIndex& index, const fs::path& site,
                                const std::optional<fs::path>& cache) {
  std::string pages;
  for (const auto& ch : index.chapters) {
    std::string part;
    for (const auto& p : index.parts) {
      if (p.number == ch.part) part = "Part " + std::to_string(p.number) + ": " + p.title;
    }
    Json page = {{"url", ch.stem + ".html"},
                 {"number", ch.stem.substr(0, ch.stem.find('-'))},
                 {"title", ch.title},
                 {"part", part}};
    std::string text = dump(page);
    text.pop_back();  // the closing brace: the sections go last
    text += ",\"sections\":" +
            page_sections_json(site / (ch.stem + ".html"), ch.stem, cache) + "}";
    pages += (pages.empty() ? "" : ",") + text;
  }
  return "/* Generated by litbook search-index from the rendered chapters. */\n"
         "window.BOOK_SEARCH_INDEX = {\"version\":2,\"pages\":[" +
         pages + "]};\n";
}

}  // namespace litbook
