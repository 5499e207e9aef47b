// litbook: the book tool. Tangles chapters into C++, runs demos, checks
// the prose against what they print, and renders the HTML book.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <algorithm>
#include <map>
#include <set>

#include "api.hpp"
#include "book.hpp"
#include "check.hpp"
#include "demo.hpp"
#include "render.hpp"
#include "search.hpp"
#include "site.hpp"
#include "tangle.hpp"

namespace litbook {
namespace {

const char* kUsage =
    "usage: litbook <command> [options]\n"
    "\n"
    "commands:\n"
    "  tangle     write the chapters' code regions into snippets/\n"
    "  check      compare the prose with what the demos printed\n"
    "  render     write HTML pages\n"
    "  run-demo   run a demo twice and publish its outputs\n"
    "  parse      parse one chapter into the build's model cache\n"
    "  book-index combine the chapters' index entries (build step)\n"
    "  publish    replace the published book with the built site\n"
    "  verify-site  check a built book: links, anchors, KaTeX errors\n"
    "  search-index write the search index of the rendered chapters\n"
    "  api-symbols  list the API reference's symbols for listings\n"
    "  api-links  link the API reference's pages back to the chapters\n"
    "  compile    run a compiler; name the chapter line of each diagnostic\n"
    "\n"
    "Every command takes --root DIR (the project root, default: .) and\n"
    "--help. Errors are reported as chapters/NN-slug.md:LINE: message.\n";

// ---- a tiny argument parser --------------------------------------------

struct Args {
  std::string command;
  std::map<std::string, std::string> options;
  std::set<std::string> flags;
  std::vector<std::string> positional;

  bool flag(const std::string& f) const { return flags.count(f) > 0; }
  std::optional<std::string> get(const std::string& o) const {
    auto it = options.find(o);
    if (it == options.end()) return std::nullopt;
    return it->second;
  }
  std::string need(const std::string& o) const {
    auto v = get(o);
    if (!v) throw Failure({}, command + ": missing option --" + o);
    return *v;
  }
};

struct CommandSpec {
  const char* help;
  std::vector<std::string> options;  // take a value
  std::vector<std::string> flags;
};

// Commands that turn chapters into code and run it.
std::map<std::string, CommandSpec> code_commands() {
  return {
    {"tangle",
     {"usage: litbook tangle [--check] [--upto CHAPTER] [--out DIR] [--force]\n"
      "                      [--without-revisions CHAPTER]\n"
      "\n"
      "Writes every code region into snippets/ (or DIR), in book order,\n"
      "rewriting only files whose bytes change. --upto tangles chapters up\n"
      "to CHAPTER (an id, a stem or a number) for a snapshot.\n"
      "--without-revisions CHAPTER leaves out CHAPTER's revisions of\n"
      "earlier regions (and its fills of placeholders only they wrote):\n"
      "the earlier chapters' code as they wrote it, for a reference build\n"
      "(tools/build-simple.sh). --check\n"
      "writes nothing and fails when snippets/ differs from the chapters.\n"
      "A generated file edited by hand is never overwritten unless --force.\n"
      "Build options: --model-dir DIR (parsed chapters: a chapter's code\n"
      "is read from DIR only when DIR/STEM.code.key says it was parsed from\n"
      "the chapter's present text by this litbook; otherwise the chapter is\n"
      "parsed again), --listings DIR (listing facts for render), --stamp FILE.\n",
      {"upto", "out", "model-dir", "listings", "stamp", "root",
       "without-revisions"},
      {"check", "force"}}},
    {"compile",
     {"usage: litbook compile --lines FILE -- COMPILER ARGS...\n"
      "\n"
      "Runs the compiler (the build uses it as the compiler launcher of the\n"
      "tangled code). Its output passes through unchanged; after each\n"
      "diagnostic about a line of snippets/ that a chapter wrote, a line\n"
      "chapters/NN-slug.md:LINE: (snippets/FILE:N) names that chapter line.\n"
      "FILE is the snippet-lines.json that tangle --listings DIR writes.\n",
      {"lines", "root"},
      {}}},
    {"run-demo",
     {"usage: litbook run-demo --exe PATH --out DIR --chapter CHAPTER.md\n"
      "                        [--timeout SECONDS] [--max-output BYTES]\n"
      "                        [--quick] [--runs N]\n"
      "\n"
      "Runs the demo twice (N times with --runs; 1 when another build\n"
      "has already shown two runs agree); fails if it crashes, times out,\n"
      "prints too much, or the runs differ. Otherwise replaces DIR atomically\n"
      "with stdout.txt, values.json, tables/, figures/, artifacts/ and\n"
      "trace.txt. With --quick (front matter demo.quick) the second run\n"
      "has BOOK_QUICK=1 and only its trace.txt is compared: it must be a\n"
      "non-empty prefix of the first run's. With --model-dir, problems\n"
      "point at the demo's first code region.\n",
      {"exe", "out", "chapter", "timeout", "max-output", "model-dir", "root",
       "runs"},
      {"quick"}}}
  };
}

// Commands that check chapters and write and verify pages.
std::map<std::string, CommandSpec> pages_commands() {
  return {
    {"check",
     {"usage: litbook check [--update] [CHAPTER.md...]\n"
      "\n"
      "Checks every chapter (or the ones given): the output block equals\n"
      "the demo's stdout, every checked value equals the published value\n"
      "at the precision written, every table and figure exists, no number\n"
      "in prose is unbound, and every link resolves. --update rewrites the\n"
      "output block and the checked values from the program first.\n"
      "Options: --outputs DIR (default build/out), --model-dir DIR,\n"
      "--book-index FILE, --stamp FILE.\n",
      {"outputs", "model-dir", "book-index", "stamp", "root"},
      {"update"}}},
    {"render",
     {"usage: litbook render CHAPTER.md... | --landing | --assets\n"
      "\n"
      "Writes site/NN-slug.html for each chapter, the landing page, or the\n"
      "frame's assets. Options: --site DIR (default build/site), --outputs\n"
      "DIR (default build/out), --cache DIR (default build/cache),\n"
      "--model-dir DIR, --book-index FILE, --listings DIR, --api FILE\n"
      "(written by api-symbols: listings then link the symbols they\n"
      "define to the API reference).\n",
      {"site", "outputs", "cache", "model-dir", "book-index", "listings",
       "api", "root"},
      {"landing", "assets"}}},
    {"verify-site",
     {"usage: litbook verify-site DIR\n"
      "\n"
      "Checks every HTML page under DIR: each local link and anchor\n"
      "resolves, and no page holds a KaTeX error.\n",
      {"root"},
      {}}}
  };
}

// The build's other steps.
std::map<std::string, CommandSpec> steps_commands() {
  return {
    {"parse",
     {"usage: litbook parse CHAPTER.md --model-dir DIR\n"
      "\n"
      "Parses a chapter with Pandoc once and writes DIR/STEM.json (the\n"
      "document), DIR/STEM.code.json and DIR/STEM.index.json (each only\n"
      "when its bytes change, so later steps rerun only when needed), and\n"
      "DIR/STEM.code.key, which ties the code to the text it came from.\n",
      {"model-dir", "root"},
      {}}},
    {"book-index",
     {"usage: litbook book-index --model-dir DIR --out FILE\n"
      "\n"
      "Combines book/book.yaml with every chapter's index entry.\n",
      {"model-dir", "out", "root"},
      {}}},
    {"search-index",
     {"usage: litbook search-index --site DIR --out FILE [--book-index FILE]\n"
      "                            [--cache DIR]\n"
      "\n"
      "Reads every chapter's page DIR/NN-slug.html and writes FILE, a script\n"
      "assigning window.BOOK_SEARCH_INDEX: per chapter its title, URL and\n"
      "sections (heading, anchor, plain text). Writes only when it changes.\n"
      "With --cache, only pages changed since the last run are parsed.\n",
      {"site", "out", "book-index", "cache", "root"},
      {}}},
    {"api-symbols",
     {"usage: litbook api-symbols --xml DIR --out FILE\n"
      "\n"
      "Reads Doxygen's XML output (DIR/index.xml and the class, struct and\n"
      "namespace files) and writes FILE: every public symbol with its page,\n"
      "anchor and the file and line that declare and define it. Writes\n"
      "only when the bytes change.\n",
      {"xml", "out", "root"},
      {}}},
    {"api-links",
     {"usage: litbook api-links --api-dir DIR --api FILE --lines FILE\n"
      "                         --model-dir DIR --book-index FILE\n"
      "\n"
      "Rewrites the API reference's HTML in DIR (Doxygen's) so that it\n"
      "leads back to the book: a link to the book on every page, under each\n"
      "symbol of FILE (api-symbols) the chapter listing that declares it,\n"
      "found through --lines (tangle's snippet-lines.json), and on the main\n"
      "page the library's headers with the chapters that start them.\n",
      {"api-dir", "api", "lines", "model-dir", "book-index", "root"},
      {}}},
    {"publish",
     {"usage: litbook publish --site DIR --book DIR\n"
      "\n"
      "Makes the book directory show the site, atomically: a reader never\n"
      "sees a half-updated book, and a failed build leaves it as it was.\n",
      {"site", "book", "root"},
      {}}}
  };
}

const std::map<std::string, CommandSpec>& specs() {
  static const std::map<std::string, CommandSpec> s = [] {
    auto all = code_commands();
    all.merge(pages_commands());
    all.merge(steps_commands());
    return all;
  }();
  return s;
}

Args parse_args(int argc, char** argv) {
  Args a;
  if (argc < 2) throw Failure({}, std::string("no command given\n") + kUsage);
  a.command = argv[1];
  if (a.command == "--help" || a.command == "-h" || a.command == "help") {
    a.flags.insert("help");
    return a;
  }
  auto it = specs().find(a.command);
  if (it == specs().end()) {
    throw Failure({}, "unknown command '" + a.command + "'\n" + kUsage);
  }
  const CommandSpec& spec = it->second;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {  // the rest is a command line (litbook compile)
      for (++i; i < argc; ++i) a.positional.push_back(argv[i]);
      break;
    }
    if (arg == "--help" || arg == "-h") {
      a.flags.insert("help");
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      a.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    bool is_option = std::find(spec.options.begin(), spec.options.end(),
                               name) != spec.options.end();
    bool is_flag = std::find(spec.flags.begin(), spec.flags.end(), name) !=
                   spec.flags.end();
    if (is_flag && !has_value) {
      a.flags.insert(name);
    } else if (is_option) {
      if (!has_value) {
        if (i + 1 >= argc) throw Failure({}, a.command + ": --" + name +
                                                 " needs a value");
        value = argv[++i];
      }
      a.options[name] = value;
    } else {
      throw Failure({}, a.command + ": unknown option '" + arg +
                            "' (see litbook " + a.command + " --help)");
    }
  }
  return a;
}

// ---- shared loading -----------------------------------------------------

fs::path root_of(const Args& a) {
  fs::path p = fs::absolute(a.get("root").value_or(".")).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // drop a trailing slash
  return p;
}

std::optional<fs::path> model_dir(const Args& a) {
  auto m = a.get("model-dir");
  if (!m) return std::nullopt;
  return fs::path(*m);
}

std::vector<Chapter> load_chapters(const Book& book,
                                   const std::optional<fs::path>& models) {
  std::vector<Chapter> out;
  Diagnostics diags;
  for (const auto& stem : book.order) {
    try {
      out.push_back(load_chapter(book.chapter_path(stem), models));
    } catch (const Failure& f) {
      for (const auto& d : f.diagnostics()) diags.add(d.where, d.message);
    }
  }
  diags.throw_if_any();
  return out;
}

BookIndex load_index(const Args& a, const Book& book,
                     const std::vector<Chapter>* chapters) {
  if (auto file = a.get("book-index")) {
    return book_index_from_json(Json::parse(read_file(*file)));
  }
  std::vector<Json> entries;
  std::vector<Chapter> loaded;
  if (!chapters) {
    loaded = load_chapters(book, model_dir(a));
    chapters = &loaded;
  }
  for (const auto& ch : *chapters) entries.push_back(index_to_json(ch));
  return book_index_from_json(make_book_index(book, entries));
}

std::vector<fs::path> chapter_args(const Args& a, const Book& book) {
  std::vector<fs::path> out;
  for (const auto& p : a.positional) {
    if (!fs::exists(p)) throw Failure({p, 0}, "no such chapter file");
    out.push_back(fs::absolute(p));
  }
  if (out.empty()) {
    for (const auto& stem : book.order) out.push_back(book.chapter_path(stem));
  }
  return out;
}

void touch(const std::optional<std::string>& stamp) {
  if (stamp) write_atomic(*stamp, "");
}

// What a cached STEM.code.json was extracted from: the chapter's text and
// the litbook that read it. A snapshot's tangle runs outside the build
// graph, so it trusts a cached model only when this key still matches.
// litbook is known by its path, size and modification time, as Ninja
// knows a file: hashing the executable itself (30 MB with debug
// information) took longer than reading the chapter.
std::string code_key(const fs::path& chapter) {
  static const std::string self = [] {
    const fs::path exe = fs::canonical("/proc/self/exe");
    const auto written = fs::last_write_time(exe).time_since_epoch();
    return exe.string() + '\0' + std::to_string(fs::file_size(exe)) + '\0' +
           std::to_string(written.count());
  }();
  return hash_hex(self + '\0' + read_file(chapter));
}

// ---- commands -----------------------------------------------------------

int cmd_parse(const Args& a) {
  if (a.positional.size() != 1) throw Failure({}, "parse: give one chapter");
  fs::path path = a.positional[0];
  fs::path dir = a.need("model-dir");
  Json doc = parse_with_pandoc(path);
  Chapter ch = build_chapter(path, doc);
  write_if_changed(dir / (ch.stem + ".code.json"),
                   regions_to_json(ch).dump(1) + "\n");
  write_if_changed(dir / (ch.stem + ".index.json"),
                   index_to_json(ch).dump(1) + "\n");
  write_if_changed(dir / (ch.stem + ".code.key"), code_key(path) + "\n");
  write_atomic(dir / (ch.stem + ".json"), doc.dump());
  return 0;
}

std::vector<ChapterCode> load_code(const Book& book,
                                   const std::optional<fs::path>& models,
                                   std::size_t count) {
  std::vector<ChapterCode> out;
  Diagnostics diags;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& stem = book.order[i];
    fs::path path = book.chapter_path(stem);
    try {
      std::optional<std::string> cached;
      if (models && read_file_if_exists(*models / (stem + ".code.key")) ==
                        code_key(path) + "\n") {
        cached = read_file_if_exists(*models / (stem + ".code.json"));
      }
      if (cached) {
        out.push_back(code_from_json(Json::parse(*cached), display_path(path)));
      } else {
        // No model, or one from another text or another litbook (a chapter
        // the build graph does not know yet, a snapshot run after an edit):
        // parse the chapter here.
        out.push_back(code_of(load_chapter(path)));
      }
    } catch (const Failure& f) {
      for (const auto& d : f.diagnostics()) diags.add(d.where, d.message);
    }
  }
  diags.throw_if_any();
  return out;
}

// The stem --without-revisions names, "" without it. Throws when it names
// no chapter among `code`, or one that revises nothing.
std::string without_revisions(const Args& a, const Book& book,
                              const std::vector<ChapterCode>& code) {
  auto name = a.get("without-revisions");
  if (!name) return "";
  auto i = book.find(*name);
  if (!i || *i >= code.size()) {
    throw Failure({}, "tangle: --without-revisions names no chapter" +
                          std::string(i ? " up to --upto" : "") + ": '" +
                          *name + "'");
  }
  const ChapterCode& ch = code[*i];
  for (const Region& r : ch.regions) {
    if (!r.revise.empty()) return ch.stem;
  }
  throw Failure({}, "tangle: --without-revisions: " + ch.display +
                        " revises no region, expected a chapter that does");
}

int cmd_tangle(const Args& a) {
  fs::path root = root_of(a);
  Book book = load_book(root);
  std::size_t count = book.order.size();
  if (auto upto = a.get("upto")) {
    auto i = book.find(*upto);
    if (!i) throw Failure({}, "tangle: --upto names no chapter: '" + *upto + "'");
    count = *i + 1;
  }
  std::vector<ChapterCode> code = load_code(book, model_dir(a), count);
  TangleResult result = tangle(code, without_revisions(a, book, code));
  fs::path dir = a.get("out") ? fs::path(*a.get("out")) : root / "snippets";
  if (a.flag("check")) {
    auto problems = check_tangle(result, dir);
    if (!problems.empty()) throw Failure(problems);
    std::cout << "snippets are up to date (" << result.files.size()
              << " files)\n";
    return 0;
  }
  WriteReport report = write_tangle(result, dir, a.flag("force"));
  for (const auto& f : report.written) {
    std::cerr << "litbook: wrote " << display_path(dir / f) << "\n";
  }
  for (const auto& f : report.removed) {
    std::cerr << "litbook: removed " << display_path(dir / f) << "\n";
  }
  if (auto listings = a.get("listings")) {
    for (const auto& [stem, facts] : result.listings) {
      write_if_changed(fs::path(*listings) / (stem + ".listings.json"),
                       facts.dump(1) + "\n");
    }
    write_if_changed(fs::path(*listings) / "snippet-lines.json",
                     origins_to_json(result).dump() + "\n");
  }
  // A changed manifest (snippets.cmake) needs no action here: it is one of
  // CMake's configure inputs, so Ninja regenerates build.ninja and
  // continues with the new set of files.
  touch(a.get("stamp"));
  return 0;
}

// "PATH:LINE:..." where PATH ends in snippets/FILE: FILE and LINE.
std::optional<std::pair<std::string, int>> snippet_line(const std::string& l) {
  auto at = l.find("snippets/");
  auto colon = at == std::string::npos ? at : l.find(':', at);
  if (colon == std::string::npos) return std::nullopt;
  auto end = l.find_first_not_of("0123456789", colon + 1);
  if (end == colon + 1 || end == std::string::npos || l[end] != ':') {
    return std::nullopt;
  }
  return std::pair{l.substr(at + 9, colon - at - 9),
                   std::stoi(l.substr(colon + 1, end - colon - 1))};
}

int cmd_compile(const Args& a) {
  if (a.positional.empty()) throw Failure({}, "compile: give -- COMPILER ARGS...");
  auto r = run_process(a.positional);
  std::cout << r.out << std::flush;
  auto text = read_file_if_exists(a.need("lines"));
  Json origins = text ? Json::parse(*text) : Json::object();
  for (const auto& line : split_lines(r.err)) {
    std::cerr << line << "\n";
    auto at = snippet_line(line);
    auto from = at ? origin_of(origins, at->first, at->second) : std::nullopt;
    auto rest = line.find(": ", line.find("snippets/"));
    if (!from || rest == std::string::npos) continue;
    std::cerr << from->file << ":" << from->line << ":"
              << line.substr(rest + 1) << " (snippets/" << at->first << ":"
              << at->second << ")\n";
  }
  return r.exit_code;
}

int cmd_run_demo(const Args& a) {
  DemoOptions o;
  o.exe = a.need("exe");
  o.out = a.need("out");
  fs::path chapter = fs::absolute(a.need("chapter"));
  o.chapter = {display_path(chapter), 0};
  // With the parsed model at hand, point at the demo's first region.
  if (auto models = model_dir(a)) {
    std::string stem = chapter.stem().string();
    if (auto text = read_file_if_exists(*models / (stem + ".code.json"))) {
      Json code = Json::parse(*text);  // a named object: the loop keeps it
      for (const auto& r : code["regions"]) {
        if (r["file"] == "demos/" + stem + ".cpp") {
          o.chapter.line = r["line"].get<int>();
          break;
        }
      }
    }
  }
  if (auto t = a.get("timeout")) {
    o.timeout = std::chrono::milliseconds(
        static_cast<long>(std::stod(*t) * 1000));
  }
  if (auto m = a.get("max-output")) o.max_output = std::stoull(*m);
  o.quick = a.flag("quick");
  if (auto n = a.get("runs")) {
    if (n->empty() || n->size() > 2 ||
        n->find_first_not_of("0123456789") != std::string::npos || *n == "0" ||
        (n->size() == 2 && (*n)[0] == '0')) {
      throw Failure({}, "run-demo: --runs takes a count from 1 to 99, got '" +
                            *n + "'");
    }
    o.runs = std::stoi(*n);
  }
  run_demo(o);
  return 0;
}

int cmd_check(const Args& a) {
  fs::path root = root_of(a);
  Book book = load_book(root);
  fs::path outputs = a.get("outputs").value_or((root / "build" / "out").string());
  auto models = model_dir(a);
  auto paths = chapter_args(a, book);
  std::vector<Chapter> chapters;
  Diagnostics all;
  for (const auto& p : paths) chapters.push_back(load_chapter(p, models));
  if (a.flag("update")) {
    for (auto& ch : chapters) {
      int edits = update_chapter(ch, load_outputs(outputs / ch.stem));
      if (edits > 0) {
        std::cerr << "litbook: updated " << edits << " place(s) in "
                  << ch.display << "\n";
        ch = load_chapter(ch.path);
      }
    }
  }
  BookIndex index = load_index(a, book, nullptr);
  for (const auto& ch : chapters) {
    for (const auto& d : check_chapter(ch, load_outputs(outputs / ch.stem),
                                       index)) {
      all.add(d.where, d.message);
    }
    check_required(ch, book.require, all);
    check_workbenches(ch, book.workbenches, all);
  }
  all.throw_if_any();
  touch(a.get("stamp"));
  return 0;
}

int cmd_book_index(const Args& a) {
  fs::path root = root_of(a);
  Book book = load_book(root);
  fs::path dir = a.need("model-dir");
  std::vector<Json> entries;
  for (const auto& stem : book.order) {
    // A chapter the build graph does not know yet (listed in book.yaml
    // before CMake re-read the chapter list) is parsed here instead.
    auto cached = read_file_if_exists(dir / (stem + ".index.json"));
    entries.push_back(cached ? Json::parse(*cached)
                             : index_to_json(load_chapter(
                                   book.chapter_path(stem))));
  }
  write_if_changed(a.need("out"), make_book_index(book, entries).dump(1) + "\n");
  return 0;
}

int cmd_render(const Args& a) {
  RenderOptions o;
  o.root = root_of(a);
  o.site = a.get("site").value_or((o.root / "build" / "site").string());
  o.outputs = a.get("outputs").value_or((o.root / "build" / "out").string());
  o.cache = a.get("cache").value_or((o.root / "build" / "cache").string());
  o.model_dir = model_dir(a);
  if (auto api = a.get("api")) {
    o.api = api_symbols_from_json(Json::parse(read_file(*api)));
  }
  if (a.flag("assets")) {
    write_assets(o);
    return 0;
  }
  Book book = load_book(o.root);
  BookIndex index = load_index(a, book, nullptr);
  if (a.flag("landing")) {
    render_landing(index, o);
    return 0;
  }
  std::map<std::string, Json> listings;
  if (!a.get("listings")) {
    auto result = tangle(load_code(book, o.model_dir, book.order.size()));
    listings = result.listings;
  }
  for (const auto& p : chapter_args(a, book)) {
    Chapter ch = load_chapter(p, o.model_dir);
    Json facts = Json::object();
    if (auto dir = a.get("listings")) {
      auto text = read_file_if_exists(fs::path(*dir) /
                                      (ch.stem + ".listings.json"));
      if (text) facts = Json::parse(*text);
    } else if (listings.count(ch.stem)) {
      facts = listings[ch.stem];
    }
    render_chapter(ch, index, facts, o);
  }
  return 0;
}

// Hard-links every file of `from` into `to` (files are replaced by rename,
// never modified in place, so a link keeps the old bytes).
void link_tree(const fs::path& from, const fs::path& to) {
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    fs::path target = to / e.path().lexically_relative(from);
    if (e.is_directory()) {
      fs::create_directories(target);
    } else if (e.is_regular_file()) {
      std::error_code ec;
      fs::create_hard_link(e.path(), target, ec);
      if (ec) fs::copy_file(e.path(), target);
    }
  }
}

int cmd_publish(const Args& a) {
  fs::path site = fs::absolute(a.need("site"));
  fs::path book = fs::absolute(a.need("book"));
  fs::path parent = book.parent_path();
  std::string base = book.filename().string();
  // Find the next generation number.
  int gen = 0;
  for (const auto& e : fs::directory_iterator(parent)) {
    std::string n = e.path().filename().string();
    std::string prefix = "." + base + "-";
    if (n.rfind(prefix, 0) == 0) {
      gen = std::max(gen, std::atoi(n.c_str() + prefix.size()) + 1);
    }
  }
  std::string gen_name = "." + base + "-" + std::to_string(gen);
  fs::path gen_dir = parent / gen_name;
  fs::remove_all(gen_dir);
  fs::create_directories(gen_dir);
  link_tree(site, gen_dir);
  fs::path link_tmp = parent / (base + ".tmp-link");
  fs::remove(link_tmp);
  fs::create_directory_symlink(gen_name, link_tmp);
  if (fs::exists(book) && !fs::is_symlink(book)) fs::remove_all(book);
  fs::rename(link_tmp, book);  // atomic switch
  for (const auto& e : fs::directory_iterator(parent)) {
    std::string n = e.path().filename().string();
    if (n.rfind("." + base + "-", 0) == 0 && n != gen_name) {
      fs::remove_all(e.path());
    }
  }
  std::cout << "book: " << (book / "index.html").string() << "\n";
  return 0;
}

int run(int argc, char** argv) {
  Args a = parse_args(argc, argv);
  if (a.command == "--help" || a.command == "-h" || a.command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (a.flag("help")) {
    std::cout << specs().at(a.command).help;
    return 0;
  }
  if (a.command == "parse") return cmd_parse(a);
  if (a.command == "tangle") return cmd_tangle(a);
  if (a.command == "check") return cmd_check(a);
  if (a.command == "render") return cmd_render(a);
  if (a.command == "run-demo") return cmd_run_demo(a);
  if (a.command == "compile") return cmd_compile(a);
  if (a.command == "book-index") return cmd_book_index(a);
  if (a.command == "publish") return cmd_publish(a);
  if (a.command == "search-index") {
    // With --book-index, no book.yaml (and no Pandoc run): this step is on
    // the path of every prose edit.
    auto file = a.get("book-index");
    BookIndex index = file ? book_index_from_json(Json::parse(read_file(*file)))
                           : load_index(a, load_book(root_of(a)), nullptr);
    std::optional<fs::path> cache;
    if (auto dir = a.get("cache")) cache = fs::path(*dir) / "search";
    write_if_changed(a.need("out"), search_index_script(index, a.need("site"), cache));
    return 0;
  }
  if (a.command == "api-links") {
    Book book = load_book(root_of(a));
    auto symbols = api_symbols_from_json(Json::parse(read_file(a.need("api"))));
    Json origins = Json::parse(read_file(a.need("lines")));
    auto chapters = load_code(book, model_dir(a), book.order.size());
    BookIndex index = load_index(a, book, nullptr);
    std::size_t n = link_api_to_book(a.need("api-dir"), symbols, origins,
                                     chapters, index);
    std::cout << "api: " << n << " of " << symbols.size()
              << " symbols link to their chapters\n";
    return 0;
  }
  if (a.command == "api-symbols") {
    auto symbols = read_doxygen_xml(a.need("xml"));
    write_if_changed(a.need("out"), to_json(symbols).dump(1) + "\n");
    return 0;
  }
  if (a.command == "verify-site") {
    if (a.positional.size() != 1) throw Failure({}, "verify-site: give DIR");
    auto problems = verify_site(a.positional[0]);
    if (!problems.empty()) throw Failure(problems);
    std::cout << "site ok: " << a.positional[0] << "\n";
    return 0;
  }
  return 2;
}

}  // namespace
}  // namespace litbook

int main(int argc, char** argv) {
  try {
    return litbook::run(argc, argv);
  } catch (const litbook::Failure& f) {
    for (const auto& d : f.diagnostics()) {
      std::cerr << d.format() << "\n";
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "litbook: " << e.what() << "\n";
    return 1;
  }
}
