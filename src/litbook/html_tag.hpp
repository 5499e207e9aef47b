// Reading the tags of an HTML page one at a time: the one scanner that
// api-links (api_markup.cpp) and the search index (search.cpp) share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace litbook {

struct HtmlAttr {
  std::string name;                  // lower case
  std::optional<std::string> value;  // as written (entities kept)
};

/// A start or end tag as written: <name attr="value" ...>, </name>, <name/>.
struct HtmlTag {
  std::string name;  // lower case
  bool end = false;  // </name>
  bool self_closed = false;  // <name ... />
  std::vector<HtmlAttr> attrs;

  /// The value of attribute `key`, or nullptr if it has none.
  const std::string* get(std::string_view key) const;
  bool has(std::string_view key) const;
  /// Whether the class attribute lists `cls` among its space-separated
  /// names.
  bool has_class(std::string_view cls) const;
  void erase(std::string_view key);
  void set(std::string_view key, std::string value);
};

/// The tag starting at s[at] == '<', or nullopt if what follows is not one
/// (then the '<' is text). `at` moves past the '>'.
std::optional<HtmlTag> parse_tag(std::string_view s, std::size_t& at);

/// Just past the comment (<!-- ... -->), declaration (<!...>) or
/// processing instruction (<?...>) starting at s[at] == '<', or 0 if none
/// starts there. One without its end runs to the end of `s`.
std::size_t declaration_end(std::string_view s, std::size_t at);

}  // namespace litbook
