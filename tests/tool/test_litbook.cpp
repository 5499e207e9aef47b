// Tests of the book tool, `litbook`, run as a program the way the build
// runs it. Each test builds a tiny throwaway book in a fresh temporary
// directory, runs one command there and checks three things:
//
//   1. the exit status,
//   2. the exact compiler-style message (`chapters/NN-slug.md:LINE: ...`),
//   3. that a failing command wrote nothing: every file of the project is
//      snapshotted (path -> bytes) before and after and must be unchanged.
//
// Chapters are written with `chapter_md`, whose front matter is exactly ten
// lines (the tenth blank), so the first line of a chapter's body is line 11
// of the file. Line numbers in the expected messages are counted that way.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chapter.hpp"  // litbook::Json
#include "classify.hpp"  // litbook::is_answer, litbook::has_answer
#include "html.hpp"     // litbook::HtmlWriter
#include "tangle.hpp"   // litbook::tangle, litbook::origin_of
#include "util.hpp"     // litbook::run_process, litbook::hash_hex

namespace {

namespace fs = std::filesystem;

const fs::path kLitbook = LITBOOK_EXE;
const fs::path kSource = BOOK_SOURCE;

// ---- running litbook ------------------------------------------------------

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Matches text holding a line exactly equal to `line`.
class HasLineMatcher : public Catch::MatcherBase<std::string> {
public:
  HasLineMatcher(std::string line, bool prefix)
      : line_(std::move(line)), prefix_(prefix) {}
  bool match(const std::string& text) const override {
    for (const auto& l : lines_of(text)) {
      if (prefix_ ? l.rfind(line_, 0) == 0 : l == line_) return true;
    }
    return false;
  }
  std::string describe() const override {
    return (prefix_ ? "has a line starting with: " : "has the line: ") + line_;
  }

private:
  std::string line_;
  bool prefix_;
};

HasLineMatcher HasLine(const std::string& line) { return {line, false}; }
HasLineMatcher HasLineStartingWith(const std::string& prefix) {
  return {prefix, true};
}

// ---- snapshots of a directory tree ----------------------------------------

// Every file (path -> bytes) and every directory (path + "/" -> "") under
// `dir`, except the subtrees named in `skip` (paths relative to `dir`).
using Tree = std::map<std::string, std::string>;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Tree snapshot(const fs::path& dir, const std::vector<std::string>& skip = {}) {
  Tree tree;
  if (!fs::exists(dir)) return tree;
  for (auto it = fs::recursive_directory_iterator(dir);
       it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = it->path().lexically_relative(dir).generic_string();
    bool skipped = false;
    for (const auto& s : skip) skipped = skipped || rel == s;
    if (skipped) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory()) {
      tree[rel + "/"] = "";
    } else {
      tree[rel] = read_bytes(it->path());
    }
  }
  return tree;
}

// What changed between two snapshots, one line per path ("" if nothing).
std::string changes(const Tree& before, const Tree& after) {
  std::string out;
  for (const auto& [path, bytes] : before) {
    auto it = after.find(path);
    if (it == after.end()) {
      out += "removed: " + path + "\n";
    } else if (it->second != bytes) {
      out += "changed: " + path + "\n";
    }
  }
  for (const auto& [path, bytes] : after) {
    if (!before.count(path)) out += "created: " + path + "\n";
  }
  return out;
}

// Requires `actual` to hold exactly the paths and bytes of `expected`,
// showing the differing text of each file that differs.
void require_tree(const Tree& actual, const Tree& expected) {
  for (const auto& [path, bytes] : expected) {
    INFO("file: " << path);
    auto it = actual.find(path);
    REQUIRE(it != actual.end());
    CHECK(it->second == bytes);
  }
  REQUIRE(changes(expected, actual) == "");
}

// ---- a throwaway project --------------------------------------------------

// Front matter of exactly ten lines; the body starts on line 11.
std::string chapter_md(const std::string& id, const std::string& body,
                       int part = 1) {
  return "---\n"
         "id: " + id + "\n"
         "title: Chapter " + id + "\n"
         "part: " + std::to_string(part) + "\n"
         "objectives:\n"
         "  - Learn something.\n"
         "prerequisites:\n"
         "  - Nothing.\n"
         "---\n"
         "\n" + body;
}

// book.yaml listing `stems` in part 1; the first stem is on line 6.
std::string book_yaml(const std::vector<std::string>& stems,
                      const std::string& extra = "") {
  std::string yaml =
      "title: \"Test book\"\n" + extra +
      "parts:\n"
      "  - number: 1\n"
      "    title: Basics\n"
      "    chapters:\n";
  for (const auto& s : stems) yaml += "      - " + s + "\n";
  return yaml;
}

class Project {
public:
  Project() {
    std::string pattern =
        (fs::temp_directory_path() / "litbook-tool-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir_ = pattern;
    fs::create_directories(dir_ / "chapters");
    copy_from_source("tools/katex-render.js");
  }
  ~Project() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  Project(const Project&) = delete;
  Project& operator=(const Project&) = delete;

  const fs::path& dir() const { return dir_; }

  void write(const std::string& rel, const std::string& text) const {
    fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    REQUIRE(out.good());
  }
  std::string read(const std::string& rel) const {
    REQUIRE(fs::exists(dir_ / rel));
    return read_bytes(dir_ / rel);
  }
  bool exists(const std::string& rel) const { return fs::exists(dir_ / rel); }

  // book/book.yaml listing the chapters; `extra` goes before the parts.
  void book(const std::vector<std::string>& stems,
            const std::string& extra = "") const {
    write("book/book.yaml", book_yaml(stems, extra));
  }
  // The files book.yaml's workbench NAME needs (their content is not read).
  void workbench_files(const std::string& name) const {
    for (const char* ext : {".hpp", ".cpp", ".js"}) {
      write("book/workbench/" + name + "/" + name + ext, "");
    }
  }
  // chapters/NN-id.md for stem "NN-id", with the ten-line front matter.
  void chapter(const std::string& stem, const std::string& body) const {
    write("chapters/" + stem + ".md", chapter_md(stem.substr(3), body));
  }
  void copy_from_source(const std::string& rel) const {
    fs::create_directories((dir_ / rel).parent_path());
    fs::copy_file(kSource / rel, dir_ / rel,
                  fs::copy_options::overwrite_existing);
  }
  // An executable shell script (a stand-in for a demo program).
  void script(const std::string& rel, const std::string& text) const {
    write(rel, text);
    fs::permissions(dir_ / rel, fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add);
  }
  // What a demo published, as `litbook run-demo` leaves it in build/out.
  void outputs(const std::string& stem, const std::string& stdout_text,
               const std::string& values_json) const {
    write("build/out/" + stem + "/stdout.txt", stdout_text);
    write("build/out/" + stem + "/values.json", values_json);
  }

  // Runs litbook with the project as the working directory.
  Result litbook(const std::vector<std::string>& args,
                 std::chrono::seconds timeout = std::chrono::seconds(120)) const {
    std::vector<std::string> argv{kLitbook.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    litbook::ProcessOptions options;
    options.cwd = dir_;
    options.timeout = timeout;
    auto r = litbook::run_process(argv, options);
    REQUIRE_FALSE(r.timed_out);
    return {r.exit_code, r.out, r.err};
  }

  Tree tree(const std::vector<std::string>& skip = {}) const {
    return snapshot(dir_, skip);
  }

private:
  fs::path dir_;
};

// Logs a run so a failing assertion shows what litbook said.
#define LOG_RUN(r)                                            \
  INFO("exit status: " << (r).status << "\nstdout:\n" << (r).out \
                       << "\nstderr:\n" << (r).err)

// Runs litbook with `args` and requires that it succeeds; returns the run
// for the caller to read its output.
Result succeeds(const Project& p, const std::vector<std::string>& args,
                std::chrono::seconds timeout = std::chrono::seconds(120)) {
  Result r = p.litbook(args, timeout);
  LOG_RUN(r);
  REQUIRE(r.status == 0);
  return r;
}

// Runs litbook with `args` and requires that it fails (what it may write
// is the caller's to check); returns the run for its messages.
Result fails(const Project& p, const std::vector<std::string>& args) {
  Result r = p.litbook(args);
  LOG_RUN(r);
  REQUIRE(r.status != 0);
  return r;
}

// The two-chapter book most tangle tests start from: 01-alpha defines a
// class with a placeholder, 02-beta fills it. Tangled once, so snippets/
// exists and a failing tangle has something it must not touch.
//
//   01-alpha.md                       02-beta.md
//   11 The class.                     11 A member.
//   12                                12
//   13 ```{.cpp file=... a-top}       13 ```{.cpp fill=a-members a-x}
//   14 struct A {                     14 int x = 0;
//   15   // <<a-members>>              15 ```
//   16 };
//   17 ```
//   18
//   19 ```{.cpp file=demos/... }
//   20 int main() { return 0; }
//   21 ```
const char* const kAlpha = R"md(The class.

```{.cpp file="llm/a.hpp" region="a-top"}
struct A {
  // <<a-members>>
};
```

```{.cpp file="demos/01-alpha.cpp" region="alpha-demo"}
int main() { return 0; }
```
)md";

const char* const kBeta = R"md(A member.

```{.cpp fill="a-members" region="a-x"}
int x = 0;
```
)md";

void make_tangled_book(const Project& p) {
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", kAlpha);
  p.chapter("02-beta", kBeta);
  succeeds(p, {"tangle"});
  REQUIRE(p.exists("snippets/llm/a.hpp"));
}

// Runs litbook with `args`; requires that it fails without touching
// anything, and returns the run for the caller to read its messages.
Result fails_untouched(const Project& p,
                       const std::vector<std::string>& args) {
  Tree before = p.tree();
  Result r = fails(p, args);
  REQUIRE(changes(before, p.tree()) == "");
  return r;
}

// Replaces chapter 02-beta of the tangled book with `beta_body`, runs
// `tangle` and requires that it fails without touching anything.
Result tangle_fails_with_beta(const Project& p, const std::string& beta_body) {
  make_tangled_book(p);
  p.chapter("02-beta", beta_body);
  return fails_untouched(p, {"tangle"});
}

// Runs `litbook check` on the project; requires that it fails without
// touching anything, and returns the run for the caller to read its
// messages.
Result check_fails(const Project& p) { return fails_untouched(p, {"check"}); }

// Renders chapter STEM with the real template into site/ and returns its
// page; the render must succeed.
std::string rendered_page(const Project& p, const std::string& stem) {
  p.copy_from_source("book/template.html");
  succeeds(p, {"render", "chapters/" + stem + ".md", "--site", "site"});
  return p.read("site/" + stem + ".html");
}

// Checks the book, then renders chapter STEM as rendered_page does; both
// steps must succeed.
std::string checked_page(Project& p, const std::string& stem) {
  succeeds(p, {"check"});
  return rendered_page(p, stem);
}

// Checks that a page holds a text, naming the text when it does not:
// `const PageHas has{html}; has("<p>...");`.
struct PageHas {
  const std::string& html;
  void operator()(const std::string& text) const {
    INFO("looking for: " << text);
    CHECK(html.find(text) != std::string::npos);
  }
};

// The HTML the writer makes of a chapter's blocks from its model (which a
// test may have changed), with the default highlighter.
std::string html_from_model(const litbook::Chapter& ch) {
  litbook::HtmlContext ctx;
  ctx.chapter = &ch;
  litbook::HtmlWriter w(ctx);
  return w.blocks(ch.blocks);
}

// Runs `litbook check` on the project and requires that it passes silently.
void check_passes(const Project& p) {
  auto r = succeeds(p, {"check"});
  REQUIRE(r.err == "");
}

// check's message for checked value NAME on line LINE of 01-alpha, which
// the demo published as PROGRAM and the prose writes as PROSE.
std::string value_differs(int line, const std::string& name,
                          const std::string& program,
                          const std::string& prose) {
  return "chapters/01-alpha.md:" + std::to_string(line) +
         ": checked value '" + name + "' is " + program +
         " in the program but the prose says " + prose;
}

// The text of a tangled file: the generated-file notice, then the body.
std::string generated(const std::string& from, const std::string& body) {
  return "// Generated by litbook from " + from +
         ".\n// Do not edit: change the chapters. litbook-checksum: " +
         litbook::hash_hex(body) + "\n\n" + body;
}

}  // namespace

// ===========================================================================
// tangle: bad regions
// ===========================================================================

TEST_CASE("a duplicate region name fails tangle naming both places",
          "[tool][tangle]") {
  Project p;
  SECTION("defined in two chapters") {
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="a-members" region="a-x"}
int x = 0;
```

```{.cpp file="llm/b.hpp" region="a-top"}
int b;
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:15: duplicate region "
                                "'a-top' (first defined at "
                                "chapters/01-alpha.md:13)"));
  }
  SECTION("defined twice in one chapter") {
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="a-members" region="a-x"}
int x = 0;
```

```{.cpp fill="a-members" region="a-x"}
int y = 0;
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:15: duplicate region "
                                "'a-x' (first defined at "
                                "chapters/02-beta.md:11)"));
  }
  REQUIRE(p.read("snippets/llm/a.hpp").find("int x = 0;") != std::string::npos);
}

TEST_CASE("revising an unknown region fails tangle", "[tool][tangle]") {
  Project p;
  SECTION("no chapter defines it") {
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp revise="no-such-region"}
int y;
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:11: revises unknown "
                                "region 'no-such-region' (no earlier "
                                "chapter defines it)"));
  }
  SECTION("only a later chapter defines it") {
    make_tangled_book(p);
    p.chapter("01-alpha", std::string(kAlpha) + R"md(
```{.cpp revise="a-x"}
int x = 1;
```
)md");  // the revise fence is body line 13, file line 23
    auto r = fails_untouched(p, {"tangle"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md:23: revises unknown "
                                "region 'a-x' (no earlier chapter defines "
                                "it)"));
  }
}

TEST_CASE("filling an unknown placeholder fails tangle", "[tool][tangle]") {
  Project p;
  SECTION("no region has the placeholder") {
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="no-such-slot" region="a-x"}
int x = 0;
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:11: fills unknown "
                                "placeholder 'no-such-slot' (no earlier "
                                "region has a line '// <<no-such-slot>>')"));
  }
  SECTION("the placeholder comes later in the book") {
    // 01-alpha fills b-slot, which only 02-beta's region declares.
    make_tangled_book(p);
    p.chapter("01-alpha", std::string(kAlpha) + R"md(
```{.cpp fill="b-slot" region="early"}
int e;
```
)md");
    p.chapter("02-beta", std::string(kBeta) + R"md(
```{.cpp file="llm/b.hpp" region="b-top"}
// <<b-slot>>
```
)md");
    auto r = fails_untouched(p, {"tangle"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md:23: fills unknown "
                                "placeholder 'b-slot' (no earlier region has "
                                "a line '// <<b-slot>>')"));
  }
}

TEST_CASE("a file= that escapes snippets/ or is not under llm/, demos/ or "
          "exercises/ fails tangle",
          "[tool][tangle]") {
  Project p;
  // 02-beta gains a region at line 15 whose file= is `file`.
  auto beta_with_file = [](const std::string& file) {
    return std::string(kBeta) + "\n```{.cpp file=\"" + file +
           "\" region=\"escape\"}\nint e;\n```\n";
  };
  std::string file, message;
  SECTION("a parent directory") {
    file = "../x.hpp";
    message = "file '../x.hpp' escapes snippets/ (no '.' or '..' parts)";
  }
  SECTION("a parent directory inside the path") {
    file = "llm/../../x.hpp";
    message = "file 'llm/../../x.hpp' escapes snippets/ (no '.' or '..' parts)";
  }
  SECTION("an absolute path") {
    file = "/abs.hpp";
    message = "file '/abs.hpp' must be a relative path under snippets/";
  }
  SECTION("a directory other than llm/, demos/, exercises/ or programs/") {
    file = "other/x.hpp";
    message = "file 'other/x.hpp' must be under llm/, demos/, exercises/ or "
              "programs/ in snippets/";
  }
  SECTION("the top of snippets/") {
    file = "x.hpp";
    message = "file 'x.hpp' must be under llm/, demos/, exercises/ or "
              "programs/ in snippets/";
  }
  SECTION("another chapter's demo") {
    file = "demos/01-alpha.cpp";
    message = "file 'demos/01-alpha.cpp': this chapter's demo is "
              "demos/02-beta.cpp";
  }
  // The region's fence: 5 body lines of kBeta, a blank, then the fence.
  auto r = tangle_fails_with_beta(p, beta_with_file(file));
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:17: " + message));
  REQUIRE_FALSE(fs::exists(p.dir().parent_path() / "x.hpp"));
  REQUIRE_FALSE(fs::exists("/abs.hpp"));
}

TEST_CASE("an unterminated code fence fails with the fence's line",
          "[tool][tangle]") {
  Project p;
  std::string body, fence;
  int line = 11;  // the opening fence
  SECTION("a region whose fence never closes swallows the rest") {
    body = R"md(```{.cpp fill="a-members" region="a-x"}
int x = 0;

## Next section

More prose.
)md";
    fence = "```";
  }
  SECTION("a tilde fence") {
    body = "~~~{.cpp fill=\"a-members\" region=\"a-x\"}\nint x = 0;\n```\n";
    fence = "~~~";
  }
  SECTION("a longer fence is not closed by a shorter one") {
    body = "````{.cpp fill=\"a-members\" region=\"a-x\"}\nint x = 0;\n```\n";
    fence = "```";
  }
  SECTION("a plain code block at the end of the file, no final newline") {
    body = std::string(kBeta) + "\n```text\nplain";
    fence = "```";
    line = 17;
  }
  auto r = tangle_fails_with_beta(p, body);
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:" + std::to_string(line) +
                              ": unterminated code fence (no closing " +
                              fence + " before the end of the file)"));
}

TEST_CASE("a placeholder cycle fails tangle", "[tool][tangle]") {
  Project p;
  SECTION("two regions fill each other's placeholder") {
    // a-x fills a-members and holds p2; a-y fills p2 and holds a-members
    // again: a-top -> a-members -> a-x -> p2 -> a-y -> a-members -> ...
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="a-members" region="a-x"}
// <<p2>>
```

```{.cpp fill="p2" region="a-y"}
// <<a-members>>
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:15: placeholder cycle: "
                                "a-members -> p2 -> a-members"));
  }
  SECTION("a region fills its own placeholder") {
    auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="a-members" region="a-x"}
// <<a-members>>
```
)md");
    REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:11: placeholder cycle: "
                                "a-members -> a-members"));
  }
}

// ===========================================================================
// tangle: the committed snippets
// ===========================================================================

TEST_CASE("a hand-edited snippet: tangle refuses, --check fails, --force "
          "restores", "[tool][tangle]") {
  Project p;
  make_tangled_book(p);
  const std::string good = p.read("snippets/llm/a.hpp");
  std::string edited = good;
  edited.replace(edited.find("int x = 0;"), 10, "int x = 42;");
  p.write("snippets/llm/a.hpp", edited);
  // A chapter change that would rewrite another file: tangle must refuse
  // before writing anything at all.
  p.chapter("01-alpha", [] {
    std::string a = kAlpha;
    a.replace(a.find("return 0;"), 9, "return 1;");
    return a;
  }());
  Tree before = p.tree();
  auto r = fails_untouched(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine("snippets/llm/a.hpp: edited by hand; move the "
                              "change into its chapter (or run litbook tangle "
                              "--force to discard it)"));

  auto check = fails(p, {"tangle", "--check"});
  // Line 7: three header lines, "// alpha: a-top", "struct A {", the
  // fill's comment, then the edited line.
  REQUIRE_THAT(check.err, HasLine("snippets/llm/a.hpp: edited by hand; line "
                                  "7: chapters give '  int x = 0;', the file "
                                  "has '  int x = 42;'"));
  REQUIRE(changes(before, p.tree()) == "");

  succeeds(p, {"tangle", "--force"});
  REQUIRE(p.read("snippets/llm/a.hpp") == good);
  REQUIRE(p.read("snippets/demos/01-alpha.cpp").find("return 1;") !=
          std::string::npos);
  succeeds(p, {"tangle", "--check"});
}

TEST_CASE("a file in snippets/ that litbook did not write makes tangle "
          "refuse", "[tool][tangle]") {
  Project p;
  make_tangled_book(p);
  p.write("snippets/llm/mine.hpp", "int mine;\n");
  std::string beta = kBeta;  // a change tangle would otherwise write
  beta.replace(beta.find("int x = 0;"), 10, "int x = 1;");
  p.chapter("02-beta", beta);
  Tree before = p.tree();
  auto r = fails_untouched(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine("snippets/llm/mine.hpp: not generated by "
                              "litbook; snippets/ holds only tangled files "
                              "(move this code into a chapter)"));
  // --force discards hand edits of generated files, never foreign files.
  fails(p, {"tangle", "--force"});
  REQUIRE(changes(before, p.tree()) == "");
}

TEST_CASE("a stale snippet fails tangle --check, which writes nothing",
          "[tool][tangle]") {
  Project p;
  make_tangled_book(p);
  SECTION("a chapter changed") {
    std::string beta = kBeta;
    beta.replace(beta.find("int x = 0;"), 10, "int x = 1;");
    p.chapter("02-beta", beta);
    auto r = fails_untouched(p, {"tangle", "--check"});
    // The first differing code line, not the checksum in the header: the
    // body starts on line 4, the region comment is line 5, "struct A {"
    // line 6, and the filled member line 7.
    REQUIRE_THAT(r.err, HasLine("snippets/llm/a.hpp: out of date; line 7: "
                                "chapters give '  int x = 1;', the file has "
                                "'  int x = 0;'"));
    REQUIRE(lines_of(r.err).size() == 1);
    // tangle brings it up to date; then --check passes.
    succeeds(p, {"tangle"});
    REQUIRE(p.read("snippets/llm/a.hpp").find("int x = 1;") != std::string::npos);
    REQUIRE(p.litbook({"tangle", "--check"}).status == 0);
  }
  SECTION("a tangled file was deleted") {
    fs::remove(p.dir() / "snippets/llm/a.hpp");
    auto r = fails_untouched(p, {"tangle", "--check"});
    REQUIRE_THAT(r.err, HasLine("snippets/llm/a.hpp: missing; run the build "
                                "(or litbook tangle) to create it"));
  }
  SECTION("a file no chapter produces") {
    p.write("snippets/llm/old.hpp",
            generated("chapters/01-alpha.md", "// alpha: gone\nint gone;\n"));
    auto r = fails_untouched(p, {"tangle", "--check"});
    REQUIRE_THAT(r.err, HasLine("snippets/llm/old.hpp: not produced by any "
                                "chapter (delete it, or move its code into a "
                                "chapter)"));
  }
}

TEST_CASE("tangle end to end: append, fill, revise, hidden and --upto",
          "[tool][tangle]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", R"md(A counter.

```{.cpp .hidden file="llm/counter.hpp" region="counter-guard"}
#pragma once
#include <cstddef>
```

```{.cpp file="llm/counter.hpp" region="counter-class"}
class Counter {
public:
  // <<counter-members>>
  // <<counter-queries>>
private:
  std::size_t n_ = 0;
};
```

It grows by one:

```{.cpp fill="counter-members" region="counter-add"}
void add() { ++n_; }
```

```{.cpp file="demos/01-alpha.cpp" region="alpha-demo"}
#include "llm/counter.hpp"

int main() {
  Counter c;
  c.add();
}
```
)md");
  p.chapter("02-beta", R"md(Now it grows by any amount:

```{.cpp revise="counter-add"}
void add(std::size_t k = 1) { n_ += k; }
```

```{.cpp fill="counter-queries" region="counter-value"}
std::size_t value() const { return n_; }
```

```{.cpp fill="counter-members" region="counter-reset"}
void reset() { n_ = 0; }
```

```{.cpp file="llm/counter.cpp" region="counter-impl"}
#include "llm/counter.hpp"
```
)md");

  const std::string demo = generated("chapters/01-alpha.md",
                                     "// alpha: alpha-demo\n"
                                     "#include \"llm/counter.hpp\"\n"
                                     "\n"
                                     "int main() {\n"
                                     "  Counter c;\n"
                                     "  c.add();\n"
                                     "}\n");
  // The whole book: the revision replaces counter-add in place, the fills
  // sit at their placeholders in book order, indented like them.
  const Tree whole = {
      {"llm/", ""},
      {"demos/", ""},
      {"llm/counter.hpp",
       generated("chapters/01-alpha.md, chapters/02-beta.md",
                 "// alpha: counter-guard\n"
                 "#pragma once\n"
                 "#include <cstddef>\n"
                 "\n"
                 "// alpha: counter-class\n"
                 "class Counter {\n"
                 "public:\n"
                 "  // alpha: counter-add (revised in beta)\n"
                 "  void add(std::size_t k = 1) { n_ += k; }\n"
                 "  // beta: counter-reset\n"
                 "  void reset() { n_ = 0; }\n"
                 "  // beta: counter-value\n"
                 "  std::size_t value() const { return n_; }\n"
                 "private:\n"
                 "  std::size_t n_ = 0;\n"
                 "};\n")},
      {"llm/counter.cpp", generated("chapters/02-beta.md",
                                    "// beta: counter-impl\n"
                                    "#include \"llm/counter.hpp\"\n")},
      {"demos/01-alpha.cpp", demo},
  };
  // The snapshot after chapter 01: the first add(), an unfilled
  // placeholder tangles to nothing, no counter.cpp yet.
  const Tree first = {
      {"llm/", ""},
      {"demos/", ""},
      {"llm/counter.hpp", generated("chapters/01-alpha.md",
                                    "// alpha: counter-guard\n"
                                    "#pragma once\n"
                                    "#include <cstddef>\n"
                                    "\n"
                                    "// alpha: counter-class\n"
                                    "class Counter {\n"
                                    "public:\n"
                                    "  // alpha: counter-add\n"
                                    "  void add() { ++n_; }\n"
                                    "private:\n"
                                    "  std::size_t n_ = 0;\n"
                                    "};\n")},
      {"demos/01-alpha.cpp", demo},
  };
  // The manifest CMake reads (its exact layout is the build's business):
  // the library sources and demos of the tangled chapters.
  auto require_manifest = [](const fs::path& dir, const std::string& sources,
                             const std::string& demos) {
    std::string m = read_bytes(dir / "snippets.cmake");
    INFO(m);
    REQUIRE(m.rfind("# Generated by litbook", 0) == 0);
    REQUIRE_THAT(m, Catch::Matchers::Contains(
                        "set(LITBOOK_LIBRARY_SOURCES\n" + sources + ")\n"));
    REQUIRE_THAT(m, Catch::Matchers::Contains("set(LITBOOK_DEMOS\n" + demos +
                                              ")\n"));
  };
  const std::vector<std::string> manifest = {"snippets.cmake"};

  succeeds(p, {"tangle"});
  require_tree(snapshot(p.dir() / "snippets", manifest), whole);
  require_manifest(p.dir() / "snippets", "  llm/counter.cpp\n", "  01-alpha\n");

  SECTION("--upto the first chapter gives the code before the revision") {
    for (std::string upto : {"alpha", "01", "01-alpha"}) {
      INFO("--upto " << upto);
      fs::remove_all(p.dir() / "snap");
      succeeds(p, {"tangle", "--upto", upto, "--out", "snap"});
      require_tree(snapshot(p.dir() / "snap", manifest), first);
      require_manifest(p.dir() / "snap", "", "  01-alpha\n");
    }
    require_tree(snapshot(p.dir() / "snippets", manifest), whole);
  }
  SECTION("--check passes after tangling, and tangling again writes nothing") {
    auto c = succeeds(p, {"tangle", "--check"});
    REQUIRE(c.out == "snippets are up to date (4 files)\n");
    Tree before = p.tree();
    auto again = succeeds(p, {"tangle"});
    REQUIRE(again.err == "");
    REQUIRE(changes(before, p.tree()) == "");
  }
  SECTION("--upto an unknown chapter fails") {
    auto u = fails_untouched(p, {"tangle", "--upto", "nope", "--out", "snap"});
    REQUIRE_THAT(u.err, HasLine("litbook: tangle: --upto names no chapter: "
                                "'nope'"));
  }
}

TEST_CASE("tangle --without-revisions: a chapter's additions without its "
          "revisions", "[tool][tangle]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", R"md(```{.cpp file="llm/counter.hpp" region="counter-class"}
class Counter {
public:
  // <<counter-members>>
  int n_ = 0;
};
```

```{.cpp fill="counter-members" region="counter-add"}
void add() { ++n_; }
```
)md");
  // beta revises add() with a placeholder of its own, fills it, and adds
  // a query to alpha's placeholder and a file.
  p.chapter("02-beta", R"md(```{.cpp revise="counter-add"}
void add() {
  // <<add-check>>
  ++n_;
}
```

```{.cpp fill="add-check" region="add-guard"}
if (n_ < 0) return;
```

```{.cpp fill="counter-members" region="counter-value"}
int value() const { return n_; }
```

```{.cpp file="llm/counter.cpp" region="counter-impl"}
#include "llm/counter.hpp"
```
)md");
  const std::vector<std::string> manifest = {"snippets.cmake"};
  // alpha's add(), beta's query and file, and not the fill that only
  // beta's revision had a place for.
  const Tree simple = {
      {"llm/", ""},
      {"llm/counter.hpp",
       generated("chapters/01-alpha.md, chapters/02-beta.md",
                 "// alpha: counter-class\n"
                 "class Counter {\n"
                 "public:\n"
                 "  // alpha: counter-add\n"
                 "  void add() { ++n_; }\n"
                 "  // beta: counter-value\n"
                 "  int value() const { return n_; }\n"
                 "  int n_ = 0;\n"
                 "};\n")},
      {"llm/counter.cpp", generated("chapters/02-beta.md",
                                    "// beta: counter-impl\n"
                                    "#include \"llm/counter.hpp\"\n")},
  };
  for (std::string name : {"beta", "02", "02-beta"}) {
    INFO("--without-revisions " << name);
    fs::remove_all(p.dir() / "simple");
    succeeds(p, {"tangle", "--without-revisions", name, "--out", "simple"});
    require_tree(snapshot(p.dir() / "simple", manifest), simple);
  }
  SECTION("the whole book still has the revision and its fill") {
    succeeds(p, {"tangle"});
    const std::string h = read_bytes(p.dir() / "snippets/llm/counter.hpp");
    REQUIRE_THAT(h, Catch::Matchers::Contains("    if (n_ < 0) return;\n"));
  }
  SECTION("a chapter that revises nothing, or no chapter, fails") {
    auto a = fails_untouched(
        p, {"tangle", "--without-revisions", "alpha", "--out", "simple"});
    REQUIRE_THAT(a.err, HasLine("litbook: tangle: --without-revisions: "
                                "chapters/01-alpha.md revises no region, "
                                "expected a chapter that does"));
    auto n = fails_untouched(
        p, {"tangle", "--without-revisions", "nope", "--out", "simple"});
    REQUIRE_THAT(n.err, HasLine("litbook: tangle: --without-revisions names "
                                "no chapter: 'nope'"));
    auto u = fails_untouched(p, {"tangle", "--upto", "alpha",
                                 "--without-revisions", "beta", "--out",
                                 "simple"});
    REQUIRE_THAT(u.err, HasLine("litbook: tangle: --without-revisions names "
                                "no chapter up to --upto: 'beta'"));
  }
}

// ===========================================================================
// front matter and book.yaml
// ===========================================================================

TEST_CASE("front matter problems fail with line 1 of the chapter",
          "[tool][book]") {
  Project p;
  make_tangled_book(p);
  std::map<std::string, std::string> keys = {
      {"id", "id: beta\n"},
      {"title", "title: Beta\n"},
      {"part", "part: 1\n"},
      {"objectives", "objectives:\n  - Learn.\n"},
      {"prerequisites", "prerequisites:\n  - Nothing.\n"},
  };
  auto front = [&](const std::string& without) {
    std::string fm = "---\n";
    for (const char* k : {"id", "title", "part", "objectives", "prerequisites"}) {
      if (k != without) fm += keys[k];
    }
    return fm + "---\n\n" + kBeta;
  };
  std::string text, message;
  SECTION("missing id") {
    text = front("id");
    message = "front matter: missing 'id'";
  }
  SECTION("missing title") {
    text = front("title");
    message = "front matter: missing 'title'";
  }
  SECTION("missing part") {
    text = front("part");
    message = "front matter: missing 'part'";
  }
  SECTION("missing objectives") {
    text = front("objectives");
    message = "front matter: missing 'objectives'";
  }
  SECTION("part is not a number") {
    keys["part"] = "part: two\n";
    text = front("");
    message = "front matter: 'part' must be a number, got 'two'";
  }
  SECTION("id does not match the file name") {
    keys["id"] = "id: gamma\n";
    text = front("");
    message = "front matter: id 'gamma' does not match the file name "
              "'02-beta.md' (expected NN-gamma.md)";
  }
  SECTION("the file name only ends in the id") {
    keys["id"] = "id: eta\n";
    text = front("");
    message = "front matter: id 'eta' does not match the file name "
              "'02-beta.md' (expected NN-eta.md)";
  }
  p.write("chapters/02-beta.md", text);
  auto r = fails_untouched(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:1: " + message));
}

// Chapter 02-beta with `demo_keys` (lines under "demo:") in its front
// matter, kBeta's region and, when `with_demo`, a demo of its own.
std::string beta_with_demo(const std::string& demo_keys, bool with_demo = true) {
  return "---\nid: beta\ntitle: Beta\npart: 1\nobjectives:\n  - Learn.\n"
         "prerequisites:\n  - Nothing.\ndemo:\n" + demo_keys + "---\n\n" +
         kBeta +
         (with_demo ? "\n```{.cpp file=\"demos/02-beta.cpp\" region=\"beta-demo\"}\n"
                      "int main() { return 0; }\n```\n"
                    : "");
}

TEST_CASE("demo settings in the front matter reach the build manifest",
          "[tool][book][demo]") {
  Project p;
  make_tangled_book(p);
  p.write("chapters/02-beta.md",
          beta_with_demo("  timeout: 420\n  quick: true\n  reads: [01-alpha]\n"));
  succeeds(p, {"tangle"});
  std::string manifest = p.read("snippets/snippets.cmake");
  REQUIRE_THAT(manifest, HasLine("set(LITBOOK_DEMO_ARGS_02-beta --timeout 420 --quick)"));
  REQUIRE_THAT(manifest, HasLine("set(LITBOOK_DEMO_READS_02-beta 01-alpha)"));
  // 01-alpha has no settings: the build's defaults apply to it.
  REQUIRE(manifest.find("LITBOOK_DEMO_ARGS_01-alpha") == std::string::npos);
}

TEST_CASE("a program for readers is tangled and listed in the manifest",
          "[tool][book]") {
  Project p;
  make_tangled_book(p);
  p.chapter("02-beta", std::string(kBeta) +
                           "\n```{.cpp file=\"programs/tool.cpp\" "
                           "region=\"beta-tool\"}\nint main() { return 0; }\n```\n");
  succeeds(p, {"tangle"});
  REQUIRE_THAT(p.read("snippets/programs/tool.cpp"),
               Catch::Contains("int main() { return 0; }"));
  REQUIRE_THAT(p.read("snippets/snippets.cmake"),
               Catch::Contains("set(LITBOOK_PROGRAMS\n  tool\n)\n"));
}

TEST_CASE("bad demo settings fail tangle with line 1 of the chapter",
          "[tool][book][demo]") {
  Project p;
  make_tangled_book(p);
  std::string text, message;
  SECTION("a timeout that is no number") {
    text = beta_with_demo("  timeout: soon\n");
    message = "front matter: demo.timeout must be a whole number of seconds "
              "from 1 to 3600, got 'soon'";
  }
  SECTION("a timeout of zero") {
    text = beta_with_demo("  timeout: 0\n");
    message = "front matter: demo.timeout must be a whole number of seconds "
              "from 1 to 3600, got '0'";
  }
  SECTION("quick that is no boolean") {
    text = beta_with_demo("  quick: maybe\n");
    message = "front matter: demo.quick must be true or false, got 'maybe'";
  }
  SECTION("an unknown setting") {
    text = beta_with_demo("  colour: red\n");
    message = "front matter: demo.colour is not a demo setting (timeout, "
              "quick, reads)";
  }
  SECTION("reads naming no chapter") {
    text = beta_with_demo("  reads: [03-gamma]\n");
    message = "front matter: demo.reads names '03-gamma', which is not an "
              "earlier chapter with a demo";
  }
  SECTION("reads naming the chapter itself") {
    text = beta_with_demo("  reads: [02-beta]\n");
    message = "front matter: demo.reads names '02-beta', which is not an "
              "earlier chapter with a demo";
  }
  SECTION("settings for a chapter without a demo") {
    text = beta_with_demo("  timeout: 120\n", false);
    message = "front matter: 'demo' settings, but the chapter has no demo (no "
              "region with file=demos/02-beta.cpp)";
  }
  p.write("chapters/02-beta.md", text);
  auto r = fails_untouched(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:1: " + message));
}

TEST_CASE("book.yaml problems fail tangle and check", "[tool][book]") {
  Project p;
  make_tangled_book(p);
  std::string where;
  SECTION("a chapter file that is not listed") {
    p.chapter("03-gamma", "Gamma.\n");
    where = "chapters/03-gamma.md:1: chapter is not listed in book/book.yaml";
  }
  SECTION("a listed chapter that does not exist") {
    p.book({"01-alpha", "02-beta", "03-gamma"});
    where = "book/book.yaml:8: chapter '03-gamma' is listed but "
            "chapters/03-gamma.md does not exist";
  }
  SECTION("chapters out of number order") {
    p.book({"02-beta", "01-alpha"});
    where = "book/book.yaml:7: chapter '01-alpha' is listed after '02-beta'; "
            "list chapters in number order";
  }
  for (std::string command : {"tangle", "check"}) {
    INFO("litbook " << command);
    REQUIRE_THAT(fails_untouched(p, {command}).err, HasLine(where));
  }
}

TEST_CASE("a chapter id used twice, or a part that disagrees with "
          "book.yaml, fails check", "[tool][book]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", "Alpha.\n");
  std::string where;
  SECTION("the same id in two chapters") {
    p.write("book/book.yaml", book_yaml({"01-alpha", "02-alpha"}));
    p.write("chapters/02-alpha.md", chapter_md("alpha", "Again.\n"));
    where = "chapters/02-alpha.md:1: chapter id 'alpha' is also used by "
            "chapters/01-alpha.md";
  }
  SECTION("front matter names another part") {
    p.write("chapters/02-beta.md", chapter_md("beta", "Beta.\n", 2));
    where = "chapters/02-beta.md:1: front matter says part 2 but "
            "book/book.yaml lists it under part 1";
  }
  auto r = check_fails(p);
  REQUIRE_THAT(r.err, HasLine(where));
}

// ===========================================================================
// check
// ===========================================================================

TEST_CASE("a checked value that differs fails check; --update rewrites it",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  // Line 13 holds the checked value.
  const std::string original = chapter_md("alpha", R"md(Some prose.

The mean is [0.50]{value=mean}, which is small.
)md");
  p.write("chapters/01-alpha.md", original);
  // The demo publishes the value without printing it (book::publish), so
  // the chapter needs no output block.
  p.outputs("01-alpha", "",
            R"({"mean": {"kind": "number", "value": "0.25"}})");
  Tree before = p.tree();
  auto r = check_fails(p);
  REQUIRE_THAT(r.err, HasLine(value_differs(13, "mean", "0.25", "0.50")));

  auto u = succeeds(p, {"check", "--update"});
  REQUIRE_THAT(u.err, HasLine("litbook: updated 1 place(s) in "
                              "chapters/01-alpha.md"));
  std::string expected = original;
  expected.replace(expected.find("[0.50]"), 6, "[0.25]");
  REQUIRE(p.read("chapters/01-alpha.md") == expected);
  Tree after = p.tree();
  REQUIRE(changes(before, after) == "changed: chapters/01-alpha.md\n");

  check_passes(p);
}

TEST_CASE("check --update writes each value at the precision written",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  // Line 11: six values on one line, several changing length, so the
  // rewrite must keep every other byte in place. Line 12 is already right.
  const std::string original = chapter_md("alpha",
      "A [0.5]{value=p}, B [0.500]{value=p}, C [2.5e-07]{value=tiny}, "
      "D [12]{value=count}, E [1,000]{value=big}, F [old]{value=name}.\n"
      "Naïve “quotes” then G [0.32]{value=p} and H [0.1]{value=p}.\n");
  p.write("chapters/01-alpha.md", original);
  p.outputs("01-alpha", "",
            R"({"p": {"kind": "number", "value": "0.31830988618379069"},
                "tiny": {"kind": "number", "value": "1.234e-07"},
                "count": {"kind": "integer", "value": "24"},
                "big": {"kind": "integer", "value": "12345"},
                "name": {"kind": "text", "text": "new"}})");

  auto r = check_fails(p);
  REQUIRE_THAT(r.err, HasLine(value_differs(11, "p", "0.318", "0.500")));
  REQUIRE_THAT(r.err, HasLine(value_differs(11, "tiny", "1.2e-07", "2.5e-07")));
  REQUIRE_THAT(r.err, HasLine(value_differs(11, "big", "12,345", "1,000")));
  REQUIRE_THAT(r.err, HasLine(value_differs(11, "name", "new", "old")));
  REQUIRE_THAT(r.err, HasLine(value_differs(12, "p", "0.3", "0.1")));
  REQUIRE(lines_of(r.err).size() == 7);  // A B C D E F, H (G is right)

  succeeds(p, {"check", "--update"});
  REQUIRE(p.read("chapters/01-alpha.md") ==
          chapter_md("alpha",
                     "A [0.3]{value=p}, B [0.318]{value=p}, C "
                     "[1.2e-07]{value=tiny}, D [24]{value=count}, E "
                     "[12,345]{value=big}, F [new]{value=name}.\n"
                     "Naïve “quotes” then G [0.32]{value=p} and H "
                     "[0.3]{value=p}.\n"));
  succeeds(p, {"check"});
}

TEST_CASE("an output block that differs fails check at the first differing "
          "line; --update fixes it", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  //   13 ```{.output}
  //   14 a=1
  //   15 b=2
  //   16 c=3
  //   17 ```
  const std::string original = chapter_md("alpha", R"md(The demo prints:

```{.output}
a=1
b=2
c=3
```

That is all.
)md");
  p.write("chapters/01-alpha.md", original);
  std::string printed, where;
  SECTION("a line differs") {
    printed = "a=1\nb=20\nc=3\n";
    where = "chapters/01-alpha.md:15: output block differs from what "
            "demos/01-alpha.cpp prints: the chapter has 'b=2', the program "
            "prints 'b=20' (litbook check --update rewrites the block)";
  }
  SECTION("the program prints one more line") {
    printed = "a=1\nb=2\nc=3\nd=4\n";
    where = "chapters/01-alpha.md:17: output block differs from what "
            "demos/01-alpha.cpp prints: the chapter has '<no line>', the "
            "program prints 'd=4' (litbook check --update rewrites the block)";
  }
  SECTION("the program prints one line fewer") {
    printed = "a=1\nc=3\n";
    where = "chapters/01-alpha.md:15: output block differs from what "
            "demos/01-alpha.cpp prints: the chapter has 'b=2', the program "
            "prints 'c=3' (litbook check --update rewrites the block)";
  }
  p.outputs("01-alpha", printed, "{}");

  auto r = check_fails(p);
  REQUIRE_THAT(r.err, HasLine(where));
  REQUIRE(lines_of(r.err).size() == 1);

  succeeds(p, {"check", "--update"});
  std::string expected = original;
  auto open = expected.find("```{.output}\n") + 13;
  auto close = expected.find("```\n", open);
  expected.replace(open, close - open, printed);
  REQUIRE(p.read("chapters/01-alpha.md") == expected);
  REQUIRE(p.litbook({"check"}).status == 0);
}

TEST_CASE("a missing table or figure fails check with the div's line",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", R"md(::: {table=present}
:::

::: {table=nope}
:::

::: {figure=present}
A caption.
:::

::: {figure=nope}
Another caption.
:::
)md");
  p.outputs("01-alpha", "", "{}");
  p.write("build/out/01-alpha/tables/present.json",
          R"({"columns": ["a"], "rows": [[{"text": "1"}]]})");
  p.write("build/out/01-alpha/figures/present.svg", "<svg></svg>\n");
  auto r = check_fails(p);
  REQUIRE(lines_of(r.err) ==
          std::vector<std::string>{
              "chapters/01-alpha.md:14: table 'nope' is not published by "
              "demos/01-alpha.cpp",
              "chapters/01-alpha.md:21: figure 'nope' is not published by "
              "demos/01-alpha.cpp"});

  // With both published, the same chapter passes.
  p.write("build/out/01-alpha/tables/nope.json",
          R"({"columns": ["a"], "rows": []})");
  p.write("build/out/01-alpha/figures/nope.svg", "<svg></svg>\n");
  succeeds(p, {"check"});
}

TEST_CASE("an unbound number in prose fails the lint; literals, single "
          "digits, years and words pass", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  SECTION("unbound numbers are reported with their lines") {
    p.chapter("01-alpha", R"md(Sorting the keys takes a while
on this machine, with 64 comparisons
and 1024 moves.
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:12: number '64' in prose is not bound "
                "to a value: write [64]{value=NAME}, or [64]{.lit} if it is "
                "an input",
                "chapters/01-alpha.md:13: number '1024' in prose is not "
                "bound to a value: write [1024]{value=NAME}, or "
                "[1024]{.lit} if it is an input"});
  }
  SECTION("a number in a heading, a list or emphasis is reported too") {
    p.chapter("01-alpha", R"md(## The 12 keys

- It takes *37* seconds.
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err).size() == 2);
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:11: number '12' in prose "
                            "is not bound to a value"));
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:13: number '37' in prose "
                            "is not bound to a value"));
  }
  SECTION("decimals and exponents are reported whole") {
    // Pandoc's source positions split "0.37" into "0", "." and "37"; the
    // lint must see the number as written.
    p.chapter("01-alpha", R"md(It costs 0.5 seconds.
The error is 1.5e-07 and the ratio 3.14.
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err).size() == 3);
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:11: number '0.5' in prose "
                            "is not bound to a value: write [0.5]{value=NAME}"));
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:12: number '1.5e-07' in "
                            "prose is not bound to a value"));
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:12: number '3.14' in prose "
                            "is not bound to a value"));
  }
  SECTION("math whose dollars do not pair is reported") {
    p.chapter("01-alpha", "Invalid $\\frac{$ math.\n");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:11: '$\\frac{$' looks like math outside "
                "$...$ (are the dollar signs unbalanced?)"});
  }
  SECTION("literal spans, single digits, years, words, code and math pass") {
    p.chapter("01-alpha", R"md(C++20 and UTF-16 are words.
Sorting costs [0.37]{.lit} seconds with 3 layers,
[64]{.lit} keys and 7 heads, as in 2017 and 1999; UTF-8 and
float64 are words, `x = 42` is code and $n = 128$ is math.
)md");
    check_passes(p);
  }
}

TEST_CASE("a chapter named by its slug in prose must be a link; a "
          "slug-like name of no chapter is reported", "[tool][check]") {
  Project p;
  p.book({"01-alpha", "02-beta-gamma"});
  p.chapter("01-alpha", "Alpha.\n");
  SECTION("mentions without a link are reported with their lines") {
    p.chapter("02-beta-gamma", R"md(As the alpha chapter showed, and the
beta-gamma
chapter's own text says. The no-such-thing chapter is missing.
After [the alpha chapter](chapter:alpha), the alpha chapter again.
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/02-beta-gamma.md:11: chapter 'alpha' is named in "
                "prose without a link: write [the alpha chapter]"
                "(chapter:alpha)",
                "chapters/02-beta-gamma.md:12: chapter 'beta-gamma' is "
                "named in prose without a link: write [the beta-gamma "
                "chapter](chapter:beta-gamma)",
                "chapters/02-beta-gamma.md:13: 'no-such-thing chapter' "
                "names no chapter of the book (no chapter has the id "
                "'no-such-thing')",
                // The line of the mention, not of the link before it.
                "chapters/02-beta-gamma.md:14: chapter 'alpha' is named in "
                "prose without a link: write [the alpha chapter]"
                "(chapter:alpha)"});
  }
  SECTION("the line is the prose's, not an earlier code block's") {
    p.chapter("02-beta-gamma", R"md(```
the alpha chapter, in a code block
```

Then the alpha chapter, in prose.
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/02-beta-gamma.md:15: chapter 'alpha' is named in "
                "prose without a link: write [the alpha chapter]"
                "(chapter:alpha)"});
  }
  SECTION("links, code, math and ordinary words pass") {
    p.chapter("02-beta-gamma", R"md(See [the alpha chapter](chapter:alpha),
the [alpha](chapter:alpha) chapter, `alpha chapter` in code, $alpha$
chapter in math, this chapter, the next chapter and a well-known
chapter. The held-out chapters of a corpus are not chapters of the book.

```
the alpha chapter, in a code block
```
)md");
    check_passes(p);
  }
}

TEST_CASE("a chapter named by its slug in the front matter must be a "
          "link, reported at line 1", "[tool][check]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", "Alpha.\n");
  const auto beta = [&](const std::string& objective,
                        const std::string& prerequisite) {
    p.write("chapters/02-beta.md",
            "---\nid: beta\ntitle: Beta\npart: 1\nobjectives:\n  - '" +
                objective + "'\nprerequisites:\n  - '" + prerequisite +
                "'\n---\n\nBeta.\n");
  };
  SECTION("unlinked mentions in objectives and prerequisites") {
    beta("Use the tape of the alpha chapter.",
         "The alpha chapter - everything; the no-such-thing chapter.");
    auto r = check_fails(p);
    const std::string unlinked =
        "chapters/02-beta.md:1: chapter 'alpha' is named in prose without "
        "a link: write [the alpha chapter](chapter:alpha)";
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                unlinked, unlinked,
                "chapters/02-beta.md:1: 'no-such-thing chapter' names no "
                "chapter of the book (no chapter has the id "
                "'no-such-thing')"});
  }
  SECTION("linked mentions, code and two items that meet pass") {
    // "alpha" ends one item and "chapter" starts the next: no mention.
    p.write("chapters/02-beta.md",
            "---\nid: beta\ntitle: Beta\npart: 1\nobjectives:\n"
            "  - 'Use [the alpha chapter](chapter:alpha) and `alpha "
            "chapter`.'\n  - Read alpha\nprerequisites:\n"
            "  - chapter one.\n---\n\nBeta.\n");
    check_passes(p);
  }
}

TEST_CASE("a link in the front matter is checked, at line 1",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", "Alpha.\n");
  const auto beta = [&](const std::string& prerequisite) {
    p.write("chapters/02-beta.md",
            "---\nid: beta\ntitle: Beta\npart: 1\nobjectives:\n"
            "  - Learn something.\nprerequisites:\n  - '" + prerequisite +
                "'\n---\n\nBeta.\n");
  };
  beta("[Alpha](chapter:alpha): everything.");
  succeeds(p, {"check"});
  beta("[Gamma](chapter:gamma): nothing.");
  auto r = check_fails(p);
  REQUIRE(lines_of(r.err) ==
          std::vector<std::string>{
              "chapters/02-beta.md:1: link to unknown chapter 'gamma'"});
}

TEST_CASE("a decimal with four or more significant digits inside math is "
          "reported; short decimals and integers in math pass",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  SECTION("computed-looking decimals in inline and display math") {
    p.chapter("01-alpha", R"md(The ratio is $e^{0.5} \approx 1.6487$.

$$
y = 0.001999 + x_2
$$
)md");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:11: number '1.6487' in math is not "
                "checked: move it out of the math as [1.6487]{value=NAME}, "
                "or as [1.6487]{.lit} if it is an input",
                "chapters/01-alpha.md:13: number '0.001999' in math is not "
                "checked: move it out of the math as [0.001999]{value=NAME}, "
                "or as [0.001999]{.lit} if it is an input"});
  }
  SECTION("short decimals, integers, subscripts and commands pass") {
    p.chapter("01-alpha", R"md($n = 128$, $x_{1.5}$, $0.25 d$, $10^{-6}$,
$\sqrt{2}$, $\beta_2 = 0.999$, $0.001$ and $b = 10000$.
)md");
    check_passes(p);
  }
}

TEST_CASE("a number the demo publishes, given to a symbol in math, is a "
          "checked value", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  // The demo publishes vocab=1026 and steps=256; 512 is nobody's integer.
  p.outputs("01-alpha", "",
            R"({"vocab": {"kind": "integer", "value": "1026"},
                "steps": {"kind": "integer", "value": "256"},
                "scale": {"kind": "number", "value": "512"}})");
  SECTION("V = 1026 is reported with the fix") {
    // Line 11 holds the math.
    p.chapter("01-alpha", "With $V = 1026$ and $d = 512$ the output\n"
                          "matrix is large.\n");
    auto r = check_fails(p);
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:11: number '1026' in math is the "
                "demo's value 'vocab': write it after the math as "
                "[1026]{value=vocab}"});
  }
  SECTION("short numbers, computations, indices and bound values pass") {
    // 256 is the demo's too, but three digits match constants (the 256
    // byte values) by chance; 1026 \\cdot 32 uses the value in a
    // computation; 2^{1026} and W_{1026} are not 1026 given to a symbol.
    p.chapter("01-alpha", "With $T = 256$, $a = 2^{1026}$, $W_{1026}$, "
                          "$1026 \\cdot 32 = 32832$\n"
                          "and $V =$ [1026]{value=vocab} ids.\n");
    auto r = p.litbook({"check"});
    LOG_RUN(r);
    // Only the product's result is reported, by the computed-result rule.
    REQUIRE(lines_of(r.err).size() == 1);
    REQUIRE(r.err.find("'32832' in math is a computed result") !=
            std::string::npos);
  }
}

TEST_CASE("a computed result standing after = or \\approx in math, "
          "display or inline, is reported; inputs and exact forms pass",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  SECTION("sums, products, roots and scientific results") {
    p.chapter("01-alpha", R"md(Counts:

$$
P = 6 \cdot 4 + 2 = 26, \qquad \sqrt{d_k} = 16, \qquad
2 \cdot 512^3 \approx 2.7 \times 10^{8}
$$

and

$$
512^2 = 262{,}144 , \quad x^2 - 1 = -0.75 .
$$
)md");
    auto r = check_fails(p);
    const std::string tail =
        "' in math is a computed result that no check compares with the "
        "demo: keep the computation in math and write the result after it "
        "as [";
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:13: number '26" + tail + "26]{value=NAME}",
                "chapters/01-alpha.md:13: number '16" + tail + "16]{value=NAME}",
                "chapters/01-alpha.md:13: number '2.7 \\times 10^{8}" + tail +
                    "2.7e8]{value=NAME}",
                "chapters/01-alpha.md:20: number '262{,}144" + tail +
                    "262144]{value=NAME}",
                "chapters/01-alpha.md:20: number '-0.75" + tail +
                    "-0.75]{value=NAME}"});
  }
  SECTION("symbols given a value, one-digit and exact results pass") {
    p.chapter("01-alpha", R"md(Inputs:

$$
d_k = 256, \quad d_{\text{model}} = 512, \quad \varepsilon = 10^{-12},
\quad (9 + 16)/2 = 25/2, \quad \sin^2 1 + \cos^2 1 = 1,
\quad 10000^{-1/4} = 10^{-1}, \quad 2 \cdot 10 = 20\pi
$$

and inline $d = 64$, $h = 1/4$ and $3 + 4 = 7$.
)md");
    check_passes(p);
  }
  SECTION("inline math is read like display math") {
    // Line 3 holds a product, line 4 a root and a decimal; line 5 has
    // the result moved out of the math as a checked value, which the math
    // rule passes (check then only misses the demo that would publish it).
    p.chapter("01-alpha", R"md(Counts:

Inline $6 \cdot 4 = 24$ predictions,
$\sqrt{9 + 16 + 144} = 13$ and $0.1 / 0.19 \approx 0.53$; but
$6 \cdot 4 =$ [24]{value=count} passes the math rule.
)md");
    auto r = fails(p, {"check"});
    const std::string tail =
        "' in math is a computed result that no check compares with the "
        "demo: keep the computation in math and write the result after it "
        "as [";
    REQUIRE(lines_of(r.err) ==
            std::vector<std::string>{
                "chapters/01-alpha.md:1: no demo output to check against "
                "(expected demos/01-alpha.cpp to have run into "
                "build/out/01-alpha)",
                "chapters/01-alpha.md:13: number '24" + tail + "24]{value=NAME}",
                "chapters/01-alpha.md:14: number '13" + tail + "13]{value=NAME}",
                "chapters/01-alpha.md:14: number '0.53" + tail +
                    "0.53]{value=NAME}"});
  }
}

TEST_CASE("a broken link fails check with the link's line", "[tool][check]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", "Alpha.\n\n## Intro\n\nText.\n");
  p.chapter("02-beta", R"md(See [the intro](chapter:alpha#intro), [alpha](chapter:alpha)
and [here](#local-heading). Then
[nothing](chapter:nope), and
[no anchor](chapter:alpha#no-such-anchor), and
[not here](#no-local-anchor).

## Local heading
)md");
  auto r = check_fails(p);
  REQUIRE(lines_of(r.err) ==
          std::vector<std::string>{
              "chapters/02-beta.md:13: link to unknown chapter 'nope'",
              "chapters/02-beta.md:14: link to unknown anchor "
              "'#no-such-anchor' in chapter 'alpha'",
              "chapters/02-beta.md:15: link to unknown anchor "
              "'#no-local-anchor' in chapter 'beta'"});

  // The good links alone pass.
  p.chapter("02-beta", R"md(See [the intro](chapter:alpha#intro), [alpha](chapter:alpha)
and [here](#local-heading).

## Local heading
)md");
  succeeds(p, {"check"});
}

// ===========================================================================
// render
// ===========================================================================

TEST_CASE("invalid TeX fails render with the formula's line and writes no "
          "page", "[tool][render]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.book({"01-alpha"});
  // Line 13 holds the invalid formula, line 15 the display formula.
  auto with_math = [](const std::string& inline_tex,
                      const std::string& display_tex) {
    return chapter_md("alpha", "Valid $x^2$ math.\n\nSome $" + inline_tex +
                                   "$ math.\n\n$$\n" + display_tex + "\n$$\n");
  };
  // The build's cache holds rendered formulas by content; it may gain the
  // valid ones, but the site must not change.
  const std::vector<std::string> cache = {"build/cache"};
  fs::create_directories(p.dir() / "build");  // a build directory exists

  SECTION("no page is created") {
    p.write("chapters/01-alpha.md", with_math("\\frac{1}", "a+b"));
    Tree before = p.tree(cache);
    auto r = fails(p, {"render", "chapters/01-alpha.md"});
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:13: invalid TeX in "
                            "$\\frac{1}$: KaTeX parse error: "));
    REQUIRE_FALSE(p.exists("build/site/01-alpha.html"));
    REQUIRE(changes(before, p.tree(cache)) == "");
  }
  SECTION("an earlier page stays as it was") {
    p.write("chapters/01-alpha.md", with_math("y_1", "a+b"));
    succeeds(p, {"render", "chapters/01-alpha.md"});
    const std::string page = p.read("build/site/01-alpha.html");
    REQUIRE(page.find("katex") != std::string::npos);

    p.write("chapters/01-alpha.md", with_math("y_1", "\\nosuchcommand{a}"));
    Tree before = p.tree(cache);
    auto r = fails(p, {"render", "chapters/01-alpha.md"});
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md:15: invalid TeX in "));
    REQUIRE_THAT(r.err, Catch::Matchers::Contains(
                            "Undefined control sequence: \\nosuchcommand"));
    REQUIRE(p.read("build/site/01-alpha.html") == page);
    REQUIRE(changes(before, p.tree(cache)) == "");
  }
}

// ===========================================================================
// run-demo
// ===========================================================================

namespace {

// A project with one chapter and earlier demo outputs in build/out/01-alpha.
void make_demo_project(const Project& p) {
  p.book({"01-alpha"});
  p.chapter("01-alpha", "Alpha.\n");
  p.outputs("01-alpha", "old=1\n",
            R"({"old": {"kind": "integer", "value": "1"}})" "\n");
  p.write("build/out/01-alpha/tables/old.json",
          R"({"columns": ["a"], "rows": []})");
  p.write("build/out/01-alpha.digest", "old digest\n");
}

// Runs `script` as the chapter's demo; requires that run-demo fails and
// leaves every file of the project (the old outputs included) as it was.
// The arguments that run demo.sh as chapter 01-alpha's demo into
// build/out/01-alpha, then `extra`.
std::vector<std::string> run_demo_args(
    const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run-demo", "--exe", "demo.sh", "--out",
                                   "build/out/01-alpha", "--chapter",
                                   "chapters/01-alpha.md"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

Result demo_fails(const Project& p, const std::string& script,
                  const std::vector<std::string>& extra = {}) {
  make_demo_project(p);
  p.script("demo.sh", script);
  return fails_untouched(p, run_demo_args(extra));
}

}  // namespace

TEST_CASE("a demo that crashes fails run-demo and keeps the old outputs",
          "[tool][demo]") {
  Project p;
  auto r = demo_fails(p, "#!/bin/sh\necho partial=1\nkill -SEGV $$\n");
  REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh was killed "
                              "by signal 11"));
}

TEST_CASE("a demo that exits non-zero fails run-demo and keeps the old "
          "outputs", "[tool][demo]") {
  Project p;
  auto r = demo_fails(p, "#!/bin/sh\necho partial=1\necho 'bad input' >&2\n"
                         "exit 3\n");
  REQUIRE(lines_of(r.err) ==
          std::vector<std::string>{
              "chapters/01-alpha.md: demo demo.sh exited with status 3:",
              "bad input"});
}

TEST_CASE("a demo that times out is killed and fails run-demo",
          "[tool][demo]") {
  Project p;
  auto start = std::chrono::steady_clock::now();
  auto r = demo_fails(p, "#!/bin/sh\necho partial=1\nsleep 30\n",
                      {"--timeout", "1"});
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh did not "
                              "finish within 1 s (killed)"));
  REQUIRE(seconds < 15);
}

TEST_CASE("a demo whose two runs differ fails run-demo", "[tool][demo]") {
  Project p;
  SECTION("different stdout") {
    // $$ is the shell's process id: different on every run.
    auto r = demo_fails(p, "#!/bin/sh\necho same=1\necho pid=$$\n");
    REQUIRE_THAT(r.err, HasLineStartingWith(
                            "chapters/01-alpha.md: demo demo.sh is not "
                            "deterministic: two runs printed different "
                            "output, line 2: 'pid="));
  }
  SECTION("different published values") {
    auto r = demo_fails(p,
                        "#!/bin/sh\necho same=1\n"
                        "echo \"{\\\"name\\\":\\\"t\\\",\\\"kind\\\":"
                        "\\\"text\\\",\\\"text\\\":\\\"$(date +%N)$$\\\"}\" "
                        ">> \"$LITBOOK_OUT/values.jsonl\"\n");
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh is not "
                                "deterministic: two runs published different "
                                "values, tables or figures"));
  }
}

TEST_CASE("run-demo --runs 1 runs the demo once; a bad count changes "
          "nothing", "[tool][demo]") {
  Project p;
  SECTION("once: a demo that differs between runs is published") {
    make_demo_project(p);
    // Counts its own runs in a file beside the project: a second run
    // would print run=2 and fail the comparison.
    p.script("demo.sh", "#!/bin/sh\necho x >> runs.txt\n"
                        "echo run=$(wc -l < runs.txt)\n");
    succeeds(p, run_demo_args({"--runs", "1"}));
    CHECK(p.read("runs.txt") == "x\n");
    CHECK(p.read("build/out/01-alpha/stdout.txt") == "run=1\n");
  }
  for (const char* bad : {"0", "-1", "two", "", "100", "01"}) {
    SECTION(std::string("--runs '") + bad + "'") {
      auto r = demo_fails(p, "#!/bin/sh\necho same=1\n", {"--runs", bad});
      REQUIRE_THAT(r.err, HasLine(std::string("litbook: run-demo: --runs takes "
                                              "a count from 1 to 99, got '") +
                                  bad + "'"));
    }
  }
}

TEST_CASE("a demo that prints more than --max-output fails run-demo",
          "[tool][demo]") {
  Project p;
  SECTION("an endless printer is killed") {
    auto r = demo_fails(p, "#!/bin/sh\nyes\n", {"--max-output", "1000"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh printed "
                                "more than 1000 bytes (killed)"));
  }
  SECTION("published files count towards the limit") {
    auto r = demo_fails(p,
                        "#!/bin/sh\necho small=1\nmkdir -p \"$LITBOOK_OUT/"
                        "figures\"\nhead -c 2000 /dev/zero | tr '\\0' x > "
                        "\"$LITBOOK_OUT/figures/big.svg\"\n",
                        {"--max-output", "1000"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh wrote "
                                "more than 1000 bytes"));
  }
  SECTION("a finite printer one byte over the limit") {
    auto r = demo_fails(p, "#!/bin/sh\nhead -c 1001 /dev/zero | tr '\\0' x\n",
                        {"--max-output", "1000"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh printed "
                                "more than 1000 bytes (killed)"));
  }
}

// A stand-in for a training demo: it traces one line per step, four steps
// in full and `quick_steps` when BOOK_QUICK=1, and publishes an artifact.
std::string training_script(const std::string& quick_steps,
                            const std::string& quick_line = "step") {
  return "#!/bin/sh\n"
         "n=4; word=step\n"
         "if [ \"$BOOK_QUICK\" = 1 ]; then n=" + quick_steps +
         "; word=" + quick_line + "; fi\n"
         "echo steps=$n\n"
         "i=1; while [ $i -le $n ]; do\n"
         "  echo \"$word $i\" >> \"$LITBOOK_OUT/trace.txt\"; i=$((i+1)); done\n"
         "mkdir -p \"$LITBOOK_OUT/artifacts\"\n"
         "printf 'weights' > \"$LITBOOK_OUT/artifacts/model.params\"\n";
}

TEST_CASE("a quick demo is checked by the prefix of its trace",
          "[tool][demo]") {
  Project p;
  SECTION("the quick run traces the same first steps: its outputs publish") {
    make_demo_project(p);
    p.script("demo.sh", training_script("2"));
    succeeds(p, run_demo_args({"--quick"}));
    // The full run's stdout, trace and artifact; not the quick run's.
    REQUIRE(p.read("build/out/01-alpha/stdout.txt") == "steps=4\n");
    REQUIRE(p.read("build/out/01-alpha/trace.txt") ==
            "step 1\nstep 2\nstep 3\nstep 4\n");
    REQUIRE(p.read("build/out/01-alpha/artifacts/model.params") == "weights");
  }
  SECTION("a quick run that differs at a step fails") {
    auto r = demo_fails(p, training_script("2", "other"), {"--quick"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh is not "
                                "deterministic: its quick run's trace differs "
                                "from the full run's at line 1: 'step 1' then "
                                "'other 1'"));
  }
  SECTION("a quick run longer than the full run fails") {
    auto r = demo_fails(p, training_script("5"), {"--quick"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh is not "
                                "deterministic: its quick run's trace differs "
                                "from the full run's at line 5: '<end>' then "
                                "'step 5'"));
  }
  SECTION("a quick run that traces nothing fails") {
    auto r = demo_fails(p, training_script("0"), {"--quick"});
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh is quick "
                                "(front matter demo.quick) but its quick run "
                                "(BOOK_QUICK=1) traced nothing (book::trace)"));
  }
  SECTION("without --quick both runs are full and compared whole") {
    make_demo_project(p);
    p.script("demo.sh", training_script("2", "other"));
    succeeds(p, run_demo_args());
    REQUIRE(p.read("build/out/01-alpha/trace.txt") ==
            "step 1\nstep 2\nstep 3\nstep 4\n");
  }
}

TEST_CASE("a good demo replaces the old outputs completely", "[tool][demo]") {
  Project p;
  make_demo_project(p);
  p.script("demo.sh",
           "#!/bin/sh\n"
           "echo mean=0.250000\n"
           "echo '{\"name\":\"mean\",\"kind\":\"number\",\"value\":\"0.25\"}' "
           ">> \"$LITBOOK_OUT/values.jsonl\"\n"
           "mkdir -p \"$LITBOOK_OUT/tables\"\n"
           "echo '{\"columns\":[\"a\"],\"rows\":[]}' > "
           "\"$LITBOOK_OUT/tables/t.json\"\n");
  succeeds(p, run_demo_args({"--max-output", "1000"}));
  Tree out = snapshot(p.dir() / "build/out/01-alpha");
  require_tree(out, Tree{{"stdout.txt", "mean=0.250000\n"},
                      {"values.json",
                       "{\n \"mean\": {\n  \"kind\": \"number\",\n  "
                       "\"value\": \"0.25\"\n }\n}\n"},
                      {"tables/", ""},
                      {"tables/t.json", "{\"columns\":[\"a\"],\"rows\":[]}\n"}});
  // Nothing is left beside it but the digest.
  std::vector<std::string> siblings;
  for (const auto& e : fs::directory_iterator(p.dir() / "build/out")) {
    siblings.push_back(e.path().filename().string());
  }
  std::sort(siblings.begin(), siblings.end());
  REQUIRE(siblings == std::vector<std::string>{"01-alpha", "01-alpha.digest"});
}

TEST_CASE("a region name outside a-z, 0-9 and - fails tangle",
          "[tool][tangle]") {
  Project p;
  auto r = tangle_fails_with_beta(p, R"md(```{.cpp fill="a-members" region="a_b.c"}
int x = 0;
```
)md");
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:11: invalid region name "
                              "'a_b.c' (use a-z, 0-9 and -)"));
}

TEST_CASE("an empty output block matches a demo that prints nothing",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  p.write("chapters/01-alpha.md",
          chapter_md("alpha", "The demo prints nothing:\n\n```{.output}\n```\n"));
  p.write("build/out/01-alpha/values.json", "{}\n");
  SECTION("empty output passes") {
    p.write("build/out/01-alpha/stdout.txt", "");
    succeeds(p, {"check"});
  }
  SECTION("output without a final newline is reported, not 'updated'") {
    p.write("build/out/01-alpha/stdout.txt", "a=1");
    auto r = fails_untouched(p, {"check", "--update"});
    REQUIRE(r.err.find("updated") == std::string::npos);
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md:13: demos/01-alpha.cpp "
                                "does not end its output with a newline, "
                                "which an output block cannot show; print "
                                "one"));
  }
}

TEST_CASE("a demo that writes 100 MB fails under the default limit",
          "[tool][demo]") {
  Project p;
  // The default limit is 64 MiB of stdout and published files together.
  SECTION("printed") {
    auto r = demo_fails(p, "#!/bin/sh\nhead -c 100000000 /dev/zero\n");
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh printed "
                                "more than 67108864 bytes (killed)"));
  }
  SECTION("published as a figure") {
    auto r = demo_fails(p,
                        "#!/bin/sh\nmkdir -p \"$LITBOOK_OUT/figures\"\n"
                        "head -c 100000000 /dev/zero > "
                        "\"$LITBOOK_OUT/figures/big.svg\"\n");
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md: demo demo.sh wrote "
                                "more than 67108864 bytes"));
  }
}

TEST_CASE("a chapter that is not UTF-8 fails with its line", "[tool][book]") {
  Project p;
  make_tangled_book(p);
  std::string beta = chapter_md("beta", kBeta);
  beta += "\nLatin-1 text: caf\xe9.\n";  // \xe9 is byte 18 of its line
  int line = static_cast<int>(lines_of(beta).size());
  p.write("chapters/02-beta.md", beta);
  auto r = fails_untouched(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine("chapters/02-beta.md:" + std::to_string(line) +
                              ": invalid UTF-8 at byte 18 of the line; "
                              "chapters must be UTF-8"));
}

namespace {
std::string with_crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}
}  // namespace

TEST_CASE("CRLF chapters are accepted: same code, --update keeps CRLF",
          "[tool][check]") {
  Project lf, crlf;
  make_tangled_book(lf);
  make_tangled_book(crlf);
  for (const char* stem : {"01-alpha", "02-beta"}) {
    std::string rel = std::string("chapters/") + stem + ".md";
    crlf.write(rel, with_crlf(crlf.read(rel)));
  }
  succeeds(crlf, {"tangle", "--force"});
  // The tangled code is the same bytes as from the LF chapters.
  REQUIRE(crlf.tree({"chapters"}) == lf.tree({"chapters"}));

  crlf.book({"01-alpha"});
  fs::remove(crlf.dir() / "chapters/02-beta.md");
  crlf.write("chapters/01-alpha.md",
             with_crlf(chapter_md("alpha", "Mean [0.3]{value=m}.\n\n"
                                           "```{.output}\nm=0.3\n```\n")));
  crlf.outputs("01-alpha", "m=0.250000\n",
               R"({"m": {"kind": "number", "value": "0.25"}})" "\n");
  succeeds(crlf, {"check", "--update"});
  REQUIRE(crlf.read("chapters/01-alpha.md") ==
          with_crlf(chapter_md("alpha", "Mean [0.2]{value=m}.\n\n"
                                        "```{.output}\nm=0.250000\n```\n")));
}

TEST_CASE("a 5 MB chapter is parsed, tangled and checked",
          "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  std::string body;
  const std::string paragraph =
      "Every tensor stores its numbers in one flat buffer, and a shape, "
      "strides and an offset say where each element lives in it.\n\n";
  while (body.size() < 5u * 1024 * 1024) body += paragraph;
  body += "```{.cpp file=\"llm/big.hpp\" region=\"big\"}\nint big;\n```\n";
  p.chapter("01-alpha", body);
  // As the build does it: parse once (Pandoc is most of the time), then
  // tangle and check from the parsed model.
  auto start = std::chrono::steady_clock::now();
  // Pandoc needs about 20 s for 5 MB on this machine, more when it is busy;
  // the generous limit only stops a hang. Speed is measured by
  // tools/bench-build.sh, not here.
  const std::chrono::seconds limit(900);
  succeeds(p, {"parse", "chapters/01-alpha.md", "--model-dir", "build/model"},
           limit);
  succeeds(p, {"tangle", "--model-dir", "build/model"}, limit);
  REQUIRE(p.read("snippets/llm/big.hpp").find("int big;") != std::string::npos);
  succeeds(p, {"check", "--model-dir", "build/model"}, limit);
  auto seconds = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start).count();
  WARN("parse + tangle + check of a 5 MB chapter took " << seconds << " s");
}

TEST_CASE("tangle --model-dir reuses a parsed chapter only while its text "
          "is unchanged", "[tool][tangle]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", kAlpha);
  p.chapter("02-beta", kBeta);
  for (const char* stem : {"01-alpha", "02-beta"}) {
    succeeds(p, {"parse", std::string("chapters/") + stem + ".md",
                 "--model-dir", "build/model"});
    REQUIRE(p.exists(std::string("build/model/") + stem + ".code.key"));
  }
  // As a snapshot does it, after an edit the build has not seen: the model
  // of 02-beta still says `int x = 0;`, the chapter says `int x = 7;`.
  std::string edited = kBeta;
  edited.replace(edited.find("int x = 0;"), 10, "int x = 7;");
  p.chapter("02-beta", edited);
  succeeds(p, {"tangle", "--model-dir", "build/model", "--out", "snap"});
  CHECK(p.read("snap/llm/a.hpp").find("int x = 7;") != std::string::npos);
  CHECK(p.read("snap/llm/a.hpp").find("int x = 0;") == std::string::npos);
  // A model whose code was changed behind the key's back is used as it is
  // while the key matches: that is what makes the reuse worth having.
  std::string code = p.read("build/model/01-alpha.code.json");
  code.replace(code.find("return 0;"), 9, "return 3;");
  p.write("build/model/01-alpha.code.json", code);
  succeeds(p, {"tangle", "--model-dir", "build/model", "--out", "snap2"});
  CHECK(p.read("snap2/demos/01-alpha.cpp").find("return 3;") != std::string::npos);
}

TEST_CASE("a Markdown table needs a caption div", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  SECTION("without a caption the table is reported at its line") {
    p.chapter("01-alpha", "Text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    auto r = check_fails(p);
    REQUIRE_THAT(r.err, HasLine("chapters/01-alpha.md:13: a table needs a "
                                "caption for readers of screen readers: wrap "
                                "it in ::: {caption=\"...\"}"));
  }
  SECTION("a caption div passes and renders a <caption>") {
    p.chapter("01-alpha", "Text.\n\n::: {caption=\"Pairs\"}\n| a | b |\n"
                          "|---|---|\n| 1 | 2 |\n:::\n");
    const std::string html = checked_page(p, "01-alpha");
    // The caption starts with the table's number in the chapter.
    REQUIRE(html.find("<table>\n<caption><span class=\"item-number\">"
                      "Table 1.1.</span> Pairs</caption>") != std::string::npos);
  }
}

// ===========================================================================
// listings link the symbols they define to the API reference
// ===========================================================================

TEST_CASE("listings link the symbols their own lines define to Doxygen's "
          "pages", "[tool][render][api]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.book({"01-alpha", "02-beta"});
  // a-top holds a struct and a placeholder that 02-beta fills with a
  // member; a-free declares a free function. Each listing must name only
  // what its own lines introduce.
  p.chapter("01-alpha", R"md(The struct.

```{.cpp file="llm/a.hpp" region="a-top"}
#pragma once
namespace llm {
/// A thing.
struct Alpha {
  // <<alpha-members>>
};
```

A function.

```{.cpp file="llm/a.hpp" region="a-free"}
/// Twice x.
double twice(double x);
}  // namespace llm
```
)md");
  p.chapter("02-beta", R"md(A member.

```{.cpp fill="alpha-members" region="alpha-size"}
/// The size.
int size() const;
```
)md");
  auto tangled = succeeds(p, {"tangle", "--listings", "build/listings"});

  // The generated file: three header lines, then
  //  4 // alpha: a-top            11   int size() const;
  //  5 #pragma once               12 };
  //  6 namespace llm {            13 (blank line between regions)
  //  7 /// A thing.               14 // alpha: a-free
  //  8 struct Alpha {             15 /// Twice x.
  //  9   // beta: alpha-size      16 double twice(double x);
  // 10   /// The size.            17 }  // namespace llm
  // Region markers belong to no region; a fill's lines are its own.
  const auto file = lines_of(p.read("snippets/llm/a.hpp"));
  REQUIRE(file.size() == 17);
  CHECK(file[7] == "struct Alpha {");
  CHECK(file[10] == "  int size() const;");
  CHECK(file[15] == "double twice(double x);");
  using litbook::Json;
  auto alpha = Json::parse(p.read("build/listings/01-alpha.listings.json"));
  auto beta = Json::parse(p.read("build/listings/02-beta.listings.json"));
  CHECK(alpha["a-top"]["lines"] == Json::parse("[[5, 8], [12, 12]]"));
  CHECK(alpha["a-free"]["lines"] == Json::parse("[[15, 17]]"));
  CHECK(beta["alpha-size"]["lines"] == Json::parse("[[10, 11]]"));

  // Doxygen (a dependency of the build) documents the tangled file.
  p.write("Doxyfile",
          "OUTPUT_DIRECTORY = build/doxygen\nINPUT = snippets/llm\n"
          "FILE_PATTERNS = *.hpp\nEXTRACT_ALL = YES\nGENERATE_HTML = NO\n"
          "GENERATE_LATEX = NO\nGENERATE_XML = YES\nXML_PROGRAMLISTING = NO\n"
          "FULL_PATH_NAMES = YES\nSTRIP_FROM_PATH = snippets\nQUIET = YES\n");
  litbook::ProcessOptions options;
  options.cwd = p.dir();
  auto doxygen = litbook::run_process({"doxygen", "Doxyfile"}, options);
  INFO("doxygen: " << doxygen.err);
  REQUIRE(doxygen.exit_code == 0);
  succeeds(p, {"api-symbols", "--xml", "build/doxygen/xml",
               "--out", "build/model/api-symbols.json"});
  auto symbols = Json::parse(p.read("build/model/api-symbols.json"));
  std::map<std::string, Json> by_name;
  for (const auto& s : symbols) by_name[s["name"].get<std::string>()] = s;
  REQUIRE(by_name.count("Alpha"));
  REQUIRE(by_name.count("Alpha::size"));
  REQUIRE(by_name.count("twice"));
  CHECK(by_name["Alpha"]["line"] == 8);
  CHECK(by_name["Alpha"]["href"] == "api/structllm_1_1Alpha.html");
  CHECK(by_name["Alpha::size"]["line"] == 11);
  CHECK(by_name["twice"]["line"] == 16);
  CHECK(by_name["twice"]["file"] == "llm/a.hpp");
  // A member's anchor is the part of Doxygen's id after its page's id.
  const std::string size_href = by_name["Alpha::size"]["href"];
  CHECK(size_href.rfind("api/structllm_1_1Alpha.html#a", 0) == 0);
  const std::string twice_href = by_name["twice"]["href"];
  CHECK(twice_href.rfind("api/namespacellm.html#a", 0) == 0);

  succeeds(p, {"render", "chapters/01-alpha.md",
               "chapters/02-beta.md", "--listings",
               "build/listings", "--api",
               "build/model/api-symbols.json"});
  auto link = [](const std::string& href, const std::string& name) {
    return "<a href=\"" + href + "\" title=\"API reference\"><code>" + name +
           "</code></a>";
  };
  // The listing of a region, from its figure to the end of the figure.
  auto figure = [](const std::string& page, const std::string& region) {
    auto at = page.find("id=\"region-" + region + "\"");
    REQUIRE(at != std::string::npos);
    return page.substr(at, page.find("</figure>", at) - at);
  };
  const std::string one = p.read("build/site/01-alpha.html");
  const std::string two = p.read("build/site/02-beta.html");
  CHECK_THAT(figure(one, "a-top"),
             Catch::Matchers::Contains(
                 "<p class=\"listing-api\">Defines " +
                 link("api/structllm_1_1Alpha.html", "Alpha") + "</p>"));
  CHECK_THAT(figure(one, "a-free"),
             Catch::Matchers::Contains("Defines " + link(twice_href, "twice") +
                                       "</p>"));
  CHECK_THAT(figure(two, "alpha-size"),
             Catch::Matchers::Contains("Defines " +
                                       link(size_href, "Alpha::size") + "</p>"));

  // Without --api, listings link nothing.
  succeeds(p, {"render", "chapters/01-alpha.md", "--listings",
               "build/listings"});
  CHECK(p.read("build/site/01-alpha.html").find("listing-api") ==
        std::string::npos);
}

TEST_CASE("api-symbols fails on a directory without Doxygen XML and on a "
          "file that is not Doxygen's, writing nothing", "[tool][api]") {
  Project p;
  p.write("xml/README", "not Doxygen output\n");
  auto r = fails_untouched(
      p, {"api-symbols", "--xml", "xml", "--out", "symbols.json"});
  CHECK_THAT(r.err, Catch::Matchers::Contains(
                        "api: no Doxygen XML here (index.xml is missing"));

  p.write("xml/index.xml", "<doxygenindex></doxygenindex>\n");
  p.write("xml/classllm_1_1Broken.xml", "<doxygen><nothing/></doxygen>\n");
  r = fails_untouched(p, {"api-symbols", "--xml", "xml", "--out",
                          "symbols.json"});
  CHECK_THAT(r.err, Catch::Matchers::Contains("classllm_1_1Broken.xml"));
  CHECK_THAT(r.err, Catch::Matchers::Contains(
                        "api: not a Doxygen compound file (no <compounddef>)"));
}

TEST_CASE("the preface quotes a demo's published text; a reference to "
          "nothing stops the render at its line", "[tool][book]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.chapter("01-alpha", "Alpha.\n");
  p.book({"01-alpha"});
  p.write("build/out/01-alpha/stdout.txt", "sample=In <the> beginning\n");
  p.write("build/out/01-alpha/values.json",
          R"({"sample": {"kind": "text", "text": "In <the> beginning"},)"
          R"( "count": {"kind": "integer", "value": "3"}})");

  SECTION("a text value becomes the element's text, escaped") {
    p.write("book/preface.html",
            "<p>Before.</p>\n<p data-value=\"01-alpha/sample\"></p>\n");
    succeeds(p, {"render", "--landing"});
    CHECK_THAT(p.read("build/site/index.html"),
               Catch::Matchers::Contains(
                   "<p>Before.</p>\n<p data-value=\"01-alpha/sample\">"
                   "In &lt;the&gt; beginning</p>"));
  }
  SECTION("an unknown key, a number, an unknown demo, an element with "
          "text of its own") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"<p data-value=\"01-alpha/sampel\"></p>",
         "book/preface.html:2: data-value=\"01-alpha/sampel\": expected "
         "STEM/KEY naming a text value a demo published in "},
        {"<p data-value=\"01-alpha/count\"></p>",
         "book/preface.html:2: data-value=\"01-alpha/count\": expected "},
        {"<p data-value=\"09-none/sample\"></p>",
         "book/preface.html:2: data-value=\"09-none/sample\": expected "},
        {"<p data-value=\"01-alpha/sample\">typed by hand</p>",
         "book/preface.html:2: an element with data-value must be empty "
         "and closed: the demo's value is its text"},
    };
    for (const auto& [element, message] : cases) {
      p.write("book/preface.html", "<p>Before.</p>\n" + element + "\n");
      auto r = fails_untouched(p, {"render", "--landing"});
      CHECK_THAT(r.err, Catch::Matchers::Contains(message));
    }
  }
}

TEST_CASE("a part's review page NNr-slug.md follows chapter NN and is "
          "marked as a review", "[tool][book]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.chapter("01-alpha", "Alpha.\n");
  p.write("chapters/01r-alpha-review.md",
          chapter_md("alpha-review", "Alpha again, in review.\n"));

  SECTION("listed after chapter 01, it renders with the review mark") {
    p.book({"01-alpha", "01r-alpha-review"});
    succeeds(p, {"render", "--landing"});
    const std::string landing = p.read("build/site/index.html");
    CHECK_THAT(landing, Catch::Matchers::Contains(
                            "<a href=\"01r-alpha-review.html\"><span "
                            "class=\"chapter-number review-mark\" "
                            "title=\"Part review\">R</span> Chapter "
                            "alpha-review</a>"));
    CHECK_THAT(landing, Catch::Matchers::Contains(
                            "<a href=\"01-alpha.html\"><span "
                            "class=\"chapter-number\">01</span> Chapter "
                            "alpha</a>"));
  }
  SECTION("listed before chapter 01, book.yaml is out of order") {
    p.book({"01r-alpha-review", "01-alpha"});
    auto r = fails_untouched(p, {"tangle"});
    CHECK_THAT(r.err, HasLine("book/book.yaml:7: chapter '01-alpha' is listed "
                              "after '01r-alpha-review'; list chapters in "
                              "number order"));
  }
  SECTION("left out of book.yaml, it is reported like any chapter") {
    p.book({"01-alpha"});
    auto r = p.litbook({"tangle"});
    LOG_RUN(r);
    CHECK(r.status != 0);
    CHECK_THAT(r.err, HasLine("chapters/01r-alpha-review.md:1: chapter is not "
                              "listed in book/book.yaml"));
  }
}

TEST_CASE("a checked value in exponent form is compared in the author's "
          "exponent style", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  // printf("%.1e") writes 0.0e+00, 1.5e-07 and 3.0e+12; the prose may
  // write the exponent padded or not, with or without a '+'.
  p.write("chapters/01-alpha.md",
          chapter_md("alpha",
                     "A [0.0e+00]{value=zero} B [0.0e0]{value=zero} "
                     "C [0.0e00]{value=zero} D [1.5e-07]{value=small} "
                     "E [1.5e-7]{value=small} F [3.0e+12]{value=big} "
                     "G [3.0e12]{value=big}.\n"
                     "H [1.0e+00]{value=zero} I [1.5e-08]{value=small}.\n"));
  p.outputs("01-alpha", "",
            R"({"zero": {"kind": "number", "value": "0"},
                "small": {"kind": "number", "value": "1.5e-07"},
                "big": {"kind": "number", "value": "3e12"}})");
  auto r = check_fails(p);
  CHECK_THAT(r.err, HasLine(value_differs(12, "zero", "0.0e+00", "1.0e+00")));
  CHECK_THAT(r.err, HasLine(value_differs(12, "small", "1.5e-07", "1.5e-08")));
  CHECK(lines_of(r.err).size() == 2);  // line 11 is right in every style
}

TEST_CASE("figures, tables and exercises are numbered, and a link without "
          "text shows the number of the item it links to",
          "[tool][render][check]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  p.chapter("01-alpha", R"md(See [](#table-sizes), [](#exercise-2) and
[](chapter:beta#ex-last).

::: {#table-sizes caption="Sizes"}
| a | b |
|---|---|
| x | y |
:::

::: {.exercise title="First"}
Do it.

::: answer
Done.
:::
:::

::: {.exercise title="Second"}
Again.

::: answer
Done.
:::
:::
)md");
  p.chapter("02-beta", R"md(Beta.

::: {.exercise #ex-last title="Only"}
Once.

::: answer
Yes.
:::
:::
)md");
  const std::string html = checked_page(p, "01-alpha");
  const PageHas has{html};
  // Numbers count per kind and chapter, in document order.
  has("<div id=\"table-sizes\">");
  has("<caption><span class=\"item-number\">Table 1.1.</span> Sizes</caption>");
  has("<section class=\"exercise\" id=\"exercise-1\"><h3>Exercise 1.1: First");
  has("<section class=\"exercise\" id=\"exercise-2\"><h3>Exercise 1.2: Second");
  // A link without text reads the number, here or in another chapter.
  has("<a href=\"#table-sizes\">Table 1.1</a>");
  has("<a href=\"#exercise-2\">Exercise 1.2</a>");
  has("<a href=\"02-beta.html#ex-last\">Exercise 2.1</a>");

  // A missing item, and a heading that has no number, fail check.
  p.chapter("02-beta", R"md(See [](#exercise-9) and [](#beta-heading).

## Beta heading
)md");
  auto bad = fails(p, {"check"});
  CHECK_THAT(bad.err, HasLine("chapters/02-beta.md:11: link to unknown anchor "
                              "'#exercise-9' in chapter 'beta'"));
  CHECK_THAT(bad.err, HasLine("chapters/02-beta.md:11: a link without text "
                              "shows the number of a figure, table or "
                              "exercise, but '#beta-heading' is none of them"));
  // 01-alpha's link to the exercise that is gone fails too.
  CHECK_THAT(bad.err, HasLine("chapters/01-alpha.md:12: link to unknown "
                              "anchor '#ex-last' in chapter 'beta'"));
}

std::string checkpoints_text(const std::string& skip,
                             const std::string& replace_kind,
                             const std::string& replacement);

// book.yaml's workbenches: two, "dials" (reporting two events) and "mask".
const std::string kWorkbenches =
    "workbenches:\n"
    "  - name: dials\n"
    "    events: [turned-up, turned-down]\n"
    "  - name: mask\n"
    "    events: [mask-off]\n";

TEST_CASE("a value or literal marker inside code is reported at its line, "
          "and nothing is tangled", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", "```{.cpp file=\"llm/a.hpp\" region=\"a\"}\n"
                        "int a;\n// groups of [32]{.lit} rows\n```\n");
  auto r = fails(p, {"tangle"});
  CHECK_THAT(r.err, HasLine("chapters/01-alpha.md:13: a code block holds the "
                            "marker '[32]{.lit}', which code shows as it is: "
                            "write the number or name plainly"));
  CHECK_FALSE(fs::exists(p.dir() / "snippets" / "llm" / "a.hpp"));
}

TEST_CASE("a workbench div renders its container and loads its workbench",
          "[tool][render][workbench]") {
  Project p;
  p.book({"01-alpha"}, kWorkbenches);
  p.workbench_files("dials");
  p.workbench_files("mask");
  p.chapter("01-alpha",
            "Text.\n\n::: {.workbench name=dials}\nEdit the dials.\n:::\n\n"
            "- [Turn one up]{when=turned-up}.\n");
  const std::string html = checked_page(p, "01-alpha");
  const PageHas has{html};
  has("<link rel=\"stylesheet\" href=\"workbench/workbench.css\">");
  has("<section id=\"workbench-dials\" class=\"workbench\" "
      "data-workbench=\"dials\" aria-label=\"Workbench\">");
  has("<p>Edit the dials.</p>");
  has("<div class=\"workbench-app\">");
  has("<span data-when=\"turned-up\">Turn one up</span>");
  // The module, then what every workbench shares, then the page's part.
  const auto module = html.find("<script src=\"workbench/dials-module.js\" defer>");
  const auto common = html.find("<script src=\"workbench/common.js\" defer>");
  const auto own = html.find("<script src=\"workbench/dials.js\" defer>");
  REQUIRE(own != std::string::npos);
  CHECK(module < common);
  CHECK(common < own);
  CHECK(html.find("name=\"dials\"") == std::string::npos);
}

TEST_CASE("check: a workbench is one of book.yaml's, and each step waits "
          "for an event the page's workbench reports",
          "[tool][checkpoints][workbench]") {
  Project p;
  p.book({"01-alpha"}, kWorkbenches);
  p.workbench_files("dials");
  p.workbench_files("mask");
  std::string text, message;
  SECTION("a workbench div without a name") {
    text = "Text.\n\n::: workbench\nPlay.\n:::\n";
    message = "chapters/01-alpha.md:13: a workbench div needs name=NAME (one "
              "of book/book.yaml's workbenches: dials, mask)";
  }
  SECTION("an unknown workbench") {
    text = "Text.\n\n::: {.workbench name=knobs}\nPlay.\n:::\n";
    message = "chapters/01-alpha.md:13: unknown workbench 'knobs' "
              "(book/book.yaml's workbenches: dials, mask)";
  }
  SECTION("the same workbench twice on a page") {
    text = "::: {.workbench name=dials}\nPlay.\n:::\n\n"
           "::: {.workbench name=dials}\nAgain.\n:::\n";
    message = "chapters/01-alpha.md:15: a second 'dials' workbench on this "
              "page; a page has one of each";
  }
  // The four checkpoints, the experiment's step waiting for `event`.
  auto with_step = [](const std::string& event) {
    return checkpoints_text("", "experiment",
                            "::: experiment\n- [Do it]{when=" + event +
                                "}.\n:::\n");
  };
  SECTION("a step waiting for another workbench's event") {
    text = "::: {.workbench name=dials}\nPlay.\n:::\n\n" + with_step("mask-off");
    message = "chapters/01-alpha.md:26: unknown workbench event 'mask-off' "
              "in an experiment step (the dials workbench reports: "
              "turned-up, turned-down)";
  }
  SECTION("a step waiting for an event on a page with no workbench") {
    text = with_step("turned-up");
    message = "chapters/01-alpha.md:22: an experiment step waits for "
              "'turned-up', but this page has no workbench to report it "
              "(drop {when=...}, or place a ::: {.workbench name=NAME} div)";
  }
  SECTION("an attribute a workbench does not take") {
    text = "::: {.workbench name=dials size=big}\nPlay.\n:::\n";
    message = "chapters/01-alpha.md:11: unknown attribute 'size' on a "
              "workbench (expected one of: name)";
  }
  p.chapter("01-alpha", text);
  p.outputs("01-alpha", "", "{\"sum\": {\"kind\": \"number\", \"value\": \"4\"}}\n");
  auto r = fails(p, {"check"});
  CHECK_THAT(r.err, HasLine(message));
}

TEST_CASE("book.yaml's workbenches: each named, with its files and events",
          "[tool][book][workbench]") {
  Project p;
  p.chapter("01-alpha", "Text.\n");
  std::string extra, message;
  SECTION("a workbench whose files are missing") {
    extra = "workbenches:\n  - name: dials\n    events: [up]\n";
    p.write("book/workbench/dials/dials.hpp", "");
    p.write("book/workbench/dials/dials.cpp", "");
    message = "book/book.yaml:3: workbench 'dials': "
              "book/workbench/dials/dials.js does not exist";
  }
  SECTION("a workbench without events") {
    p.workbench_files("dials");
    extra = "workbenches:\n  - name: dials\n";
    message = "book/book.yaml:3: workbench 'dials' needs 'events', the list "
              "of what it reports";
  }
  SECTION("a name that cannot name a file and a script's factory") {
    extra = "workbenches:\n  - name: Big-Dials\n    events: [up]\n";
    message = "book/book.yaml:3: workbenches: the name 'Big-Dials' must be "
              "lower-case letters and digits, starting with a letter";
  }
  SECTION("a workbench listed twice") {
    p.workbench_files("dials");
    extra = "workbenches:\n  - name: dials\n    events: [up]\n"
            "  - name: dials\n    events: [down]\n";
    message = "book/book.yaml:3: workbench 'dials' is listed twice";
  }
  p.book({"01-alpha"}, extra);
  auto r = fails(p, {"check"});
  CHECK_THAT(r.err, HasLine(message));
}

TEST_CASE("verify-site reports a script or stylesheet the page cannot load",
          "[tool][site]") {
  Project p;
  const std::string page =
      "<html><head><link rel=\"stylesheet\" href=\"style.css\"></head>"
      "<body><script src=\"workbench/attention.js\" defer></script>"
      "</body></html>";
  p.write("site/index.html", page);
  p.write("site/style.css", "");
  SECTION("a missing script is a broken link") {
    auto r = fails(p, {"verify-site", "site"});
    REQUIRE(r.err.find("broken link 'workbench/attention.js'") != std::string::npos);
  }
  SECTION("with the script in place the site passes") {
    p.write("site/workbench/attention.js", "");
    succeeds(p, {"verify-site", "site"});
  }
  SECTION("a missing stylesheet is a broken link") {
    fs::remove(p.dir() / "site/style.css");
    p.write("site/workbench/attention.js", "");
    auto r = fails(p, {"verify-site", "site"});
    REQUIRE(r.err.find("broken link 'style.css'") != std::string::npos);
  }
}

namespace {

// Runs litbook with `args` and requires that it fails with exactly the
// `expected` lines on stderr and changes no file of the project.
void require_fails_with(const Project& p, const std::vector<std::string>& args,
                        const std::vector<std::string>& expected) {
  auto r = fails_untouched(p, args);
  REQUIRE(lines_of(r.err) == expected);
}

}  // namespace

// ===========================================================================
// errors that lead to the chapter line (issue 14)
// ===========================================================================

TEST_CASE("a YAML error in the front matter names the chapter's line and "
          "column", "[tool][book]") {
  Project p;
  p.book({"01-alpha"});
  std::string text, message;
  SECTION("an unclosed flow sequence") {
    // Pandoc: "line 3, column 4" of the YAML, which starts on file line 2,
    // and counts columns from 0: the ':' of "part:" on file line 4.
    text = "---\nid: alpha\ntitle: [Alpha\npart: 1\n---\n\nText.\n";
    message = "chapters/01-alpha.md:4:5: front matter: while parsing a flow "
              "sequence: did not find expected ',' or ']'";
  }
  SECTION("a mapping inside a value") {
    // Pandoc: "line 2, column 6": file line 3, where the second ':' of
    // "key: a: b" is 0-based column 6.
    text = "---\nid: alpha\nkey: a: b\n---\n\nText.\n";
    message = "chapters/01-alpha.md:3:7: front matter: mapping values are not "
              "allowed in this context";
  }
  p.write("chapters/01-alpha.md", text);
  require_fails_with(p, {"check"}, {message});
}

TEST_CASE("render refuses a table or figure the demo never published with "
          "the div's line, as check does", "[tool][render]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.book({"01-alpha"});
  p.chapter("01-alpha", "::: {table=nope}\n:::\n\n::: {figure=gone}\nA caption.\n:::\n");
  p.outputs("01-alpha", "", "{}");
  fs::create_directories(p.dir() / "build");
  require_fails_with(p, {"render", "chapters/01-alpha.md"},
                     {"chapters/01-alpha.md:11: table 'nope' is not published by "
                      "demos/01-alpha.cpp",
                      "chapters/01-alpha.md:14: figure 'gone' is not published by "
                      "demos/01-alpha.cpp"});
}

TEST_CASE("a fence left open swallows the output block: reported at the "
          "swallowed fence", "[tool][check]") {
  Project p;
  p.book({"01-alpha"});
  p.outputs("01-alpha", "hello\n", "{}");
  SECTION("an opening fence with an info string inside a block") {
    // Line 13 opens a block never closed before line 18's ```{.output};
    // line 20's ``` closes the cpp block, so the output block is lost.
    p.chapter("01-alpha",
              "Text.\n\n```cpp\nint x = 0;\n\nMore prose.\n\n```{.output}\n"
              "hello\n```\n");
    require_fails_with(p, {"check"},
                       {"chapters/01-alpha.md:18: '```{.output}' is inside the code "
                        "block opened at line 13; close that block with ``` first"});
  }
  SECTION("a longer fence may show a shorter one") {
    p.chapter("01-alpha",
              "Text.\n\n````markdown\n```{.output}\nhello\n```\n````\n\n"
              "```{.output}\nhello\n```\n");
    succeeds(p, {"check"});
  }
  SECTION("a demo that prints needs an output block") {
    p.chapter("01-alpha", "Text.\n");
    require_fails_with(p, {"check"},
                       {"chapters/01-alpha.md:1: demos/01-alpha.cpp prints a report "
                        "but the chapter has no output block (```{.output}) to check "
                        "it against"});
  }
}

TEST_CASE("a div with the classes of two kinds is one kind to check and "
          "render alike", "[tool][render]") {
  // A note that also says exercise is a note (the callouts come before
  // exercises): check does not number it, so the real exercise after it
  // is Exercise 1.1 in check's index and on the page.
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", R"md(Alpha, see [](#exercise-1).

::: {.note .exercise title="Not one"}
A note.

::: answer
Not an answer.
:::
:::

::: {.exercise title="Real"}
Do it.

::: answer
Done.
:::
:::
)md");
  const std::string html = checked_page(p, "01-alpha");
  CHECK(html.find("<div class=\"callout note\" role=\"note\">") !=
        std::string::npos);
  CHECK(html.find("<section class=\"exercise\" id=\"exercise-1\"><h3>"
                  "Exercise 1.1: Real") != std::string::npos);
  CHECK(html.find("<a href=\"#exercise-1\">Exercise 1.1</a>") !=
        std::string::npos);
  CHECK(html.find("Exercise 1.2") == std::string::npos);
}

TEST_CASE("a link to a revised region: check and render agree on its id",
          "[tool][check][render]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.book({"01-alpha", "02-beta", "03-gamma"});
  p.chapter("01-alpha",
            "```{.cpp file=\"llm/a.hpp\" region=\"foo\"}\nint a = 1;\n```\n");
  p.chapter("02-beta", "```{.cpp revise=\"foo\"}\nint a = 2;\n```\n");
  SECTION("#region-foo names alpha's listing, not beta's revision") {
    p.chapter("03-gamma", "See [it](chapter:beta#region-foo).\n");
    require_fails_with(p, {"check"},
                       {"chapters/03-gamma.md:11: link to unknown anchor "
                        "'#region-foo' in chapter 'beta'"});
  }
  SECTION("#region-foo-revised passes check and is the id render writes") {
    p.chapter("03-gamma", "See [it](chapter:beta#region-foo-revised) and "
                          "[the first](chapter:alpha#region-foo).\n");
    succeeds(p, {"check"});
    for (const char* stem : {"01-alpha", "02-beta", "03-gamma"}) {
      succeeds(p, {"render", std::string("chapters/") + stem + ".md",
                   "--site", "site"});
    }
    CHECK(p.read("site/01-alpha.html").find("id=\"region-foo\"") !=
          std::string::npos);
    CHECK(p.read("site/02-beta.html").find("id=\"region-foo-revised\"") !=
          std::string::npos);
    CHECK(p.read("site/03-gamma.html")
              .find("href=\"02-beta.html#region-foo-revised\"") !=
          std::string::npos);
  }
}

TEST_CASE("an id an author gives is one check accepts and render writes",
          "[tool][check][render]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", R"md(
::: {.note #why}
A note.
:::

```{#listing-x .text}
plain
```

::: {#aside}
Aside.
:::

A [phrase]{#phrase} and [the note](#why), [the block](#listing-x),
[the aside](#aside), [the phrase](#phrase).
)md");
  const std::string html = checked_page(p, "01-alpha");
  CHECK(html.find("<div id=\"why\" class=\"callout note\" role=\"note\">") !=
        std::string::npos);
  CHECK(html.find("id=\"listing-x\"") != std::string::npos);
  CHECK(html.find("<div id=\"aside\">") != std::string::npos);
  CHECK(html.find("<span id=\"phrase\">phrase</span>") != std::string::npos);
  for (const char* id : {"why", "listing-x", "aside", "phrase"}) {
    CHECK(html.find("href=\"#" + std::string(id) + "\"") != std::string::npos);
  }
  SECTION("an id nothing carries is still an unknown anchor") {
    p.chapter("01-alpha", "::: {.note #why}\nA note.\n:::\n\n"
                          "See [there](#elsewhere).\n");
    require_fails_with(p, {"check"},
                       {"chapters/01-alpha.md:15: link to unknown anchor "
                        "'#elsewhere' in chapter 'alpha'"});
  }
}

// ===========================================================================
// the HTML writer writes what Pandoc's html5 writer writes (issue 14)
// ===========================================================================

TEST_CASE("the writer keeps footnotes, image titles, HTML attributes, list "
          "types, code block ids and classes, and quotation marks",
          "[tool][render]") {
  Project p;
  p.copy_from_source("book/template.html");
  p.book({"01-alpha"});
  const std::string body =
      "## A \"quoted\" head\n\n"
      "Text[^1] and ![a \"q\" b](x.png \"the title\").\n\n"
      "[^1]: Note *here*.\n\n"
      "[out](https://example.org){target=\"_blank\" rel=\"noopener\"} and "
      "[red]{style=\"color:red\"} and [odd]{odd=\"1\"}.\n\n"
      "a. x\nb. y\n\n"
      "iv. a\nv. b\n\n"
      "```{#plain-code .foolang}\nx < y\n```\n\n"
      "```{#lit-code .cpp}\nint x;\n```\n";
  p.chapter("01-alpha", body);
  const std::string html = rendered_page(p, "01-alpha");
  // Pandoc's own html5 writer on the same Markdown is the reference: each
  // fragment must appear in its output and in litbook's page.
  p.write("pandoc-in.md", body);
  auto ref = litbook::run_process({"pandoc", "-f", "commonmark_x", "-t",
                                   "html5", "--wrap=none",
                                   (p.dir() / "pandoc-in.md").string()});
  REQUIRE(ref.exit_code == 0);
  auto both = [&](const std::string& fragment) {
    INFO("fragment: " << fragment);
    CHECK(ref.out.find(fragment) != std::string::npos);
    CHECK(html.find(fragment) != std::string::npos);
  };
  both("Note <em>here</em>.");
  both("<img src=\"x.png\" title=\"the title\" alt=\"a \u201cq\u201d b\"");
  both("<a href=\"https://example.org\" target=\"_blank\" rel=\"noopener\">");
  both("<span style=\"color:red\">red</span>");
  both("<span data-odd=\"1\">odd</span>");
  both("<ol type=\"a\">");
  both("<ol start=\"4\" type=\"i\">");
  both("<pre id=\"plain-code\" class=\"foolang\"><code>x &lt; y</code></pre>");
  both("<div class=\"sourceCode\" id=\"lit-code\">");
  // The table of contents keeps the quotation marks of the heading.
  auto toc = html.find("<nav class=\"page-toc\"");
  REQUIRE(toc != std::string::npos);
  std::string nav = html.substr(toc, html.find("</nav>", toc) - toc);
  CHECK(nav.find("A \u201cquoted\u201d head") != std::string::npos);
}

TEST_CASE("a compiler error in a tangled snippet also names the chapter line",
          "[tool][compile]") {
  Project p;
  make_tangled_book(p);
  // Beta's region line 14 becomes line 7 of snippets/llm/a.hpp: three
  // header lines, alpha's region comment (4), "struct A {" (5), beta's
  // region comment (6), then the region's first line.
  p.chapter("02-beta", "A member.\n\n```{.cpp fill=\"a-members\" "
                       "region=\"a-x\"}\nint x = undefined_name;\n```\n");
  succeeds(p, {"tangle", "--listings", "build/listings"});
  auto r = fails_untouched(
      p, {"compile", "--lines", "build/listings/snippet-lines.json", "--",
          "g++", "-std=c++20", "-fsyntax-only", "-x", "c++",
          "snippets/llm/a.hpp"});
  // The compiler's own line stays; the chapter's follows it.
  REQUIRE_THAT(r.err, HasLineStartingWith("snippets/llm/a.hpp:7:"));
  bool mapped = false;
  for (const auto& line : lines_of(r.err)) {
    const std::string tail = " (snippets/llm/a.hpp:7)";
    mapped = mapped ||
             (line.rfind("chapters/02-beta.md:14: error: ", 0) == 0 &&
              line.size() > tail.size() &&
              line.compare(line.size() - tail.size(), tail.size(), tail) == 0);
  }
  CHECK(mapped);

  // A clean compile says nothing more and succeeds.
  p.chapter("02-beta", kBeta);
  REQUIRE(p.litbook({"tangle", "--listings", "build/listings"}).status == 0);
  auto ok = succeeds(p, {"compile", "--lines",
                         "build/listings/snippet-lines.json", "--", "g++",
                         "-std=c++20", "-fsyntax-only", "-x", "c++",
                         "snippets/llm/a.hpp"});
  REQUIRE(ok.err.empty());
}

TEST_CASE("tangle records the chapter line of every region line, revisions "
          "included", "[tool][tangle]") {
  litbook::Region top;
  top.name = "top";
  top.file = "llm/a.hpp";
  top.code = "struct A {\n  int a;\n};";
  top.line = 13;
  litbook::Region revised;
  revised.name = "top";
  revised.revise = "top";
  revised.code = "struct A {\n  int b;\n};";
  revised.line = 20;
  auto result = litbook::tangle(
      {{"01-alpha", "alpha", "chapters/01-alpha.md", {top}, {}},
       {"02-beta", "beta", "chapters/02-beta.md", {revised}, {}}});
  litbook::Json origins = litbook::origins_to_json(result);
  // Lines 1-3 are the header, 4 the region comment, 5-7 the revised code,
  // whose fence is beta's line 20: "int b;" (file line 6) is beta's 22.
  REQUIRE_FALSE(litbook::origin_of(origins, "llm/a.hpp", 4).has_value());
  auto at = litbook::origin_of(origins, "llm/a.hpp", 6);
  REQUIRE(at.has_value());
  CHECK(at->file == "chapters/02-beta.md");
  CHECK(at->line == 22);
  CHECK(litbook::origin_of(origins, "llm/a.hpp", 7)->line == 23);
  CHECK_FALSE(litbook::origin_of(origins, "llm/a.hpp", 8).has_value());
  CHECK_FALSE(litbook::origin_of(origins, "llm/b.hpp", 6).has_value());
}

// ---- learner checkpoints ---------------------------------------------------

// The four checkpoints of a chapter, each a div; `skip` leaves one out
// and `replace` swaps one for other text.
std::string checkpoints_text(const std::string& skip = "",
                             const std::string& replace_kind = "",
                             const std::string& replacement = "") {
  std::map<std::string, std::string> parts = {
      {"predict", "::: prediction\nGuess the sum.\n\n::: answer\nIt is "
                  "[4]{value=sum}.\n:::\n:::\n"},
      {"experiment", "::: experiment\nTry it.\n\n1. Turn the "
                     "mask off.\n2. Compare.\n:::\n"},
      {"implement", "::: {.implement tests=\"ctest -L ch01\"}\nWrite it.\n"
                    ":::\n"},
      {"explain", "::: explain\nWhy?\n\n::: answer\nBecause.\n:::\n:::\n"},
  };
  std::string out = "Text.\n\n";
  for (const char* k : {"predict", "experiment", "implement", "explain"}) {
    if (k == skip) continue;
    out += (k == replace_kind ? replacement : parts[k]) + "\n";
  }
  return out;
}

TEST_CASE("a chapter with checkpoints needs all four, each well formed",
          "[tool][checkpoints]") {
  Project p;
  p.book({"01-alpha"});
  std::string text, message;
  SECTION("one of the four is missing") {
    text = checkpoints_text("explain");
    message = "chapters/01-alpha.md:13: checkpoints: this chapter has some "
              "but lacks explain (a chapter with checkpoints has all four: "
              "predict, experiment, implement, explain)";
  }
  SECTION("a prediction's answer that quotes no checked value") {
    text = checkpoints_text("", "predict",
                            "::: prediction\nGuess.\n\n::: answer\nFour."
                            "\n:::\n:::\n");
    message = "chapters/01-alpha.md:13: the prediction's answer must quote "
              "the demo: put a checked value [x]{value=NAME} in it";
  }
  SECTION("an experiment without steps") {
    text = checkpoints_text("", "experiment",
                            "::: experiment\nJust try.\n:::\n");
    message = "chapters/01-alpha.md:21: an experiment needs a list of steps "
              "(one list item per step)";
  }
  SECTION("implement without its test command") {
    text = checkpoints_text("", "implement", "::: implement\nDo.\n:::\n");
    message = "chapters/01-alpha.md:28: an implement checkpoint needs "
              "tests=\"COMMAND\" (the one command that runs its tests)";
  }
  SECTION("explain without a model answer") {
    text = checkpoints_text("", "explain", "::: explain\nWhy?\n:::\n");
    message = "chapters/01-alpha.md:32: an explain checkpoint needs a model "
              "answer (add a '::: answer' div inside it)";
  }
  SECTION("a prediction left open holds the other three") {
    text = checkpoints_text("", "predict",
                            "::: prediction\nGuess the sum.\n\n::: answer\n"
                            "It is [4]{value=sum}.\n:::\n");
    message = "chapters/01-alpha.md:20: an experiment block inside the predict "
              "block of line 13: close that one with ':::' first";
  }
  SECTION("two of one kind") {
    text = checkpoints_text() + "::: {.implement tests=\"x\"}\nAgain.\n:::\n";
    message = "chapters/01-alpha.md:40: a second implement checkpoint (the "
              "first is at line 28); a chapter has one of each";
  }
  p.chapter("01-alpha", text);
  auto r = fails(p, {"tangle"});
  REQUIRE_THAT(r.err, HasLine(message));
}

// ---- the end of a chapter: self-check questions and failure modes ---------

const char* const kSelfCheck =
    "::: self-check\n"
    "1. Why?\n\n   ::: answer\n   Because.\n   :::\n\n"
    "2. How much?\n\n   ::: answer\n   Four.\n   :::\n"
    ":::\n";
const char* const kFailureModes =
    "::: failure-modes\n"
    "- **Off by one.** The last row is all zeros.\n"
    "- **Axes swapped.** Columns sum to 1, rows do not.\n"
    ":::\n";

TEST_CASE("self-check questions and failure modes: each malformed one is "
          "reported at its line", "[tool][checkpoints]") {
  Project p;
  p.book({"01-alpha"});
  // The front matter takes lines 1-10, "Text." is line 11, the first
  // block opens on line 13; kSelfCheck is 13 lines long.
  std::string text, message;
  SECTION("self-check questions without failure modes") {
    text = std::string("Text.\n\n") + kSelfCheck;
    message = "chapters/01-alpha.md:13: a chapter that ends with self-check "
              "questions also needs a '::: failure-modes' list";
  }
  SECTION("failure modes without self-check questions") {
    text = std::string("Text.\n\n") + kFailureModes;
    message = "chapters/01-alpha.md:13: a chapter that ends with failure "
              "modes also needs '::: self-check' questions";
  }
  SECTION("a question without an answer") {
    text = std::string("Text.\n\n::: self-check\n1. Why?\n\n   ::: answer\n"
                       "   Because.\n   :::\n\n2. And?\n:::\n\n") +
           kFailureModes;
    message = "chapters/01-alpha.md:13: self-check question 2 needs one "
              "'::: answer' div, last in its item (found 0)";
  }
  SECTION("questions as a bulleted list") {
    text = std::string("Text.\n\n::: self-check\n- Why?\n- And?\n:::\n\n") +
           kFailureModes;
    message = "chapters/01-alpha.md:13: self-check holds one numbered list "
              "(found 1 of the other kind)";
  }
  SECTION("one failure mode") {
    text = std::string("Text.\n\n") + kSelfCheck +
           "\n::: failure-modes\n- **Off by one.** Zeros.\n:::\n";
    message = "chapters/01-alpha.md:27: failure-modes needs at least 2 items "
              "(found 1)";
  }
  SECTION("a failure mode without its name") {
    text = std::string("Text.\n\n") + kSelfCheck +
           "\n::: failure-modes\n- **Off by one.** Zeros.\n- Rows sum to 3."
           "\n:::\n";
    message = "chapters/01-alpha.md:27: failure mode 2 must begin with its "
              "name in bold (**Name.**), then say how it shows in the numbers";
  }
  SECTION("two self-checks") {
    text = std::string("Text.\n\n") + kSelfCheck + "\n" + kFailureModes +
           "\n" + kSelfCheck;
    message = "chapters/01-alpha.md:32: a second self-check block (the first "
              "is at line 13); a chapter ends with one";
  }
  p.chapter("01-alpha", text);
  auto r = check_fails(p);
  REQUIRE_THAT(r.err, HasLine(message));
}

TEST_CASE("book.yaml's require: makes every chapter have the checkpoints "
          "and the chapter end", "[tool][checkpoints][book]") {
  Project p;
  p.book({"01-alpha", "02-beta"});
  std::string full = checkpoints_text() + kSelfCheck + "\n" + kFailureModes;
  p.chapter("01-alpha", full);
  p.outputs("01-alpha", "", "{\"sum\": {\"kind\": \"number\", \"value\": \"4\"}}\n");
  p.chapter("02-beta", "Text.\n");
  SECTION("without require: a chapter without them passes") {
    check_passes(p);
  }
  SECTION("require: checkpoints") {
    p.write("book/book.yaml", "require: [checkpoints]\n" +
                                  book_yaml({"01-alpha", "02-beta"}));
    auto r = check_fails(p);
    CHECK_THAT(r.err, HasLine("chapters/02-beta.md:1: book/book.yaml requires "
                              "the four learner checkpoints in every chapter; "
                              "this one lacks predict, experiment, implement, "
                              "explain (chapters/README.md, \"Learner "
                              "checkpoints\")"));
    CHECK(r.err.find("01-alpha") == std::string::npos);
    CHECK(r.err.find("self-check") == std::string::npos);
  }
  SECTION("require: both, one chapter has only the checkpoints") {
    p.write("book/book.yaml", "require:\n  - checkpoints\n  - chapter-end\n" +
                                  book_yaml({"01-alpha", "02-beta"}));
    p.chapter("02-beta", checkpoints_text());
    p.outputs("02-beta", "", "{\"sum\": {\"kind\": \"number\", \"value\": \"4\"}}\n");
    auto r = check_fails(p);
    CHECK_THAT(r.err, HasLine("chapters/02-beta.md:1: book/book.yaml requires "
                              "self-check questions and failure modes in every "
                              "chapter; this one lacks self-check, "
                              "failure-modes (chapters/README.md, \"The end of "
                              "a chapter: self-check questions and failure "
                              "modes\")"));
  }
  SECTION("an unknown requirement") {
    p.write("book/book.yaml", "require: [exercises]\n" +
                                  book_yaml({"01-alpha", "02-beta"}));
    auto r = check_fails(p);
    CHECK_THAT(r.err, HasLine("book/book.yaml:1: require: unknown requirement "
                              "'exercises' (expected checkpoints or "
                              "chapter-end)"));
  }
}

TEST_CASE("self-check answers render collapsed under their questions",
          "[tool][checkpoints][render]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", std::string("Text.\n\n") + kSelfCheck + "\n" +
                            kFailureModes);
  const std::string html = rendered_page(p, "01-alpha");
  const PageHas has{html};
  has("<div class=\"callout self-check\" role=\"note\"><p "
      "class=\"callout-title\">Check yourself</p>\n<ol "
      "class=\"self-check-list\">\n<li><p>Why?</p>\n<details "
      "class=\"answer\"><summary>Answer</summary>\n<p>Because.</p>\n"
      "</details>\n</li>\n<li>");
  has("<div class=\"callout failure-modes\" role=\"note\"><p "
      "class=\"callout-title\">Common failure modes</p>\n<ul>\n<li><strong>"
      "Off by one.</strong> The last row is all zeros.</li>");
}

TEST_CASE("a chapter without checkpoints, or with a plain prediction box, "
          "passes", "[tool][checkpoints]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", "Text.\n\n::: prediction\nGuess.\n:::\n");
  succeeds(p, {"tangle"});
}

TEST_CASE("checkpoints render as plain text with empty slots for the "
          "progress script", "[tool][checkpoints][render]") {
  Project p;
  p.book({"01-alpha"});
  p.chapter("01-alpha", checkpoints_text());
  const std::string html = rendered_page(p, "01-alpha");
  const PageHas has{html};
  has("<div class=\"callout prediction checkpoint\" data-checkpoint=\"predict\" "
      "role=\"note\"><p class=\"callout-title\">Predict first <span "
      "class=\"checkpoint-number\">(checkpoint 1 of 4)</span></p>\n"
      "<p>Guess the sum.</p>\n"
      "<div class=\"checkpoint-entry\" data-entry=\"predict\"></div>\n"
      "<details class=\"answer checkpoint-answer\"><summary>The demo's "
      "answer</summary>\n");
  has("data-checkpoint=\"experiment\"");
  has("(checkpoint 3 of 4)</span></p>\n<p>Write it.</p>\n"
      "<p class=\"exercise-tests\">Run its tests: <code>ctest -L ch01</code>"
      "</p>\n<div class=\"checkpoint-entry\" data-entry=\"implement\">");
  has("<summary>A model answer</summary>\n<p>Because.</p>\n</details>");
  // No form control is in the page itself: without JavaScript it is text.
  CHECK(html.find("<textarea") == std::string::npos);
  CHECK(html.find("type=\"checkbox\"") == std::string::npos);
}

TEST_CASE("an answer div is one with the class answer, at its own level",
          "[tool][extract]") {
  using litbook::Json;
  const Json answer = Json::parse(
      R"({"t": "Div", "c": [["", ["answer"], []], []]})");
  const Json other_class = Json::parse(
      R"({"t": "Div", "c": [["", ["note", "answerish"], []], []]})");
  // An exercise holding an answer is not itself one.
  const Json holder = {{"t", "Div"},
                       {"c", {Json::parse(R"(["", ["exercise"], []])"),
                              Json::array({answer})}}};
  const Json para = Json::parse(R"({"t": "Para", "c": []})");
  CHECK(litbook::is_answer(answer));
  CHECK_FALSE(litbook::is_answer(other_class));
  CHECK_FALSE(litbook::is_answer(holder));
  CHECK_FALSE(litbook::is_answer(para));
  CHECK(litbook::has_answer(Json::array({para, answer})));
  CHECK_FALSE(litbook::has_answer(Json::array({para, holder})));
  CHECK_FALSE(litbook::has_answer(Json::array()));
}

TEST_CASE("a region's language is read once, by the model, and the page "
          "highlights the listing in it", "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha",
            "```{.cpp file=llm/a.hpp region=a}\nint a;\n```\n\n"
            "```{.hidden .python file=llm/a.hpp region=b}\nint b;\n```\n\n"
            "```{.hidden file=llm/a.hpp region=c}\nint c;\n```\n\n"
            "```{file=llm/a.hpp region=d}\nint d;\n```\n\n"
            "```{.text file=llm/a.hpp region=e}\nint e;\n```\n");
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  REQUIRE(ch.regions.size() == 5);
  // The first class but "hidden"; without one, C++.
  CHECK(ch.regions[0].lang == "cpp");     // .cpp
  CHECK(ch.regions[1].lang == "python");  // .hidden .python
  CHECK(ch.regions[2].lang == "cpp");     // .hidden alone
  CHECK(ch.regions[3].lang == "cpp");     // no class
  CHECK(ch.regions[4].lang == "text");    // .text
  // The writer takes the language from the model, not from the block:
  // with the model's languages changed, the listings follow them. The
  // hidden regions b and c are not written.
  for (auto& r : ch.regions) r.lang += "-model";
  std::vector<std::string> langs;
  litbook::HtmlContext ctx;
  ctx.chapter = &ch;
  ctx.highlight = [&langs](const std::string& lang, const std::string&,
                           const std::string&) {
    langs.push_back(lang);
    return std::string();
  };
  litbook::HtmlWriter w(ctx);
  w.blocks(ch.blocks);
  CHECK(langs == std::vector<std::string>{"cpp-model", "cpp-model",
                                          "text-model"});
}

TEST_CASE("a div's class and a code block's kind are the model's, found "
          "by the line of their fence", "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha", "::: note\nSee.\n:::\n\n```{.output}\nx=1\n```\n");
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  REQUIRE(ch.divs.size() == 1);
  CHECK(ch.div_at(ch.divs[0].line) == &ch.divs[0].what);
  // With the model's class changed, the page follows it, not the div's
  // attributes; with no output block in the model, the block is ordinary.
  ch.divs[0].what.name = "misconception";
  ch.divs[0].what.title = "Common misconception";
  ch.output.reset();
  const std::string html = html_from_model(ch);
  const PageHas has{html};
  has("<div class=\"callout misconception\" role=\"note\"><p class=\""
      "callout-title\">Common misconception</p>");
  has("<pre class=\"output\"><code>x=1</code></pre>");
}

TEST_CASE("a checked value is the model's, found by its span's whole "
          "range, though a number's position span starts where it does",
          "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha", "[1026]{value=a} opens the line; [7.5]{value=b} "
                        "is in it.\n");
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  REQUIRE(ch.values.size() == 2);
  for (const auto& v : ch.values) CHECK(ch.value_at(v.range) == &v);
  // The span opens its line: the simplifier's span around its number,
  // empty at column 1 of that line, starts where the value span does but
  // is not a value; nor is a range without a position.
  const litbook::SourceRange first = ch.values[0].range;
  REQUIRE(first.col == 1);
  CHECK(ch.value_at({first.line, 1, first.line, 1}) == nullptr);
  CHECK(ch.value_at({}) == nullptr);
  // With the model changed, the page follows it, not the spans'
  // attributes: each value under the model's name, the number inside the
  // first not a second checked value; a span the model lacks is the
  // author's plain span.
  ch.values[0].name = "a-model";
  ch.values.pop_back();
  const std::string html = html_from_model(ch);
  CHECK(html == "<p><span class=\"checked-value\" title=\"checked against "
                "the demo's value a-model\">1026</span> opens the line; "
                "<span value=\"b\">7.5</span> is in it.</p>\n");
}

TEST_CASE("an answer div is found through the model's class of the div",
          "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha", checkpoints_text() +
                            "::: {.exercise #ex-one}\nDo it.\n\n"
                            "::: hint\nLook.\n:::\n\n"
                            "::: answer\nDone.\n:::\n:::\n\n" + kSelfCheck +
                            "\n" + kFailureModes);
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  std::vector<litbook::DivClass*> answers, others;
  for (auto& d : ch.divs) (d.what.answer ? answers : others).push_back(&d.what);
  // The predict and explain checkpoints', the exercise's, the two
  // questions'; the four checkpoints, the exercise, the hint and the two
  // endings are not.
  REQUIRE(answers.size() == 5);
  REQUIRE(others.size() == 8);
  REQUIRE(others[5]->kind == litbook::DivKind::Plain);  // the hint
  // With the model changed, the page follows it, not the divs' classes:
  // the explain checkpoint has no answer, the hint is the exercise's
  // answer, the first question has none.
  answers[1]->answer = false;
  others[5]->answer = true;
  answers[2]->answer = false;
  answers[3]->answer = false;
  const std::string html = html_from_model(ch);
  const PageHas has{html};
  has("<div class=\"checkpoint-entry\" data-entry=\"explain\"></div>\n"
      "</div>\n");
  CHECK(html.find("A model answer") == std::string::npos);
  has("<details class=\"answer\"><summary>Answer</summary>\n<p>Look.</p>\n"
      "</details></section>");
  has("<li><p>Why?</p>\n<div class=\"answer\">\n<p>Because.</p>\n</div>\n"
      "</li>");
  has("<details class=\"answer\"><summary>Answer</summary>\n<p>Four.</p>\n");
}

TEST_CASE("a listing is written from the model's region, found by the "
          "line of its fence", "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha",
            "```{.cpp file=llm/a.hpp region=a}\nint a;\n// <<slot>>\n```\n\n"
            "```{.cpp fill=slot region=b}\nint b;\n```\n\n"
            "```{.cpp revise=a}\nint a2;\n```\n\n"
            "```{.cpp revise=a}\nint a3;\n```\n\n"
            "```{.cpp .hidden file=llm/a.hpp region=h}\nint h;\n```\n");
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  REQUIRE(ch.regions.size() == 5);
  // Each region at the line of its fence; no other line has one.
  for (const auto& r : ch.regions) CHECK(ch.region_at(r.line) == &r);
  CHECK(ch.region_at(ch.regions[0].line + 1) == nullptr);
  // The model changed after reading: the page follows it, not the block's
  // attributes. The two revisions of `a` are told apart by position.
  ch.regions[0].file = "llm/model.hpp";
  ch.regions[1].fill = "model-slot";
  ch.regions[2].code = "int a2_model;";
  ch.regions[3].code = "int a3_model;";
  ch.regions[4].hidden = false;
  ch.regions[4].name = "h-model";
  std::vector<std::string> codes;
  litbook::HtmlContext ctx;
  ctx.chapter = &ch;
  ctx.highlight = [&codes](const std::string& lang, const std::string& code,
                           const std::string&) {
    if (lang != "diff") codes.push_back(code);
    return std::string();
  };
  litbook::HtmlWriter w(ctx);
  const std::string html = w.blocks(ch.blocks);
  CHECK(html.find("<span class=\"listing-file\">llm/model.hpp</span>") !=
        std::string::npos);
  CHECK(html.find("fills <code>model-slot</code>") != std::string::npos);
  CHECK(html.find("fills <code>slot</code>") == std::string::npos);
  CHECK(html.find("id=\"region-h-model\"") != std::string::npos);
  CHECK(codes == std::vector<std::string>{"int a;\n// <<slot>>", "int b;",
                                          "int a2_model;", "int a3_model;",
                                          "int h;"});
  // The model's hidden, too: region b hidden there leaves its listing out.
  ch.regions[1].hidden = true;
  litbook::HtmlWriter again(ctx);
  CHECK(again.blocks(ch.blocks).find("id=\"region-b\"") == std::string::npos);
}

TEST_CASE("a table's or exercise's number, an exercise's title and tests, "
          "a workbench's name and a checkpoint's tests are the model's, "
          "found by the line of their div", "[tool][extract][render]") {
  Project p;
  p.chapter("01-alpha", R"md(::: {#table-sizes caption="Sizes"}
| a | b |
|---|---|
| x | y |
:::

::: {.exercise #ex-one title="First"}
Do it.

::: answer
Done.
:::
:::

::: {.exercise #ex-two title="Second"}
Again.

::: answer
Done.
:::
:::

::: {.workbench name=attn}
Try it.
:::

)md" + checkpoints_text());
  litbook::Chapter ch =
      litbook::load_chapter(p.dir() / "chapters" / "01-alpha.md");
  REQUIRE(ch.numbered.size() == 3);
  for (const auto& n : ch.numbered) CHECK(ch.numbered_at(n.line) == &n);
  // The writer does not count along with the model: in another order,
  // each div still gets its own number.
  std::reverse(ch.numbered.begin(), ch.numbered.end());
  ch.numbered[0].label = "Exercise 1.2-model";
  REQUIRE(ch.numbered[1].title == "First");
  ch.numbered[1].title = "First-model";
  ch.numbered[1].tests = "ctest -R model";
  REQUIRE(ch.workbenches.size() == 1);
  ch.workbenches[0].name = "attn-model";
  ch.workbenches[0].anchor = "wb-model";
  REQUIRE(ch.checkpoints.size() == 4);
  REQUIRE(ch.checkpoints[2].kind == "implement");
  CHECK(ch.checkpoints[2].tests == "ctest -L ch01");
  CHECK_FALSE(ch.checkpoints[0].tests.has_value());
  ch.checkpoints[2].tests = "ctest -L model";
  const std::string html = html_from_model(ch);
  const PageHas has{html};
  has("<caption><span class=\"item-number\">Table 1.1.</span> Sizes</caption>");
  has("<section class=\"exercise\" id=\"ex-one\"><h3>Exercise 1.1: "
      "First-model</h3>");
  has("Run its tests: <code>ctest -R model</code>");
  has("<section id=\"wb-model\" class=\"workbench\" "
      "data-workbench=\"attn-model\"");
  has("<script src=\"workbench/attn-model.js\" defer>");
  has("checkpoint 3 of 4)</span></p>\n<p>Write it.</p>\n<p class=\"exercise-"
      "tests\">Run its tests: <code>ctest -L model</code>");
  has("<section class=\"exercise\" id=\"ex-two\"><h3>Exercise 1.2-model: "
      "Second");
}
