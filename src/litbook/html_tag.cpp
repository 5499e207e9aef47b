#include "html_tag.hpp"

#include <algorithm>

namespace litbook {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// The run of characters at `at` up to (not including) the first for which
// `stop` is true, lower-cased; `at` moves past it.
template <class Stop>
std::string take_name(std::string_view s, std::size_t& at, Stop stop) {
  std::string name;
  while (at < s.size() && !stop(s[at])) name += lower(s[at++]);
  return name;
}

}  // namespace

const std::string* HtmlTag::get(std::string_view key) const {
  for (const auto& a : attrs) {
    if (a.name == key && a.value) return &*a.value;
  }
  return nullptr;
}

bool HtmlTag::has(std::string_view key) const {
  for (const auto& a : attrs) {
    if (a.name == key) return true;
  }
  return false;
}

bool HtmlTag::has_class(std::string_view cls) const {
  const std::string* classes = get("class");
  if (!classes) return false;
  std::size_t i = 0;
  while (i < classes->size()) {
    std::size_t e = classes->find(' ', i);
    if (e == std::string::npos) e = classes->size();
    if (std::string_view(*classes).substr(i, e - i) == cls) return true;
    i = e + 1;
  }
  return false;
}

void HtmlTag::erase(std::string_view key) {
  std::erase_if(attrs, [&](const HtmlAttr& a) { return a.name == key; });
}

void HtmlTag::set(std::string_view key, std::string value) {
  for (auto& a : attrs) {
    if (a.name == key) {
      a.value = std::move(value);
      return;
    }
  }
  attrs.push_back({std::string(key), std::move(value)});
}

std::optional<HtmlTag> parse_tag(std::string_view s, std::size_t& at) {
  std::size_t i = at + 1;
  HtmlTag tag;
  tag.end = i < s.size() && s[i] == '/';
  i += tag.end;
  if (i >= s.size() || !is_alpha(s[i])) return std::nullopt;
  tag.name = take_name(
      s, i, [](char c) { return is_space(c) || c == '>' || c == '/'; });
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size()) break;
    if (s[i] == '>') {
      at = i + 1;
      return tag;
    }
    if (s.substr(i, 2) == "/>") {
      tag.self_closed = true;
      at = i + 2;
      return tag;
    }
    HtmlAttr a{take_name(s, i, [](char c) {
                 return is_space(c) || c == '=' || c == '>' || c == '/';
               }), std::nullopt};
    if (a.name.empty()) ++i;  // a stray '/' inside the tag
    while (i < s.size() && is_space(s[i])) ++i;
    if (i < s.size() && s[i] == '=') {
      ++i;
      while (i < s.size() && is_space(s[i])) ++i;
      char quote = i < s.size() && (s[i] == '"' || s[i] == '\'') ? s[i] : 0;
      std::size_t from = i + (quote != 0);
      std::size_t to = quote ? s.find(quote, from)
                             : s.find_first_of(" \t\n\r\f>", from);
      if (to == std::string_view::npos) return std::nullopt;
      a.value = std::string(s.substr(from, to - from));
      i = to + (quote != 0);
    }
    if (!a.name.empty()) tag.attrs.push_back(std::move(a));
  }
  return std::nullopt;  // no '>' before the end of the page
}

std::size_t declaration_end(std::string_view s, std::size_t at) {
  bool comment = s.substr(at, 4) == "<!--";
  if (!comment && s.substr(at, 2) != "<!" && s.substr(at, 2) != "<?") {
    return 0;
  }
  std::size_t end = s.find(comment ? "-->" : ">", at);
  return end == std::string_view::npos ? s.size() : end + (comment ? 3 : 1);
}

}  // namespace litbook
