#include "demo.hpp"

#include <unistd.h>

#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace litbook {

namespace {

using Json = nlohmann::json;

std::map<std::string, std::string> tree_bytes(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) {
      out[e.path().lexically_relative(dir).generic_string()] =
          read_file(e.path());
    }
  }
  return out;
}

std::string tail(const std::string& text, std::size_t n = 800) {
  std::string t = text.size() > n ? "..." + text.substr(text.size() - n) : text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

// values.jsonl (one object a line, as the demo published them) to one JSON
// object keyed by name; a name published twice with different values is
// an error.
Json collect_values(const std::string& jsonl, const Location& where) {
  Json values = Json::object();
  for (const auto& line : split_lines(jsonl)) {
    if (line.empty()) continue;
    Json v = Json::parse(line);
    std::string name = v["name"];
    v.erase("name");
    if (values.contains(name) && values[name] != v) {
      throw Failure(where, "the demo published value '" + name +
                               "' twice with different values");
    }
    values[name] = v;
  }
  return values;
}

struct Run {
  ProcessResult process;
  std::map<std::string, std::string> files;
};

Run run_once(const DemoOptions& o, const fs::path& dir, bool quick) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  ProcessOptions p;
  p.timeout = o.timeout;
  p.max_output = o.max_output;
  p.env = {{"LITBOOK_OUT", fs::absolute(dir).string()},
           {"BOOK_QUICK", quick ? "1" : "0"}};
  Run run;
  std::string name = o.exe.filename().string();
  run.process = run_process({fs::absolute(o.exe).string()}, p);
  const auto& r = run.process;
  if (r.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", o.timeout.count() / 1000.0);
    throw Failure(o.chapter, "demo " + name + " did not finish within " +
                                 seconds + " s (killed)");
  }
  if (r.output_too_large) {
    throw Failure(o.chapter, "demo " + name + " printed more than " +
                                 std::to_string(o.max_output) +
                                 " bytes (killed)");
  }
  if (r.exit_code != 0) {
    std::string how = r.exit_code > 128
                          ? "was killed by signal " +
                                std::to_string(r.exit_code - 128)
                          : "exited with status " + std::to_string(r.exit_code);
    throw Failure(o.chapter, "demo " + name + " " + how +
                                 (r.err.empty() ? "" : ":\n" + tail(r.err)));
  }
  run.files = tree_bytes(dir);
  std::size_t total = r.out.size();
  for (const auto& [f, bytes] : run.files) total += bytes.size();
  if (total > o.max_output) {
    throw Failure(o.chapter, "demo " + name + " wrote more than " +
                                 std::to_string(o.max_output) + " bytes");
  }
  return run;
}

// The quick run's trace must be a non-empty prefix, line by line, of the
// full run's: the same first steps, bit for bit.
void check_quick_trace(const DemoOptions& o, const Run& full, const Run& quick) {
  std::string name = o.exe.filename().string();
  auto find = [](const Run& r) {
    auto it = r.files.find("trace.txt");
    return it == r.files.end() ? std::string() : it->second;
  };
  std::string a = find(full), b = find(quick);
  if (b.empty()) {
    throw Failure(o.chapter, "demo " + name + " is quick (front matter "
                             "demo.quick) but its quick run (BOOK_QUICK=1) "
                             "traced nothing (book::trace)");
  }
  auto x = split_lines(a), y = split_lines(b);
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (i >= x.size() || x[i] != y[i]) {
      throw Failure(o.chapter,
                    "demo " + name + " is not deterministic: its quick run's "
                    "trace differs from the full run's at line " +
                        std::to_string(i + 1) + ": '" +
                        (i < x.size() ? x[i] : "<end>") + "' then '" + y[i] +
                        "'");
    }
  }
}

std::string first_line_difference(const std::string& a, const std::string& b) {
  auto x = split_lines(a), y = split_lines(b);
  for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
    std::string l = i < x.size() ? x[i] : "<end>";
    std::string r = i < y.size() ? y[i] : "<end>";
    if (l != r) {
      return "line " + std::to_string(i + 1) + ": '" + l + "' then '" + r + "'";
    }
  }
  return "the bytes differ";
}

// Runs after the first must print and publish the same as the first.
void check_runs_agree(const DemoOptions& o, const std::vector<Run>& runs) {
  std::string name = o.exe.filename().string();
  for (std::size_t i = 1; o.quick && i < runs.size(); ++i) {
    check_quick_trace(o, runs[0], runs[i]);
  }
  for (std::size_t i = 1; !o.quick && i < runs.size(); ++i) {
    if (runs[i].process.out != runs[0].process.out) {
      throw Failure(o.chapter,
                    "demo " + name + " is not deterministic: two runs printed "
                    "different output, " +
                        first_line_difference(runs[0].process.out,
                                              runs[i].process.out));
    }
    if (runs[i].files != runs[0].files) {
      throw Failure(o.chapter, "demo " + name + " is not deterministic: two "
                               "runs published different values, tables or "
                               "figures");
    }
  }
}

// The output directory of one run: stdout, values, tables, figures,
// artifacts and trace.
void write_outputs(const DemoOptions& o, const Run& run, const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_atomic(dir / "stdout.txt", run.process.out);
  std::string jsonl;
  for (const auto& [file, bytes] : run.files) {
    if (file == "values.jsonl") {
      jsonl = bytes;
    } else if (file.rfind("tables/", 0) == 0 ||
               file.rfind("figures/", 0) == 0 ||
               file.rfind("artifacts/", 0) == 0 || file == "trace.txt") {
      write_atomic(dir / file, bytes);
    }
  }
  write_atomic(dir / "values.json",
               collect_values(jsonl, o.chapter).dump(1) + "\n");
}

// Puts `fresh` in the place of `base` unless its contents are the same.
// The digest changes only when an output does, so the steps after this
// one (check, render) rerun only then.
void replace_if_changed(const fs::path& base, const fs::path& fresh,
                        const std::string& suffix) {
  std::string all;
  for (const auto& [file, bytes] : tree_bytes(fresh)) {
    all += file + '\0' + hash_hex(bytes) + '\n';
  }
  fs::path digest = base.string() + ".digest";
  std::string old_digest = read_file_if_exists(digest).value_or("");
  if (old_digest == all && fs::exists(base)) {
    fs::remove_all(fresh);
    return;
  }
  fs::path old = base.string() + suffix + "-old";
  if (fs::exists(base)) fs::rename(base, old);
  fs::rename(fresh, base);
  fs::remove_all(old);
  write_atomic(digest, all);
}

}  // namespace

void run_demo(const DemoOptions& o) {
  std::string suffix = ".run-" + std::to_string(::getpid());
  fs::path base = o.out;
  std::vector<fs::path> dirs;
  auto clean = [&dirs] {
    for (const auto& d : dirs) fs::remove_all(d);
  };
  try {
    std::vector<Run> runs;
    for (int i = 0; i < o.runs; ++i) {
      dirs.push_back(base.string() + suffix + "-" + std::to_string(i));
      runs.push_back(run_once(o, dirs.back(), o.quick && i > 0));
    }
    check_runs_agree(o, runs);
    // Assemble the final directory next to the old one, then swap.
    fs::path fresh = base.string() + suffix + "-final";
    write_outputs(o, runs[0], fresh);
    replace_if_changed(base, fresh, suffix);
  } catch (...) {
    clean();
    throw;
  }
  clean();
}

}  // namespace litbook
