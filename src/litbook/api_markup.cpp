// One pass over a Doxygen page: split it into text, tags and raw runs
// (comments, doctype, script and style bodies), rewrite the tags that
// html-validate or axe would refuse, keep a stack of open elements so that
// a renamed element gets the matching end tag and a bare row its <tbody>.
#include "api_markup.hpp"

#include <array>
#include <optional>
#include <vector>

#include "html_tag.hpp"

namespace litbook {
namespace {

bool is_void(std::string_view name) {
  static constexpr std::array<std::string_view, 13> names = {
      "area", "base", "br", "col", "embed", "hr", "img",
      "input", "link", "meta", "source", "track", "wbr"};
  for (auto n : names) {
    if (n == name) return true;
  }
  return false;
}

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string write_tag(const HtmlTag& tag) {
  std::string out = tag.end ? "</" : "<";
  out += tag.name;
  for (const auto& a : tag.attrs) {
    out += " " + a.name;
    if (!a.value) continue;
    out += "=\"";
    for (char c : *a.value) {
      out += c == '"' ? std::string("&quot;") : std::string(1, c);
    }
    out += "\"";
  }
  out += ">";
  if (tag.self_closed) out += "</" + tag.name + ">";
  return out;
}

// ---- the rewrites of one tag, each reporting whether it changed it ----

bool drop_xhtml(HtmlTag& t) {
  bool changed = t.self_closed;
  if (t.self_closed && is_void(t.name)) t.self_closed = false;
  const std::string* type = t.get("type");
  if (t.name == "script" && type && *type == "text/javascript") {
    t.erase("type");
    changed = true;
  }
  bool cell = t.name == "td" || t.name == "th";
  if (cell && (t.has("align") || t.has("valign"))) {
    t.erase("align");
    t.erase("valign");
    changed = true;
  }
  if (t.name == "th" && !t.has("scope")) {
    t.set("scope", "col");
    changed = true;
  }
  if (t.name == "a" && t.has("name")) {
    if (!t.has("id") && t.get("name")) t.set("id", *t.get("name"));
    t.erase("name");
    changed = true;
  }
  return changed;
}

// A relative link's fragment made valid_id ("page.html#a::b").
std::string fix_fragment(const std::string& href) {
  std::size_t hash = href.find('#');
  if (hash == std::string::npos || href.find("://") != std::string::npos) {
    return href;
  }
  return href.substr(0, hash + 1) +
         valid_id(std::string_view(href).substr(hash + 1));
}

bool fix_ids(HtmlTag& t) {
  bool changed = false;
  auto rewrite = [&](std::string_view key, auto fix) {
    const std::string* v = t.get(key);
    if (!v) return;
    std::string fixed = fix(*v);
    if (fixed == *v) return;
    t.set(key, std::move(fixed));
    changed = true;
  };
  auto id = [](const std::string& v) { return valid_id(v); };
  rewrite("id", id);
  if (t.name == "map") rewrite("name", id);
  rewrite("usemap", fix_fragment);
  rewrite("href", fix_fragment);
  return changed;
}

// Doxygen's divs that hold a landmark's content, and the landmark each
// goes into: a wrapper, since Doxygen's scripts and styles find these divs
// by id and the menu's script puts its mobile toggle just before #main-nav.
// Two navigation landmarks need names to tell them apart.
struct Landmark {
  std::string_view id, element, label;
};
constexpr std::array<Landmark, 3> landmarks = {{
    {"main-nav", "nav", "Index"},
    {"side-nav", "nav", "Tree of pages"},
    {"doc-content", "main", ""},
}};

// The start and end tags of the landmark around `t` ("" for none).
std::pair<std::string, std::string> landmark_around(const HtmlTag& t) {
  const std::string* id = t.get("id");
  if (t.name != "div" || !id) return {};
  for (const auto& l : landmarks) {
    if (*id != l.id) continue;
    std::string element(l.element);
    std::string label =
        l.label.empty() ? "" : " aria-label=\"" + std::string(l.label) + "\"";
    return {"<" + element + label + ">", "</" + element + ">"};
  }
  return {};
}

// The page's title (div.title, Doxygen's heading) becomes its <h1>.
bool rename_title(HtmlTag& t) {
  const std::string* cls = t.get("class");
  if (t.name != "div" || !cls || *cls != "title") return false;
  t.name = "h1";
  return true;
}

// ---- the walk ------------------------------------------------------------

struct Open {
  std::string name;       // as Doxygen wrote it
  std::string written;    // as the pass wrote it
  bool implicit = false;  // a <tbody> the pass added
  std::string after;      // the end tag of a landmark around it
};

class Cleaner {
 public:
  explicit Cleaner(const ApiTitles& titles) : titles_(titles) {}

  void text(std::string_view s);
  void raw(std::string_view s) { out_ += s; }
  void start(HtmlTag t, std::string_view source);
  void end(HtmlTag t, std::string_view source);
  std::string take() { return std::move(out_); }

 private:
  bool inside(std::string_view name) const {
    for (const auto& o : stack_) {
      if (o.written == name) return true;
    }
    return false;
  }
  void name_empty_link();
  bool level_heading(HtmlTag& t);

  const ApiTitles& titles_;
  std::string out_;
  std::vector<Open> stack_;
  // The open <a href>: where its start tag is in out_, and whether it has
  // text (or an image with alt text) yet.
  struct Link {
    std::size_t at, length;
    HtmlTag tag;
  };
  std::optional<Link> link_;
  bool link_text_ = false;
  int heading_ = 0;  // the level of the last heading
};

// A heading at most one level below the one before it (axe's
// heading-order): the member indexes put "- a -" as an <h3> under the
// page's <h1>.
bool Cleaner::level_heading(HtmlTag& t) {
  bool heading = t.name.size() == 2 && t.name[0] == 'h' && t.name[1] >= '1' &&
                 t.name[1] <= '6';
  if (!heading) {
    return false;
  }
  int level = t.name[1] - '0';
  bool changed = level > heading_ + 1;
  heading_ = changed ? heading_ + 1 : level;
  t.name[1] = char('0' + heading_);
  return changed;
}

void Cleaner::text(std::string_view s) {
  if (link_ && s.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    link_text_ = true;
  }
  if (inside("pre") || inside("textarea")) {
    out_ += s;
    return;
  }
  // Trailing spaces: the ones before each newline.
  std::size_t from = 0;
  for (std::size_t nl = s.find('\n'); nl != std::string_view::npos;
       nl = s.find('\n', from)) {
    std::size_t end = nl;
    while (end > from && (s[end - 1] == ' ' || s[end - 1] == '\t')) --end;
    out_ += s.substr(from, end - from);
    out_ += '\n';
    from = nl + 1;
  }
  out_ += s.substr(from);
}

void Cleaner::start(HtmlTag t, std::string_view source) {
  std::string original = t.name;
  if (t.name == "tr" && !stack_.empty() && stack_.back().written == "table") {
    out_ += "<tbody>";
    stack_.push_back({"tbody", "tbody", true, ""});
  }
  if ((t.name == "thead" || t.name == "tbody" || t.name == "tfoot") &&
      !stack_.empty() && stack_.back().implicit) {
    out_ += "</tbody>";
    stack_.pop_back();
  }
  bool self_closed = t.self_closed;
  bool changed = drop_xhtml(t);
  changed = fix_ids(t) || changed;
  changed = rename_title(t) || changed;
  changed = level_heading(t) || changed;
  auto [landmark, after] = landmark_around(t);
  out_ += landmark;
  if (t.name == "img" && link_ && t.get("alt") && !t.get("alt")->empty()) {
    link_text_ = true;
  }
  std::string written = changed ? write_tag(t) : std::string(source);
  if (t.name == "a" && t.has("href")) {
    link_ = Link{out_.size(), written.size(), t};
    link_text_ = false;
  }
  out_ += written;
  if (self_closed || is_void(original)) {
    out_ += after;
  } else {
    stack_.push_back({original, t.name, false, after});
  }
}

void Cleaner::end(HtmlTag t, std::string_view source) {
  // The innermost open element of this name; what is open inside it
  // closes with it (the pass writes the end tags of its own <tbody>s).
  std::size_t at = stack_.size();
  while (at > 0 && stack_[at - 1].name != t.name) --at;
  if (at == 0) {
    out_ += source;
    return;
  }
  for (std::size_t i = stack_.size(); i > at; --i) {
    if (stack_[i - 1].implicit) out_ += "</tbody>";
  }
  Open open = stack_[at - 1];
  stack_.resize(at - 1);
  if (t.name == "a") name_empty_link();
  if (open.written == t.name) {
    out_ += source;
  } else {
    t.name = open.written;
    out_ += write_tag(t);
  }
  out_ += open.after;
}

// A link whose content is only an icon is named after the page it leads
// to, if that page is one of the reference's.
void Cleaner::name_empty_link() {
  if (!link_) return;
  Link link = std::move(*link_);
  link_.reset();
  if (link_text_ || link.tag.has("aria-label")) return;
  std::string href = *link.tag.get("href");
  auto title = titles_.find(std::string_view(href).substr(0, href.find('#')));
  if (title == titles_.end() || title->second.empty()) return;
  link.tag.set("aria-label", title->second);
  out_.replace(link.at, link.length, write_tag(link.tag));
}

// Where the raw run after a <script> or <style> start tag ends.
std::size_t raw_text_end(std::string_view s, std::size_t from,
                         const std::string& name) {
  std::size_t at = s.find("</" + name, from);
  return at == std::string_view::npos ? s.size() : at;
}

// Doxygen's index pages (class members, file members) have no heading but
// the menu's tabs: they get their title as an <h1>, in the header the
// other pages have.
std::string with_heading(std::string page) {
  const std::string_view contents = "<div class=\"contents\">";
  std::size_t at = page.find(contents);
  std::string title = api_page_title(page);
  bool has_heading = page.find("<div class=\"title\">") != std::string::npos ||
                     page.find("<h1") != std::string::npos;
  if (has_heading || at == std::string::npos || title.empty()) {
    return page;
  }
  page.insert(at, "<div class=\"header\"><div class=\"headertitle\"><h1 "
                  "class=\"title\">" + title + "</h1></div></div>\n");
  return page;
}

}  // namespace

std::string valid_id(std::string_view id) {
  std::string out;
  auto letter = [](char c) {
    return is_alpha(c) || static_cast<unsigned char>(c) >= 0x80;  // UTF-8
  };
  if (id.empty() || !letter(id[0])) {
    out = "id-";
  }
  for (char c : id) {
    bool ok = letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
    out += ok ? c : '_';
  }
  return out;
}

std::string api_page_title(std::string_view page) {
  std::size_t open = page.find("<title>");
  std::size_t close = page.find("</title>", open);
  if (open == std::string_view::npos || close == std::string_view::npos) {
    return {};
  }
  std::string_view title = page.substr(open + 7, close - open - 7);
  std::size_t colon = title.find(": ");
  if (colon != std::string_view::npos) title.remove_prefix(colon + 2);
  return std::string(title);
}

std::string clean_api_markup(std::string_view doxygen,
                             const ApiTitles& titles) {
  const std::string headed = with_heading(std::string(doxygen));
  const std::string_view page = headed;
  Cleaner c(titles);
  std::size_t i = 0;
  while (i < page.size()) {
    std::size_t lt = page.find('<', i);
    if (lt != i) {
      std::size_t to = lt == std::string_view::npos ? page.size() : lt;
      c.text(page.substr(i, to - i));
      i = to;
      continue;
    }
    if (std::size_t end = declaration_end(page, i)) {
      c.raw(page.substr(i, end - i));
      i = end;
      continue;
    }
    std::size_t from = i;
    auto tag = parse_tag(page, i);
    if (!tag) {
      c.text(page.substr(i, 1));
      ++i;
      continue;
    }
    std::string_view source = page.substr(from, i - from);
    if (tag->end) {
      c.end(std::move(*tag), source);
      continue;
    }
    bool raw_body = (tag->name == "script" || tag->name == "style") &&
                    !tag->self_closed;
    std::string name = tag->name;
    c.start(std::move(*tag), source);
    if (raw_body) {
      std::size_t end = raw_text_end(page, i, name);
      c.raw(page.substr(i, end - i));
      i = end;
    }
  }
  return c.take();
}

}  // namespace litbook
