#include "api.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace litbook {
namespace {

// ---- a scanner for Doxygen's compound XML --------------------------------
// Doxygen writes regular, well-formed XML; the reader needs elements by
// name, their attributes and their text, nothing more.

std::string decode_entities(std::string_view s) {
  static const std::pair<std::string_view, char> kEntities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'},
      {"&apos;", '\''}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&') {
      for (const auto& [name, c] : kEntities) {
        if (s.substr(i, name.size()) == name) {
          out += c;
          i += name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

// The value of attribute `name` in a start tag's text, or "".
std::string attribute(std::string_view tag, std::string_view name) {
  std::string key = std::string(" ").append(name).append("=\"");
  auto at = tag.find(key);
  if (at == std::string_view::npos) return {};
  auto begin = at + key.size();
  auto end = tag.find('"', begin);
  if (end == std::string_view::npos) return {};
  return decode_entities(tag.substr(begin, end - begin));
}

// The text of the first <name>...</name> in `xml` from `from`.
std::string element_text(std::string_view xml, std::string_view name,
                         std::size_t from = 0) {
  std::string open = std::string("<").append(name).append(">");
  std::string close = std::string("</").append(name).append(">");
  auto begin = xml.find(open, from);
  if (begin == std::string_view::npos) return {};
  begin += open.size();
  auto end = xml.find(close, begin);
  if (end == std::string_view::npos) return {};
  return decode_entities(xml.substr(begin, end - begin));
}

// The start tag <name ...> of the first `name` element from `from`, with
// its position; npos when there is none.
std::pair<std::string_view, std::size_t> start_tag(std::string_view xml,
                                                    std::string_view name,
                                                    std::size_t from = 0) {
  std::string open = std::string("<").append(name).append(" ");
  auto at = xml.find(open, from);
  if (at == std::string_view::npos) return {{}, std::string_view::npos};
  auto end = xml.find('>', at);
  if (end == std::string_view::npos) return {{}, std::string_view::npos};
  return {xml.substr(at, end - at + 1), at};
}

int to_line(const std::string& text) {
  try {
    return text.empty() ? 0 : std::stoi(text);
  } catch (const std::exception&) {
    return 0;
  }
}

void set_location(ApiSymbol& s, std::string_view location_tag) {
  s.file = attribute(location_tag, "file");
  s.line = to_line(attribute(location_tag, "line"));
  s.body_file = attribute(location_tag, "bodyfile");
  s.body_line = to_line(attribute(location_tag, "bodystart"));
}

std::string display_name(const std::string& qualified) {
  const std::string prefix = "llm::";
  return qualified.rfind(prefix, 0) == 0 ? qualified.substr(prefix.size())
                                         : qualified;
}

// Classes, structs and namespaces hold the symbols a reader looks up;
// file compounds repeat the namespace members.
bool wanted_compound(const std::string& file_name) {
  for (const char* prefix : {"class", "struct", "namespace"}) {
    if (file_name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

void read_compound(const fs::path& path, std::vector<ApiSymbol>& out) {
  std::string xml = read_file(path);
  auto [compound, at] = start_tag(xml, "compounddef");
  if (at == std::string_view::npos) {
    throw Failure({path.string(), 0},
                  "api: not a Doxygen compound file (no <compounddef>)");
  }
  std::string id = attribute(compound, "id");
  std::string kind = attribute(compound, "kind");
  std::string name = element_text(xml, "compoundname", at);
  if (id.empty() || name.empty()) {
    throw Failure({path.string(), 0},
                  "api: <compounddef> without an id or a compoundname");
  }
  // Anonymous namespaces have no page a reader can use.
  if (name.find('@') != std::string::npos) return;
  std::string page = "api/" + id + ".html";
  std::size_t pos = at;
  std::size_t members_end = at;
  while (true) {
    auto [member, mat] = start_tag(xml, "memberdef", pos);
    if (mat == std::string_view::npos) break;
    auto close = xml.find("</memberdef>", mat);
    if (close == std::string::npos) {
      throw Failure({path.string(), 0}, "api: <memberdef> is not closed");
    }
    pos = members_end = close;
    std::string_view body(xml.data() + mat, close - mat);
    std::string mkind = attribute(member, "kind");
    std::string mid = attribute(member, "id");
    if (attribute(member, "prot") == "private" || mkind == "friend" ||
        mkind == "define") {
      continue;
    }
    // Doxygen's member ids are the page's id, "_1", then the anchor.
    if (mid.rfind(id + "_1", 0) != 0) continue;
    ApiSymbol s;
    s.name = display_name(name + "::" + element_text(body, "name"));
    s.href = page + "#" + mid.substr(id.size() + 2);
    set_location(s, start_tag(body, "location").first);
    if (!s.file.empty()) out.push_back(std::move(s));
  }
  if (kind == "namespace") return;
  // The class's own location follows its members.
  auto [location, lat] = start_tag(xml, "location", members_end);
  if (lat == std::string_view::npos) return;
  ApiSymbol s;
  s.name = display_name(name);
  s.href = page;
  set_location(s, location);
  if (!s.file.empty()) out.push_back(std::move(s));
}

}  // namespace

std::vector<ApiSymbol> read_doxygen_xml(const fs::path& xml_dir) {
  if (!fs::exists(xml_dir / "index.xml")) {
    throw Failure({xml_dir.string(), 0},
                  "api: no Doxygen XML here (index.xml is missing; is "
                  "GENERATE_XML = YES in the Doxyfile?)");
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(xml_dir)) {
    std::string n = e.path().filename().string();
    if (e.path().extension() == ".xml" && wanted_compound(n)) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<ApiSymbol> out;
  for (const auto& f : files) read_compound(f, out);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(a.file, a.line, a.name) < std::tie(b.file, b.line, b.name);
  });
  return out;
}

Json to_json(const std::vector<ApiSymbol>& symbols) {
  Json out = Json::array();
  for (const auto& s : symbols) {
    out.push_back({{"name", s.name},
                   {"href", s.href},
                   {"file", s.file},
                   {"line", s.line},
                   {"body_file", s.body_file},
                   {"body_line", s.body_line}});
  }
  return out;
}

std::vector<ApiSymbol> api_symbols_from_json(const Json& j) {
  std::vector<ApiSymbol> out;
  for (const auto& e : j) {
    out.push_back({e.at("name").get<std::string>(),
                   e.at("href").get<std::string>(),
                   e.at("file").get<std::string>(), e.at("line").get<int>(),
                   e.at("body_file").get<std::string>(),
                   e.at("body_line").get<int>()});
  }
  return out;
}

std::vector<const ApiSymbol*> symbols_on_lines(
    const std::vector<ApiSymbol>& symbols, const std::string& file,
    const Json& ranges) {
  auto inside = [&](const std::string& f, int line) {
    if (f != file || line <= 0) return false;
    for (const auto& r : ranges) {
      if (line >= r[0].get<int>() && line <= r[1].get<int>()) return true;
    }
    return false;
  };
  std::vector<std::pair<int, const ApiSymbol*>> found;
  for (const auto& s : symbols) {
    if (inside(s.file, s.line)) {
      found.push_back({s.line, &s});
    } else if (inside(s.body_file, s.body_line)) {
      found.push_back({s.body_line, &s});
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const ApiSymbol*> out;
  std::set<std::string> seen;
  for (const auto& [line, s] : found) {
    if (seen.insert(s->name).second) out.push_back(s);
  }
  return out;
}

}  // namespace litbook
