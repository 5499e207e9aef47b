// bookio: how a chapter's demo publishes what the book quotes.
//
// A demo prints a report of key=value lines to stdout and publishes named
// values, tables and figures. When the environment variable LITBOOK_OUT
// names a directory (the build sets it), they are written there:
//   values.jsonl       one JSON object per published value
//   tables/NAME.json   one file per table
//   figures/NAME.svg   one file per figure
//   artifacts/NAME     files for later demos (a trained model)
//   trace.txt          one line per step of a long demo (book::trace)
// Without LITBOOK_OUT a demo only prints, so a reader can run it directly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bookio/fixed.hpp"

namespace book {

/// One number through printf's `format` (one conversion of a double):
/// fmt("%g", 0.5) is "0.5", fmt("%.1e", 1.5e-7) is "1.5e-07".
std::string fmt(const char* format, double v);

/// Prints "key=value" (six decimals) and publishes the full-precision value.
void show(std::string_view key, double value);
/// Prints "key=value" and publishes the integer.
void show_integer(std::string_view key, std::int64_t value);
/// Prints "key=text" and publishes the text.
void show(std::string_view key, std::string_view text);
inline void show(std::string_view key, const char* text) {
  show(key, std::string_view(text));
}
template <typename I>
  requires std::is_integral_v<I> && (!std::is_same_v<I, bool>)
void show(std::string_view key, I value) {
  show_integer(key, static_cast<std::int64_t>(value));
}
inline void show(std::string_view key, bool value) {
  show(key, std::string_view(value ? "true" : "false"));
}

/// Publishes a value without printing it.
void publish(std::string_view key, double value);
void publish(std::string_view key, std::string_view text);

/// Prints one line as it is (a heading or a blank line in the report).
void line(std::string_view text = "");

/// One table cell. `classes` are CSS classes ("blocked", "diagonal"); a
/// `mark` is a visible symbol for readers who cannot see colour.
struct Cell {
  std::string text;
  bool header = false;
  std::string classes = {};
  std::string mark = {};
};

/// A table: a caption, column headings, and rows of cells. A row's first
/// cell is usually a header cell (the row label).
struct Table {
  std::string caption;
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::string note = {};
};

/// Cell helpers.
Cell head(std::string text);
Cell number(double v, int decimals = 6);
Cell text(std::string text);

/// Publishes a table as tables/NAME.json.
void table(std::string_view name, const Table& t);

/// One line of a plot.
struct Series {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
};

/// A line plot, optionally with logarithmic axes.
struct Plot {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  std::vector<Series> series;
};

/// Renders a plot as a standalone SVG document.
std::string to_svg(const Plot& plot);

/// Publishes a plot as figures/NAME.svg.
void figure(std::string_view name, const Plot& plot);

/// Publishes a ready SVG document as figures/NAME.svg.
void figure_svg(std::string_view name, std::string_view svg);

/// True when the build runs this demo quick (BOOK_QUICK=1): a demo whose
/// front matter says demo.quick then does only its first steps, and the
/// build checks that their trace is a prefix of the full run's.
bool quick();

/// Appends one line (no newline in it) to trace.txt: for a long demo, one
/// line per step with the step's numbers as exact bits (fmt("%a", x)).
void trace(std::string_view line);

/// Publishes a file as artifacts/NAME (for example a trained model), for
/// later demos to read through output_path.
void artifact(std::string_view name, std::string_view bytes);

/// The path of `file` (e.g. "artifacts/model.params") that the demo of
/// chapter `stem` published, under the directory in BOOK_OUTPUTS (set by
/// the build). Throws std::runtime_error when the variable is unset or
/// the file cannot be opened; the chapter's front matter must list `stem`
/// in demo.reads so that the build runs that demo first.
std::string output_path(std::string_view stem, std::string_view file);

/// The path of the book's corpus file (build/corpus/kjv.txt), from the
/// environment variable BOOK_CORPUS that the build sets when it runs a
/// demo. Throws std::runtime_error when the variable is unset or empty
/// or the file cannot be opened for reading.
std::string corpus_path();

}  // namespace book
