#include "bookio/bookio.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace book {

namespace {

namespace fs = std::filesystem;

// The output directory, or empty when the demo runs on its own.
const std::string& out_dir() {
  static const std::string dir = [] {
    const char* env = std::getenv("LITBOOK_OUT");
    return std::string(env ? env : "");
  }();
  return dir;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string full_precision(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void append_value(std::string_view key, std::string_view kind,
                  std::string_view field, std::string_view text) {
  if (out_dir().empty()) return;
  std::ofstream out(fs::path(out_dir()) / "values.jsonl", std::ios::app);
  out << "{\"name\":" << json_string(key) << ",\"kind\":" << json_string(kind)
      << ",\"" << field << "\":" << json_string(text) << "}\n";
  if (!out) throw std::runtime_error("bookio: cannot write values.jsonl");
}

void write_output(const std::string& relative, const std::string& bytes) {
  if (out_dir().empty()) return;
  fs::path path = fs::path(out_dir()) / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("bookio: cannot write " + relative);
}

void check_name(std::string_view what, std::string_view name) {
  bool ok = !name.empty();
  for (char c : name) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.');
  }
  if (!ok) {
    throw std::invalid_argument("bookio: invalid " + std::string(what) +
                                " name '" + std::string(name) + "'");
  }
}

}  // namespace

// The conversion of a format holding exactly one, e.g. 'f' in "%.10f";
// 0 if there is none or more than one ("%%" is not a conversion).
char conversion_of(const char* format) {
  char found = 0;
  for (const char* p = format; *p; ++p) {
    if (*p != '%') continue;
    if (p[1] == '%') { ++p; continue; }
    if (found) return 0;
    ++p;
    while (*p && std::strchr("-+ #0123456789.*", *p)) ++p;
    if (!*p) return 0;
    found = *p;
  }
  return found;
}

std::string fmt(const char* format, double v) {
  // A double through %x or %d is undefined behaviour (it printed garbage
  // that differed between -O0 and -O2), so only floating conversions pass.
  const char c = conversion_of(format);
  if (c == 0 || !std::strchr("fFeEgGaA", c)) {
    throw std::invalid_argument(std::string("book::fmt: format '") + format +
                                "' must hold one conversion of a double "
                                "(%f, %e, %g or %a)");
  }
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

void publish(std::string_view key, double value) {
  check_name("value", key);
  append_value(key, "number", "value", full_precision(value));
}

void publish(std::string_view key, std::string_view text) {
  check_name("value", key);
  append_value(key, "text", "text", text);
}

void show(std::string_view key, double value) {
  publish(key, value);
  std::printf("%.*s=%s\n", static_cast<int>(key.size()), key.data(),
              fixed(value).c_str());
}

void show_integer(std::string_view key, std::int64_t value) {
  check_name("value", key);
  append_value(key, "integer", "value", std::to_string(value));
  std::printf("%.*s=%lld\n", static_cast<int>(key.size()), key.data(),
              static_cast<long long>(value));
}

void show(std::string_view key, std::string_view text) {
  publish(key, text);
  std::printf("%.*s=%.*s\n", static_cast<int>(key.size()), key.data(),
              static_cast<int>(text.size()), text.data());
}

void line(std::string_view text) {
  std::printf("%.*s\n", static_cast<int>(text.size()), text.data());
}

Cell head(std::string text) { return Cell{std::move(text), true}; }
Cell number(double v, int decimals) { return Cell{fixed(v, decimals), false}; }
Cell text(std::string text) { return Cell{std::move(text), false}; }

void table(std::string_view name, const Table& t) {
  check_name("table", name);
  std::string j = "{\n \"caption\": " + json_string(t.caption) +
                  ",\n \"note\": " + json_string(t.note) +
                  ",\n \"columns\": [";
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    j += (i ? ", " : "") + json_string(t.columns[i]);
  }
  j += "],\n \"rows\": [";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    j += r ? ",\n  [" : "\n  [";
    for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
      const Cell& cell = t.rows[r][c];
      j += (c ? ", " : "");
      j += "{\"text\": " + json_string(cell.text) +
           ", \"header\": " + (cell.header ? "true" : "false") +
           ", \"classes\": " + json_string(cell.classes) +
           ", \"mark\": " + json_string(cell.mark) + "}";
    }
    j += "]";
  }
  j += "\n ]\n}\n";
  write_output("tables/" + std::string(name) + ".json", j);
}

void figure_svg(std::string_view name, std::string_view svg) {
  check_name("figure", name);
  write_output("figures/" + std::string(name) + ".svg", std::string(svg));
}

void figure(std::string_view name, const Plot& plot) {
  figure_svg(name, to_svg(plot));
}

bool quick() {
  const char* env = std::getenv("BOOK_QUICK");
  return env != nullptr && std::string_view(env) == "1";
}

void trace(std::string_view line) {
  if (line.find('\n') != std::string_view::npos) {
    throw std::runtime_error("bookio: trace: a trace line holds no newline");
  }
  if (out_dir().empty()) return;
  std::ofstream out(fs::path(out_dir()) / "trace.txt", std::ios::app);
  out << line << '\n';
  if (!out) throw std::runtime_error("bookio: cannot write trace.txt");
}

void artifact(std::string_view name, std::string_view bytes) {
  check_name("artifact", name);
  write_output("artifacts/" + std::string(name), std::string(bytes));
}

std::string output_path(std::string_view stem, std::string_view file) {
  const char* env = std::getenv("BOOK_OUTPUTS");
  std::string what = std::string(stem) + "/" + std::string(file);
  if (env == nullptr || *env == '\0') {
    throw std::runtime_error(
        "output_path: the environment variable BOOK_OUTPUTS is not set, so "
        "the output " + what + " of another demo cannot be found; the build "
        "sets it to build/out when it runs a demo");
  }
  fs::path path = fs::path(env) / std::string(stem) / std::string(file);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(
        "output_path: " + path.string() + " cannot be opened for reading; "
        "does the front matter's demo.reads name " + std::string(stem) +
        ", and did its demo publish " + std::string(file) + "?");
  }
  return path.string();
}

std::string corpus_path() {
  const char* env = std::getenv("BOOK_CORPUS");
  if (env == nullptr || *env == '\0') {
    throw std::runtime_error(
        "corpus_path: the environment variable BOOK_CORPUS is not set; "
        "the build sets it when it runs a demo (cmake --build build), or "
        "set it to the extracted corpus, build/corpus/kjv.txt");
  }
  std::ifstream in(env, std::ios::binary);
  if (!in) {
    throw std::runtime_error(
        std::string("corpus_path: BOOK_CORPUS is '") + env +
        "', which cannot be opened for reading; build the corpus with "
        "cmake --build build --target corpus");
  }
  return env;
}

}  // namespace book
