#include "book.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>

namespace litbook {

namespace {

std::string meta_string(const Json& v) {
  if (v.is_null()) return {};
  if (v["t"] == "MetaString") return v["c"].get<std::string>();
  if (v["t"] == "MetaInlines") return inline_text(v["c"]);
  return {};
}

// The line of the `occurrence`-th list item "- needle" (or, failing that,
// of the first line mentioning needle), for diagnostics.
int line_of(const std::string& text, const std::string& needle,
            int occurrence = 1) {
  auto lines = split_lines(text);
  int seen = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string l = lines[i];
    l.erase(0, l.find_first_not_of(" \t"));
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
    if (l == "- " + needle || l == "- \"" + needle + "\"" ||
        l == "title: " + needle || l == "title: \"" + needle + "\"") {
      if (++seen == occurrence) return static_cast<int>(i) + 1;
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(needle) != std::string::npos &&
        lines[i].find('#') == std::string::npos) {
      return static_cast<int>(i) + 1;
    }
  }
  return 0;
}

}  // namespace

std::optional<std::size_t> Book::find(std::string_view key) const {
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string& stem = order[i];
    if (stem == key) return i;
    auto dash = stem.find('-');
    if (dash != std::string::npos && stem.substr(dash + 1) == key) return i;
    if (stem.substr(0, dash) == key) return i;
  }
  return std::nullopt;
}

const Workbench* Book::workbench(std::string_view name) const {
  for (const auto& w : workbenches) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

const Part* Book::part_of(const std::string& stem) const {
  for (const auto& p : parts) {
    if (std::find(p.stems.begin(), p.stems.end(), stem) != p.stems.end()) {
      return &p;
    }
  }
  return nullptr;
}

namespace {

// book.yaml as Pandoc reads front matter: its metadata as JSON.
Json read_book_yaml(const std::string& yaml, const std::string& display) {
  ProcessOptions opts;
  opts.input = "---\n" + yaml + "\n---\n";
  auto result = run_process({"pandoc", "-f", "markdown", "-t", "json"}, opts);
  if (result.exit_code != 0) {
    throw Failure({display, 0}, "invalid YAML: " + result.err);
  }
  return Json::parse(result.out)["meta"];
}

// Reads one part's number, title and chapters into the book.
struct PartReader {
  const fs::path& root;
  const std::string& yaml;
  const std::string& display;
  Book& book;
  Diagnostics& diags;
  std::map<std::string, int> seen;  ///< stem -> line in book.yaml

  void read(const Json& m) {
    Part part;
    std::string number = meta_string(m.value("number", Json()));
    std::from_chars(number.data(), number.data() + number.size(), part.number);
    part.title = meta_string(m.value("title", Json()));
    if (part.number <= 0 || part.title.empty()) {
      diags.add({display, line_of(yaml, part.title.empty() ? "parts" : part.title)},
                "every part needs a 'number' and a 'title'");
    }
    if (m.contains("chapters")) {
      for (const auto& c : m["chapters"]["c"]) chapter(meta_string(c), part);
    }
    book.parts.push_back(part);
  }

  void chapter(const std::string& stem, Part& part) {
    int line = line_of(yaml, stem, seen.count(stem) ? 2 : 1);
    if (seen.count(stem)) {
      diags.add({display, line}, "chapter '" + stem + "' is listed twice");
      return;
    }
    seen[stem] = line;
    if (!fs::exists(root / "chapters" / (stem + ".md"))) {
      diags.add({display, line}, "chapter '" + stem +
                                     "' is listed but chapters/" + stem +
                                     ".md does not exist");
    }
    if (!book.order.empty() && stem < book.order.back()) {
      diags.add({display, line}, "chapter '" + stem + "' is listed after '" +
                                     book.order.back() +
                                     "'; list chapters in number order");
    }
    part.stems.push_back(stem);
    book.order.push_back(stem);
  }
};

// book.yaml's `workbenches:`, each a name (lower-case letters and digits:
// it names files and a JavaScript factory) whose directory
// book/workbench/NAME/ holds NAME.hpp, NAME.cpp and NAME.js, and the
// events it reports.
void read_workbenches(const Json& list, const fs::path& root,
                      const std::string& yaml, const std::string& display,
                      Book& book, Diagnostics& diags) {
  static const std::regex name_form("^[a-z][a-z0-9]*$");
  static const std::regex event_form("^[a-z0-9]+(-[a-z0-9]+)*$");
  if (list["t"] != "MetaList") {
    diags.add({display, line_of(yaml, "workbenches")},
              "workbenches: expected a list of workbenches");
    return;
  }
  for (const auto& item : list["c"]) {
    if (item["t"] != "MetaMap") {
      diags.add({display, line_of(yaml, "workbenches")},
                "workbenches: each item needs a 'name' and its 'events'");
      continue;
    }
    const Json& m = item["c"];
    Workbench w{meta_string(m.value("name", Json())), {}};
    const int line = line_of(yaml, "name: " + w.name);
    const std::string where = "workbench '" + w.name + "'";
    if (!std::regex_match(w.name, name_form)) {
      diags.add({display, line}, "workbenches: the name '" + w.name +
                                     "' must be lower-case letters and "
                                     "digits, starting with a letter");
      continue;
    }
    if (book.workbench(w.name)) {
      diags.add({display, line}, where + " is listed twice");
      continue;
    }
    const fs::path dir = root / "book" / "workbench" / w.name;
    for (const char* ext : {".hpp", ".cpp", ".js"}) {
      if (!fs::exists(dir / (w.name + ext))) {
        diags.add({display, line},
                  where + ": book/workbench/" + w.name + "/" + w.name + ext +
                      " does not exist");
      }
    }
    const Json events = m.value("events", Json());
    if (events.is_null() || events["t"] != "MetaList" || events["c"].empty()) {
      diags.add({display, line}, where + " needs 'events', the list of what "
                                         "it reports");
    } else {
      for (const auto& e : events["c"]) {
        std::string name = meta_string(e);
        if (!std::regex_match(name, event_form)) {
          diags.add({display, line}, where + ": the event '" + name +
                                         "' must be lower-case words "
                                         "joined by '-'");
        }
        w.events.push_back(name);
      }
    }
    book.workbenches.push_back(std::move(w));
  }
}

// Every chapter file must be in the book. NNr-slug.md is the review page
// of the part that chapter NN ends.
void check_all_listed(const fs::path& root,
                      const std::map<std::string, int>& seen,
                      Diagnostics& diags) {
  static const std::regex chapter_name(R"(^[0-9][0-9]r?-[a-z0-9-]+\.md$)");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(root / "chapters")) {
    std::string name = entry.path().filename().string();
    if (std::regex_match(name, chapter_name)) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  for (const auto& name : files) {
    std::string stem = name.substr(0, name.size() - 3);
    if (!seen.count(stem)) {
      diags.add({display_path(root / "chapters" / name), 1},
                "chapter is not listed in book/book.yaml");
    }
  }
}

}  // namespace

Book load_book(const fs::path& root) {
  fs::path yaml_path = root / "book" / "book.yaml";
  std::string display = display_path(yaml_path);
  std::string yaml = read_file(yaml_path);
  Json meta = read_book_yaml(yaml, display);
  Diagnostics diags;
  Book book;
  book.root = root;
  book.title = meta_string(meta.value("title", Json()));
  if (book.title.empty()) diags.add({display, 1}, "missing 'title'");
  if (!meta.contains("parts") || meta["parts"]["t"] != "MetaList") {
    diags.add({display, 1}, "missing 'parts' (a list of parts)");
    diags.throw_if_any();
  }
  if (meta.contains("require")) {
    const Json& r = meta["require"];
    std::vector<Json> items = r["t"] == "MetaList" ? r["c"].get<std::vector<Json>>()
                                                   : std::vector<Json>{r};
    for (const auto& item : items) {
      std::string what = meta_string(item);
      if (what != "checkpoints" && what != "chapter-end") {
        diags.add({display, line_of(yaml, "require")},
                  "require: unknown requirement '" + what +
                      "' (expected checkpoints or chapter-end)");
      }
      book.require.push_back(what);
    }
  }
  if (meta.contains("workbenches")) {
    read_workbenches(meta["workbenches"], root, yaml, display, book, diags);
  }
  PartReader parts{root, yaml, display, book, diags, {}};
  for (const auto& p : meta["parts"]["c"]) parts.read(p["c"]);
  check_all_listed(root, parts.seen, diags);
  diags.throw_if_any();
  return book;
}

}  // namespace litbook

namespace litbook {

const IndexEntry* BookIndex::by_id(std::string_view id) const {
  for (const auto& c : chapters) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

const IndexEntry* BookIndex::by_stem(std::string_view stem) const {
  for (const auto& c : chapters) {
    if (c.stem == stem) return &c;
  }
  return nullptr;
}

Json make_book_index(const Book& book, const std::vector<Json>& chapters) {
  Diagnostics diags;
  Json parts = Json::array();
  for (const auto& p : book.parts) {
    parts.push_back({{"number", p.number}, {"title", p.title},
                     {"chapters", p.stems}});
  }
  std::map<std::string, std::string> ids;
  for (const auto& c : chapters) {
    std::string stem = c["stem"], id = c["id"];
    Location at{display_path(book.chapter_path(stem)), 1};
    if (auto it = ids.find(id); it != ids.end()) {
      diags.add(at, "chapter id '" + id + "' is also used by chapters/" +
                        it->second + ".md");
    }
    ids[id] = stem;
    const Part* part = book.part_of(stem);
    if (part && part->number != c["part"].get<int>()) {
      diags.add(at, "front matter says part " +
                        std::to_string(c["part"].get<int>()) +
                        " but book/book.yaml lists it under part " +
                        std::to_string(part->number));
    }
  }
  diags.throw_if_any();
  return Json{{"title", book.title}, {"parts", parts}, {"chapters", chapters}};
}

BookIndex book_index_from_json(const Json& j) {
  BookIndex idx;
  idx.title = j["title"];
  for (const auto& p : j["parts"]) {
    idx.parts.push_back({p["number"], p["title"],
                         p["chapters"].get<std::vector<std::string>>()});
  }
  for (const auto& c : j["chapters"]) {
    idx.chapters.push_back(
        {c["stem"], c["id"], c["title"], c["part"],
         c["anchors"].get<std::vector<std::string>>(), c["headings"],
         c.value("labels", Json::object())
             .get<std::map<std::string, std::string>>()});
  }
  return idx;
}

}  // namespace litbook
