#include "search.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace litbook {

namespace {

struct Tag {
  std::string name;    // lower case; "!" for comments and declarations
  std::string_view attrs;
  bool closing = false;
  bool self_closing = false;
  std::size_t end = 0;  // just past '>'
};

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':';
}

// Parses the tag starting at html[pos] == '<'. Attribute values may hold
// '>' when quoted.
Tag parse_tag(std::string_view html, std::size_t pos) {
  Tag t;
  if (html.compare(pos, 4, "<!--") == 0) {
    std::size_t e = html.find("-->", pos + 4);
    t.name = "!";
    t.end = e == std::string_view::npos ? html.size() : e + 3;
    return t;
  }
  std::size_t i = pos + 1;
  if (i < html.size() && html[i] == '/') {
    t.closing = true;
    ++i;
  }
  if (i < html.size() && (html[i] == '!' || html[i] == '?')) {
    std::size_t e = html.find('>', i);
    t.name = "!";
    t.end = e == std::string_view::npos ? html.size() : e + 1;
    return t;
  }
  std::size_t n = i;
  while (n < html.size() && is_name_char(html[n])) ++n;
  t.name.reserve(n - i);
  for (std::size_t k = i; k < n; ++k) {
    t.name += static_cast<char>(std::tolower(static_cast<unsigned char>(html[k])));
  }
  char quote = 0;
  std::size_t k = n;
  for (; k < html.size(); ++k) {
    char c = html[k];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      break;
    }
  }
  t.attrs = html.substr(n, k - n);
  t.self_closing = !t.attrs.empty() && t.attrs.back() == '/';
  t.end = k < html.size() ? k + 1 : html.size();
  return t;
}

// The value of a double-quoted attribute (what every writer of the book's
// pages produces), or nullopt.
std::optional<std::string_view> attr(std::string_view attrs, std::string_view name) {
  std::size_t i = 0;
  while ((i = attrs.find(name, i)) != std::string_view::npos) {
    bool starts = i > 0 && std::isspace(static_cast<unsigned char>(attrs[i - 1]));
    std::size_t v = i + name.size();
    if (starts && attrs.compare(v, 2, "=\"") == 0) {
      std::size_t e = attrs.find('"', v + 2);
      if (e == std::string_view::npos) return std::nullopt;
      return attrs.substr(v + 2, e - v - 2);
    }
    i = v;
  }
  return std::nullopt;
}

bool has_class(std::string_view attrs, std::string_view cls) {
  auto classes = attr(attrs, "class");
  if (!classes) return false;
  std::size_t i = 0;
  while (i < classes->size()) {
    std::size_t e = classes->find(' ', i);
    if (e == std::string_view::npos) e = classes->size();
    if (classes->substr(i, e - i) == cls) return true;
    i = e + 1;
  }
  return false;
}

// Just past the tag that closes the element `name` whose start tag ends at
// `pos` (same-name elements nest).
std::size_t skip_element(std::string_view html, const std::string& name,
                         std::size_t pos) {
  int depth = 1;
  while (pos < html.size()) {
    std::size_t lt = html.find('<', pos);
    if (lt == std::string_view::npos) return html.size();
    Tag t = parse_tag(html, lt);
    pos = t.end;
    if (t.name != name) continue;
    if (t.closing) {
      if (--depth == 0) return pos;
    } else if (!t.self_closing) {
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

// Elements whose start and end separate words; the rest (span, em, code,
// a, ...) are inline and join the text around them.
bool is_block(const std::string& name) {
  static const char* const blocks[] = {
      "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "pre", "br", "hr",
      "table", "tr", "td", "th", "caption", "thead", "tbody", "figure",
      "figcaption", "section", "aside", "blockquote", "h1", "h2", "h3",
      "h4", "h5", "h6", "details", "summary", "main", "article", "header",
      "footer", "img"};
  for (const char* b : blocks) {
    if (name == b) return true;
  }
  return false;
}

// What a reader does not read as the page's prose.
bool is_skipped(const Tag& t) {
  static const char* const always[] = {"script", "style", "svg", "nav",
                                       "button", "template", "header",
                                       "noscript", "textarea"};
  for (const char* s : always) {
    if (t.name == s) return true;
  }
  if (t.name == "span" && has_class(t.attrs, "katex-html")) return true;
  if (t.name == "details" && has_class(t.attrs, "listing-diff")) return true;
  if (t.name == "a" && (has_class(t.attrs, "footnote-ref") ||
                        has_class(t.attrs, "footnote-back"))) {
    return true;
  }
  return false;
}

// The file, region and note of a listing's caption: separate words.
bool is_caption_part(const Tag& t) {
  return has_class(t.attrs, "listing-file") || has_class(t.attrs, "listing-region") ||
         has_class(t.attrs, "listing-note");
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

}  // namespace

std::vector<SearchSection> page_sections(std::string_view html) {
  std::size_t start = html.find("<article");
  if (start == std::string_view::npos) start = html.find("<body");
  if (start == std::string_view::npos) start = 0;
  std::size_t stop = html.find("</article>", start);
  if (stop == std::string_view::npos) stop = html.size();
  html = html.substr(0, stop);

  std::vector<SearchSection> sections(1);
  // Headings before the chapter's body (the boxes "In this chapter" and
  // "Before you start") do not start sections: they belong to the top.
  bool in_body = false;
  std::string heading_tag;  // set while inside a section heading
  std::string* sink = &sections.back().text;
  std::size_t pos = start;
  if (pos < html.size() && html[pos] == '<') pos = parse_tag(html, pos).end;
  while (pos < html.size()) {
    char c = html[pos];
    if (c == '&') {
      pos = decode_entity(html, pos, *sink);
      continue;
    }
    if (c != '<') {
      std::size_t next = html.find_first_of("<&", pos);
      if (next == std::string_view::npos) next = html.size();
      sink->append(html.substr(pos, next - pos));
      pos = next;
      continue;
    }
    Tag t = parse_tag(html, pos);
    pos = t.end;
    if (t.name == "!" || t.name.empty()) continue;
    if (t.closing) {
      if (!heading_tag.empty() && t.name == heading_tag) {
        heading_tag.clear();
        sink = &sections.back().text;
      }
      if (is_block(t.name)) *sink += ' ';
      continue;
    }
    if (t.self_closing) {
      if (is_block(t.name)) *sink += ' ';
      continue;
    }
    if (is_skipped(t)) {
      pos = skip_element(html, t.name, pos);
      continue;
    }
    if (t.name == "math") {
      // KaTeX's MathML copy: keep the TeX source, not the symbols.
      std::size_t end = skip_element(html, "math", pos);
      std::string_view inner = html.substr(pos, end - pos);
      std::size_t a = inner.find("<annotation");
      if (a != std::string_view::npos) {
        std::size_t b = inner.find('>', a);
        std::size_t e = inner.find("</annotation>", b);
        if (b != std::string_view::npos && e != std::string_view::npos) {
          std::string_view tex = inner.substr(b + 1, e - b - 1);
          std::size_t k = 0;
          while (k < tex.size()) {
            if (tex[k] == '&') {
              k = decode_entity(tex, k, *sink);
            } else {
              *sink += tex[k++];
            }
          }
        }
      }
      pos = end;
      continue;
    }
    if (t.name == "div" && has_class(t.attrs, "page-body")) in_body = true;
    if (in_body && heading_tag.empty() && (t.name == "h2" || t.name == "h3")) {
      if (auto id = attr(t.attrs, "id"); id && !id->empty()) {
        sections.push_back({std::string(*id), {}, {}});
        heading_tag = t.name;
        sink = &sections.back().heading;
        continue;
      }
    }
    if (is_block(t.name) || (t.name == "span" && is_caption_part(t))) *sink += ' ';
  }
  for (auto& s : sections) {
    s.heading = collapse_spaces(s.heading);
    s.text = collapse_spaces(s.text);
  }
  if (sections.front().text.empty() && sections.size() > 1) {
    sections.erase(sections.begin());
  }
  return sections;
}

std::string search_index_script(const BookIndex& index, const fs::path& site) {
  Json pages = Json::array();
  for (const auto& ch : index.chapters) {
    fs::path file = site / (ch.stem + ".html");
    std::string html = read_file(file);
    Json sections = Json::array();
    for (const auto& s : page_sections(html)) {
      sections.push_back({{"id", s.id}, {"heading", s.heading}, {"text", s.text}});
    }
    std::string part;
    for (const auto& p : index.parts) {
      if (p.number == ch.part) part = "Part " + std::to_string(p.number) + ": " + p.title;
    }
    pages.push_back({{"url", ch.stem + ".html"},
                     {"number", ch.stem.substr(0, ch.stem.find('-'))},
                     {"title", ch.title},
                     {"part", part},
                     {"sections", sections}});
  }
  Json doc = {{"version", 1}, {"pages", pages}};
  return "/* Generated by litbook search-index from the rendered chapters. */\n"
         "window.BOOK_SEARCH_INDEX = " +
         doc.dump(-1, ' ', false, Json::error_handler_t::replace) + ";\n";
}

}  // namespace litbook
