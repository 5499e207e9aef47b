#include "tangle.hpp"

#include <algorithm>
#include <set>

namespace litbook {

ChapterCode code_from_json(const Json& j, const std::string& display) {
  ChapterCode c;
  c.stem = j["stem"];
  c.id = j["id"];
  c.display = display;
  for (const auto& r : j["regions"]) {
    Region region;
    region.name = r["name"];
    region.file = r["file"];
    region.fill = r["fill"];
    region.revise = r["revise"];
    region.hidden = r["hidden"];
    region.lang = r["lang"];
    region.code = r["code"];
    region.line = r["line"];
    c.regions.push_back(region);
  }
  if (j.contains("demo")) {
    c.demo.timeout = j["demo"]["timeout"];
    c.demo.quick = j["demo"]["quick"];
    c.demo.reads = j["demo"]["reads"].get<std::vector<std::string>>();
  }
  return c;
}

ChapterCode code_of(const Chapter& ch) {
  return {ch.stem, ch.id, ch.display, ch.regions, ch.demo};
}

namespace {

const std::string kManifest = "snippets.cmake";

// "// <<name>>" alone on a line; returns the name and the indentation.
std::optional<std::pair<std::string, std::string>> placeholder(
    const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos) return std::nullopt;
  std::string rest = line.substr(i);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) {
    rest.pop_back();
  }
  if (rest.rfind("// <<", 0) != 0 || rest.size() < 8 ||
      rest.compare(rest.size() - 2, 2, ">>") != 0) {
    return std::nullopt;
  }
  std::string name = rest.substr(5, rest.size() - 7);
  if (!is_valid_name(name)) return std::nullopt;
  return std::make_pair(name, line.substr(0, i));
}

std::string check_target(const std::string& file) {
  if (file.empty()) return "empty file name";
  if (file.front() == '/' || file.find('\\') != std::string::npos) {
    return "file '" + file + "' must be a relative path under snippets/";
  }
  fs::path p(file);
  for (const auto& part : p) {
    if (part == ".." || part == ".") {
      return "file '" + file + "' escapes snippets/ (no '.' or '..' parts)";
    }
  }
  std::string top = p.begin()->string();
  if (top != "llm" && top != "demos" && top != "exercises" &&
      top != "programs") {
    return "file '" + file +
           "' must be under llm/, demos/, exercises/ or programs/ in "
           "snippets/";
  }
  if (file == kManifest) return "file name '" + file + "' is reserved";
  return {};
}

struct Owner {
  std::string chapter;  // stem
  std::string display;
  int line = 0;
};

struct State {
  struct Entry {
    RegionInfo info;
    std::string slot;  // for fill regions
    Owner owner;
  };
  std::map<std::string, Entry> regions;
  std::map<std::string, std::vector<std::string>> file_order;  // file -> names
  std::vector<std::string> file_list;                          // first seen
  std::map<std::string, std::vector<std::string>> fills;       // slot -> names
  std::map<std::string, std::vector<std::string>> file_chapters;
};

// All placeholders currently present in any region body.
std::set<std::string> known_slots(const State& s) {
  std::set<std::string> out;
  for (const auto& [name, e] : s.regions) {
    for (const auto& line : split_lines(e.info.code)) {
      if (auto p = placeholder(line)) out.insert(p->first);
    }
  }
  return out;
}

// with_header() puts two comment lines and a blank line before the body.
constexpr int kHeaderLines = 3;

// Sorted line numbers as [first, last] ranges of consecutive lines.
Json line_ranges(const std::vector<int>& lines) {
  Json out = Json::array();
  for (int n : lines) {
    if (!out.empty() && out.back()[1].get<int>() + 1 == n) {
      out.back()[1] = n;
    } else {
      out.push_back({n, n});
    }
  }
  return out;
}

struct Expander {
  const State& s;
  Diagnostics& diags;
  std::map<std::string, int> slot_uses;
  // The lines of the generated file each region wrote itself (its fills
  // excluded): render links a listing to the symbols Doxygen finds there.
  std::map<std::string, std::vector<int>> region_lines;
  std::size_t counted = 0;  // bytes of the current body already counted
  int next = 1;             // body line number of the next line written
  // The chapter line of every region line written, per file (for mapping
  // compiler diagnostics back to the chapters).
  std::map<std::string, std::map<int, Location>> origins;
  std::string file;

  void start_file(const std::string& name) {
    file = name;
    counted = 0;
    next = 1;
  }
  int next_line(const std::string& out) {
    next += static_cast<int>(
        std::count(out.begin() + static_cast<std::ptrdiff_t>(counted),
                   out.end(), '\n'));
    counted = out.size();
    return next;
  }

  void region(const std::string& name, const std::string& indent,
              std::vector<std::string>& stack, std::string& out) {
    const auto& e = s.regions.at(name);
    out += indent + "// " + chapter_id(e.info.chapter) + ": " + name;
    if (!e.info.revised_in.empty()) {
      out += " (revised in " + chapter_id(e.info.revised_in) + ")";
    }
    out += "\n";
    int offset = 0;  // of the line in the region's code block
    for (const auto& line : split_lines(e.info.code)) {
      ++offset;
      auto p = placeholder(line);
      if (!p) {
        int at = next_line(out) + kHeaderLines;
        region_lines[name].push_back(at);
        origins[file][at] = {e.info.code_from, e.info.code_line + offset};
        out += line.empty() ? "\n" : indent + line + "\n";
        continue;
      }
      const std::string& slot = p->first;
      ++slot_uses[slot];
      if (std::find(stack.begin(), stack.end(), slot) != stack.end()) {
        diags.add({e.owner.display, e.owner.line},
                  "placeholder cycle: " + cycle_text(stack, slot));
        continue;
      }
      auto it = s.fills.find(slot);
      if (it == s.fills.end()) continue;  // not filled yet: tangles to nothing
      stack.push_back(slot);
      for (const auto& fill : it->second) {
        region(fill, indent + p->second, stack, out);
      }
      stack.pop_back();
    }
  }

  static std::string chapter_id(const std::string& stem) {
    auto dash = stem.find('-');
    return dash == std::string::npos ? stem : stem.substr(dash + 1);
  }

  static std::string cycle_text(const std::vector<std::string>& stack,
                                const std::string& slot) {
    std::string text;
    bool on = false;
    for (const auto& s : stack) {
      on = on || s == slot;
      if (on) text += s + " -> ";
    }
    return text + slot;
  }
};

// The demo settings of the chapters whose front matter has a `demo:` map:
// the run-demo arguments and the demos each one reads. A demo may read
// only an earlier chapter's demo, so the build graph has no cycle.
std::string demo_settings(const std::vector<ChapterCode>& chapters,
                          const State& s, Diagnostics& diags) {
  std::string out;
  std::set<std::string> earlier_demos;
  for (const auto& ch : chapters) {
    bool has_demo = s.file_order.count("demos/" + ch.stem + ".cpp") > 0;
    if (ch.demo != DemoSettings{}) {
      if (!has_demo) {
        diags.add({ch.display, 1}, "front matter: 'demo' settings, but the "
                                   "chapter has no demo (no region with "
                                   "file=demos/" + ch.stem + ".cpp)");
      }
      out += "set(LITBOOK_DEMO_ARGS_" + ch.stem + " --timeout " +
             std::to_string(ch.demo.timeout) +
             (ch.demo.quick ? " --quick" : "") + ")\n";
      std::string reads;
      for (const auto& r : ch.demo.reads) {
        if (!earlier_demos.count(r)) {
          diags.add({ch.display, 1},
                    "front matter: demo.reads names '" + r +
                        "', which is not an earlier chapter with a demo");
        }
        reads += " " + r;
      }
      if (!reads.empty()) {
        out += "set(LITBOOK_DEMO_READS_" + ch.stem + reads + ")\n";
      }
    }
    if (has_demo) earlier_demos.insert(ch.stem);
  }
  return out;
}

std::string manifest(const State& s) {
  std::string sources, demos, headers, programs;
  for (const auto& file : s.file_list) {
    fs::path p(file);
    if (p.extension() == ".hpp" || p.extension() == ".h") {
      headers += "  " + file + "\n";
    }
    if (p.extension() != ".cpp") continue;
    std::string top = p.begin()->string();
    if (top == "llm") sources += "  " + file + "\n";
    if (top == "demos") demos += "  " + p.stem().string() + "\n";
    if (top == "programs") programs += "  " + p.stem().string() + "\n";
  }
  return "set(LITBOOK_LIBRARY_SOURCES\n" + sources + ")\n" +
         "set(LITBOOK_HEADERS\n" + headers + ")\n" +
         "set(LITBOOK_DEMOS\n" + demos + ")\n" +
         "set(LITBOOK_PROGRAMS\n" + programs + ")\n";
}

}  // namespace

std::string with_header(const std::string& body,
                        const std::vector<std::string>& chapters) {
  std::string from;
  for (const auto& ch : chapters) {
    from += (from.empty() ? "" : ", ") + ("chapters/" + ch + ".md");
  }
  return "// Generated by litbook from " + from +
         ".\n// Do not edit: change the chapters. litbook-checksum: " +
         hash_hex(body) + "\n\n" + body;
}

std::optional<bool> checksum_intact(const std::string& bytes) {
  const std::string key = "litbook-checksum: ";
  auto second_nl = bytes.find('\n', bytes.find('\n') + 1);
  if (second_nl == std::string::npos) return std::nullopt;
  auto pos = bytes.find(key);
  if (pos == std::string::npos || pos > second_nl) return std::nullopt;
  std::string sum = bytes.substr(pos + key.size(), 16);
  if (second_nl + 2 > bytes.size()) return false;
  return hash_hex(std::string_view(bytes).substr(second_nl + 2)) == sum;
}

namespace {

using Listings = std::map<std::string, Json>;

// A region that revises an earlier one replaces its code in place.
void record_revision(const ChapterCode& ch, const Region& r, State& s,
                     Listings& listings, Diagnostics& diags) {
  auto it = s.regions.find(r.revise);
  if (it == s.regions.end()) {
    diags.add({ch.display, r.line}, "revises unknown region '" + r.revise +
                                        "' (no earlier chapter defines it)");
    return;
  }
  auto& info = it->second.info;
  listings[ch.stem][r.revise] = {{"file", info.file},
                                 {"origin", info.chapter},
                                 {"previous", info.code}};
  info.previous_code = info.code;
  info.code = r.code;
  info.code_from = ch.display;
  info.code_line = r.line;
  info.revised_in = ch.stem;
  s.file_chapters[info.file].push_back(ch.stem);
}

// A region that fills a placeholder goes to the file of the region
// holding that placeholder. False when there is no such placeholder.
bool place_in_slot(const Region& r, const Location& at, State& s,
                   State::Entry& e, Diagnostics& diags) {
  if (!known_slots(s).count(r.fill)) {
    diags.add(at, "fills unknown placeholder '" + r.fill +
                      "' (no earlier region has a line '// <<" + r.fill +
                      ">>')");
    return false;
  }
  e.slot = r.fill;
  for (const auto& [name, other] : s.regions) {
    for (const auto& line : split_lines(other.info.code)) {
      auto p = placeholder(line);
      if (p && p->first == r.fill) e.info.file = other.info.file;
    }
  }
  s.fills[r.fill].push_back(r.name);
  return true;
}

// A region with file= starts or continues that file. False when the
// file is not one a chapter may write.
bool place_in_file(const ChapterCode& ch, const Region& r, const Location& at,
                   State& s, State::Entry& e, Diagnostics& diags) {
  std::string problem = check_target(r.file);
  if (!problem.empty()) {
    diags.add(at, problem);
    return false;
  }
  if (r.file.rfind("demos/", 0) == 0 && r.file != "demos/" + ch.stem + ".cpp") {
    diags.add(at, "file '" + r.file + "': this chapter's demo is demos/" +
                      ch.stem + ".cpp");
    return false;
  }
  e.info.file = r.file;
  if (!s.file_order.count(r.file)) s.file_list.push_back(r.file);
  s.file_order[r.file].push_back(r.name);
  return true;
}

// A new region: where it goes, and who defined it.
void record_region(const ChapterCode& ch, const Region& r, State& s,
                   Listings& listings, Diagnostics& diags) {
  Location at{ch.display, r.line};
  if (auto it = s.regions.find(r.name); it != s.regions.end()) {
    diags.add(at, "duplicate region '" + r.name + "' (first defined at " +
                      it->second.owner.display + ":" +
                      std::to_string(it->second.owner.line) + ")");
    return;
  }
  State::Entry e;
  e.owner = {ch.stem, ch.display, r.line};
  e.info.name = r.name;
  e.info.chapter = ch.stem;
  e.info.code = r.code;
  e.info.line = r.line;
  e.info.code_from = ch.display;
  e.info.code_line = r.line;
  bool placed = r.fill.empty() ? place_in_file(ch, r, at, s, e, diags)
                               : place_in_slot(r, at, s, e, diags);
  if (!placed) return;
  s.file_chapters[e.info.file].push_back(ch.stem);
  listings[ch.stem][r.name] = {{"file", e.info.file}};
  s.regions[r.name] = e;
}

// Every file, its regions expanded in order, under the generated header.
void expand_files(State& s, Expander& ex, TangleResult& result) {
  for (const auto& file : s.file_list) {
    std::string body;
    std::vector<std::string> stack;
    bool first = true;
    ex.start_file(file);
    for (const auto& name : s.file_order.at(file)) {
      if (!first) body += "\n";
      first = false;
      ex.region(name, "", stack, body);
    }
    auto chs = s.file_chapters[file];
    std::sort(chs.begin(), chs.end());
    chs.erase(std::unique(chs.begin(), chs.end()), chs.end());
    result.files[file] = with_header(body, chs);
  }
}

// Each placeholder that a region fills must appear exactly once.
void check_slot_uses(const State& s, const Expander& ex, Diagnostics& diags) {
  for (const auto& [slot, names] : s.fills) {
    auto uses = ex.slot_uses.count(slot) ? ex.slot_uses.at(slot) : 0;
    if (uses == 1) continue;
    const auto& e = s.regions.at(names.front());
    diags.add({e.owner.display, e.owner.line},
              uses == 0 ? "placeholder '" + slot + "' no longer exists (a "
                          "revision removed it) but region '" +
                              names.front() + "' fills it"
                        : "placeholder '" + slot + "' appears more than "
                          "once; a placeholder must be unique");
  }
}

// Whether a region of the chapter whose revisions are left out is left
// out: a revision, or a fill of a placeholder no region now holds (one
// that a left-out revision would have written).
bool left_out(const Region& r, const State& s) {
  return !r.revise.empty() || (!r.fill.empty() && !known_slots(s).count(r.fill));
}

}  // namespace

TangleResult tangle(const std::vector<ChapterCode>& chapters,
                    const std::string& without_revisions_of) {
  State s;
  Diagnostics diags;
  Listings listings;
  for (const auto& ch : chapters) {
    listings[ch.stem] = Json::object();
    const bool simple = ch.stem == without_revisions_of;
    for (const auto& r : ch.regions) {
      if (simple && left_out(r, s)) continue;
      if (r.revise.empty()) {
        record_region(ch, r, s, listings, diags);
      } else {
        record_revision(ch, r, s, listings, diags);
      }
    }
  }
  diags.throw_if_any();

  TangleResult result;
  Expander ex{s, diags, {}, {}, 0, 1, {}, {}};
  expand_files(s, ex, result);
  check_slot_uses(s, ex, diags);
  diags.throw_if_any();
  std::string settings = demo_settings(chapters, s, diags);
  diags.throw_if_any();
  result.files[kManifest] =
      "# Generated by litbook: the files CMake compiles.\n" + manifest(s) +
      settings;
  for (const auto& [name, e] : s.regions) result.regions[name] = e.info;
  for (auto& [stem, facts] : listings) {
    for (auto& [name, fact] : facts.items()) {
      fact["lines"] = line_ranges(ex.region_lines[name]);
    }
  }
  result.listings = std::move(listings);
  result.origins = std::move(ex.origins);
  return result;
}


namespace {

std::set<std::string> existing_files(const fs::path& dir) {
  std::set<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      out.insert(entry.path().lexically_relative(dir).generic_string());
    }
  }
  return out;
}

std::string first_difference(const std::string& want, const std::string& have) {
  auto a = split_lines(want), b = split_lines(have);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string x = i < a.size() ? a[i] : "<end of file>";
    std::string y = i < b.size() ? b[i] : "<end of file>";
    bool checksum_line = x.find("litbook-checksum:") != std::string::npos &&
                         y.find("litbook-checksum:") != std::string::npos;
    if (x != y && !checksum_line) {
      return "line " + std::to_string(i + 1) + ": chapters give '" + x +
             "', the file has '" + y + "'";
    }
  }
  return "line endings differ";
}

}  // namespace

std::vector<Diagnostic> check_tangle(const TangleResult& result,
                                     const fs::path& dir) {
  std::vector<Diagnostic> out;
  auto have = existing_files(dir);
  for (const auto& [file, bytes] : result.files) {
    fs::path p = dir / file;
    auto current = read_file_if_exists(p);
    if (!current) {
      report_file(out, display_path(p), "missing; run the build (or "
                                             "litbook tangle) to create it");
    } else if (*current != bytes) {
      bool hand = file != kManifest && checksum_intact(*current) == false;
      report_file(out, display_path(p),
                  (hand ? "edited by hand; " : "out of date; ") +
                      first_difference(bytes, *current));
    }
  }
  for (const auto& file : have) {
    if (!result.files.count(file)) {
      report_file(out, display_path(dir / file),
                  "not produced by any chapter (delete it, or move its "
                  "code into a chapter)");
    }
  }
  return out;
}

Json origins_to_json(const TangleResult& result) {
  Json out = Json::object();
  for (const auto& [file, lines] : result.origins) {
    Json runs = Json::array();
    for (const auto& [at, where] : lines) {
      if (!runs.empty()) {
        Json& last = runs.back();
        int n = last[3].get<int>();
        if (last[0].get<int>() + n == at && last[1] == where.file &&
            last[2].get<int>() + n == where.line) {
          last[3] = n + 1;
          continue;
        }
      }
      runs.push_back({at, where.file, where.line, 1});
    }
    out[file] = std::move(runs);
  }
  return out;
}

std::optional<Location> origin_of(const Json& origins, const std::string& file,
                                  int line) {
  if (!origins.contains(file)) return std::nullopt;
  for (const auto& run : origins[file]) {
    int first = run[0].get<int>(), n = run[3].get<int>();
    if (line >= first && line < first + n) {
      return Location{run[1].get<std::string>(), run[2].get<int>() + line - first};
    }
  }
  return std::nullopt;
}

WriteReport write_tangle(const TangleResult& result, const fs::path& dir,
                         bool force) {
  WriteReport report;
  auto have = existing_files(dir);
  Diagnostics diags;
  std::vector<std::string> stale;
  for (const auto& file : have) {
    if (file == kManifest) continue;
    auto bytes = read_file(dir / file);
    auto intact = checksum_intact(bytes);
    auto it = result.files.find(file);
    bool wanted = it != result.files.end();
    if (wanted && it->second == bytes) continue;
    if (!intact.has_value()) {
      diags.add({display_path(dir / file), 0},
                "not generated by litbook; snippets/ holds only tangled "
                "files (move this code into a chapter)");
    } else if (!*intact && !force) {
      diags.add({display_path(dir / file), 0},
                "edited by hand; move the change into its chapter (or run "
                "litbook tangle --force to discard it)");
    } else if (!wanted) {
      stale.push_back(file);
    }
  }
  diags.throw_if_any();
  for (const auto& [file, bytes] : result.files) {
    if (write_if_changed(dir / file, bytes)) {
      report.written.push_back(file);
      if (file == kManifest) report.manifest_changed = true;
    }
  }
  for (const auto& file : stale) {
    fs::remove(dir / file);
    report.removed.push_back(file);
  }
  return report;
}

}  // namespace litbook
