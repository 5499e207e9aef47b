#include "bookio/bookio.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

std::string fmt(const char* format, double v) {
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) {
    s.erase(0, 1);
  }
  return s;
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
