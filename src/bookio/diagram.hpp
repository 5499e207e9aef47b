// diagram: small SVG drawings for the book's figures, drawn from a demo's
// own values.
//
// A Canvas collects boxes, cells, text, arrows and brackets and emits one
// standalone SVG document: role="img" with a <title> and a <desc> for
// screen readers, a viewBox and no fixed size, so that it scales to the
// page (and to a phone), and a white background, because the book shows
// figures on a light background in both themes.
//
// Three kinds of diagram are built on it; a demo fills one with values
// and publishes it with book::figure_svg(NAME, to_svg(diagram)):
//   BufferDiagram  a flat buffer as a row of cells, with jumps between
//                  cells drawn as arcs, labels under cells and brackets
//   HeadDiagram    a matrix split into per-head column blocks, each head's
//                  output, and their concatenation and output projection
//   FlowDiagram    a vertical chain of stages with a label on every arrow
//                  and residual paths that skip stages
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace book {

/// The book's drawing colours: dark ink and a muted grey for text, and
/// a strong colour and a light tint per series (tint behind dark text).
namespace colour {
inline constexpr const char* ink = "#111827";
inline constexpr const char* muted = "#4b5563";
inline constexpr const char* line = "#6b7280";
inline constexpr const char* neutral = "#f3f4f6";
/// Strong colours, for lines and outlines; series k uses strong[k % 4].
inline constexpr const char* strong[] = {"#1d4ed8", "#c2410c", "#15803d",
                                         "#7e22ce"};
/// Light tints of the same hues, for cell backgrounds.
inline constexpr const char* tint[] = {"#dbeafe", "#ffedd5", "#dcfce7",
                                       "#f3e8ff"};
}  // namespace colour

/// How a shape is filled and outlined ("none" for no fill).
struct Paint {
  std::string fill = "none";
  std::string stroke = colour::ink;
  double width = 1;
};

/// How text is set: size in user units, anchor "start", "middle" or
/// "end", colour, weight.
struct Font {
  double size = 12;
  std::string anchor = "middle";
  std::string fill = colour::ink;
  bool bold = false;
};

/// A drawing surface of a fixed size in user units.
class Canvas {
public:
  Canvas(double width, double height, std::string title, std::string desc);

  /// A rectangle with its top left corner at (x, y).
  void rect(double x, double y, double w, double h, const Paint& paint);
  /// A circle centred at (cx, cy).
  void circle(double cx, double cy, double r, const Paint& paint);
  /// A straight line.
  void line(double x1, double y1, double x2, double y2,
            const Paint& paint = {});
  /// Text whose baseline starts, centres or ends at (x, y). "V_{0}" sets
  /// the part in braces as a subscript; everything else is literal.
  void text(double x, double y, std::string_view s, const Font& font = {});
  /// A straight arrow from (x1, y1) to the tip (x2, y2).
  void arrow(double x1, double y1, double x2, double y2,
             const std::string& stroke = colour::ink);
  /// An arrow along a path of corners, with its tip at the last point.
  void path_arrow(const std::vector<std::pair<double, double>>& points,
                  const std::string& stroke = colour::ink);
  /// A curved arrow from (x1, y) to (x2, y) that rises `height` above y.
  void arc(double x1, double x2, double y, double height,
           const std::string& stroke = colour::ink);
  /// A bracket under the interval [x1, x2] at height y, ticks pointing up.
  void bracket(double x1, double x2, double y, double tick = 6);

  /// The SVG document.
  std::string svg() const;

private:
  void arrowhead(double x, double y, double dx, double dy,
                 const std::string& fill);

  double width_, height_;
  std::string title_, desc_;
  std::string body_;
};

/// A jump from one buffer cell to another, drawn as an arc above them.
struct BufferJump {
  std::size_t from = 0, to = 0;
  std::string label = {};
};

/// A label under one cell (an element's index); the cell is outlined.
struct BufferMark {
  std::size_t at = 0;
  std::string label = {};
};

/// A bracket under the cells first..last, with a label; level 0 is the
/// bracket nearest the cells.
struct BufferSpan {
  std::size_t first = 0, last = 0;
  std::string label = {};
  std::size_t level = 0;
};

/// A flat buffer drawn as one row of cells holding `cells` (for example
/// their positions), shaded alternately in runs of `band` cells.
struct BufferDiagram {
  std::string title;
  std::string desc = {};
  std::vector<std::string> cells = {};
  std::size_t band = 1;
  std::vector<BufferJump> jumps = {};
  std::vector<BufferMark> marks = {};
  std::vector<BufferSpan> spans = {};
};

/// Renders a buffer diagram. Throws std::invalid_argument when a jump,
/// mark or span names a cell that does not exist.
std::string to_svg(const BufferDiagram& d);

/// A matrix of rows x cols numbers in row-major order, with a label set
/// above it ("V_{0}"); its numbers are drawn with two decimals.
struct Matrix {
  std::string label;
  std::size_t rows = 0, cols = 0;
  std::vector<double> values = {};
};

/// Multi-head attention's split and merge: `input` [T, d] has its
/// columns coloured by head; each head's slice `heads_in[i]` [T, d / h]
/// becomes `heads_out[i]` [T, d / h]; `concat` [T, d] puts them side by
/// side, and `out` [T, d] is concat times the output projection.
struct HeadDiagram {
  std::string title;
  std::string desc = {};
  Matrix input = {};
  std::vector<Matrix> heads_in = {};
  std::vector<Matrix> heads_out = {};
  Matrix concat = {};
  Matrix out = {};
  std::string split_label = "split_heads";
  std::string attend_label = "attend";
  std::string merge_label = "merge_heads";
  std::string project_label = "× W_{O}";
};

/// Renders a head diagram. Throws std::invalid_argument unless there is
/// at least one head, every matrix holds rows x cols values, the heads'
/// widths add up to the input's, and all matrices have the same rows.
std::string to_svg(const HeadDiagram& d);

/// One stage of a flow diagram: a box (or a circled + for an addition)
/// with a note beside it, and `edge`, the label of the arrow leaving it.
/// A stage with `skip_from` = k also receives a residual arrow that
/// leaves stage k's outgoing arrow and bypasses the stages between.
struct FlowStage {
  std::string label;
  std::string note = {};
  std::string edge = {};
  bool add = false;
  int skip_from = -1;
};

/// A vertical chain of stages, top to bottom.
struct FlowDiagram {
  std::string title;
  std::string desc = {};
  std::vector<FlowStage> stages = {};
  std::string skip_label = "residual";
};

/// Renders a flow diagram. Throws std::invalid_argument when a skip does
/// not come from an earlier stage or there are no stages.
std::string to_svg(const FlowDiagram& d);

}  // namespace book
