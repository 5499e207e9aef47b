// The three kinds of diagram of diagram.hpp, laid out on a Canvas. Each
// layout computes its geometry from the data, so a demo gives values and
// labels and never a coordinate.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "bookio/bookio.hpp"
#include "bookio/diagram.hpp"

namespace book {

namespace {

constexpr double kMargin = 20;

// A rough width of a label in a sans-serif font: enough to keep labels
// apart, not to typeset them.
double text_width(std::string_view s, double size) {
  return 0.6 * size * static_cast<double>(s.size());
}

std::string count(std::size_t n) { return std::to_string(n); }

// ---------------------------------------------------------------------
// BufferDiagram: arcs above a row of cells, labels and brackets below.

constexpr double kCellW = 26, kCellH = 28, kMarkRow = 15, kSpanRow = 30;

double cell_centre(std::size_t i) {
  return kMargin + (static_cast<double>(i) + 0.5) * kCellW;
}

// Arcs over longer jumps rise higher, so that nested labels separate.
double arc_height(std::size_t from, std::size_t to) {
  const double cells = std::fabs(static_cast<double>(to) - double(from));
  return 12 + 14 * std::log2(1.0 + cells);
}

void check_cell(std::size_t i, std::size_t n, const char* what) {
  if (i >= n) {
    throw std::invalid_argument("book::to_svg: buffer " + std::string(what) +
                                " names cell " + count(i) +
                                ", but the buffer has " + count(n) +
                                " cells");
  }
}

// The row below the cells of each mark: the first whose labels so far
// end left of this one, visiting the marks from left to right.
std::vector<std::size_t> mark_levels(const std::vector<BufferMark>& marks) {
  std::vector<std::size_t> order(marks.size()), level(marks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
    return marks[a].at < marks[b].at;
  });
  std::vector<double> right;  // right end of the last label on each row
  for (std::size_t i : order) {
    const double half = text_width(marks[i].label, 11) / 2 + 4;
    const double x = cell_centre(marks[i].at);
    std::size_t l = 0;
    while (l < right.size() && right[l] > x - half) ++l;
    if (l == right.size()) right.push_back(0);
    right[l] = x + half;
    level[i] = l;
  }
  return level;
}

// Jumps of the same distance share a colour: one colour per stride.
void draw_jumps(Canvas& c, const BufferDiagram& d, double top) {
  std::vector<std::size_t> distances;
  for (const BufferJump& j : d.jumps) {
    const std::size_t dist = j.to > j.from ? j.to - j.from : j.from - j.to;
    auto at = std::find(distances.begin(), distances.end(), dist);
    if (at == distances.end()) at = distances.insert(at, dist);
    const char* ink = colour::strong[(at - distances.begin()) % 4];
    const double h = arc_height(j.from, j.to);
    c.arc(cell_centre(j.from), cell_centre(j.to), top, h, ink);
    c.text((cell_centre(j.from) + cell_centre(j.to)) / 2, top - h - 4,
           j.label, {.size = 11, .fill = ink, .bold = true});
  }
}

void draw_cells(Canvas& c, const BufferDiagram& d, double top) {
  const std::size_t band = std::max<std::size_t>(d.band, 1);
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    const double x = kMargin + static_cast<double>(i) * kCellW;
    c.rect(x, top, kCellW, kCellH,
           {.fill = (i / band) % 2 ? "#e5e7eb" : "#ffffff",
            .stroke = colour::line});
    c.text(x + kCellW / 2, top + kCellH / 2 + 4, d.cells[i], {.size = 11});
  }
}

// Outlines each marked cell and sets its label on its row below.
void draw_marks(Canvas& c, const BufferDiagram& d, double bottom) {
  const std::vector<std::size_t> level = mark_levels(d.marks);
  for (std::size_t i = 0; i < d.marks.size(); ++i) {
    const double x = cell_centre(d.marks[i].at);
    const double y = bottom + 14 + static_cast<double>(level[i]) * kMarkRow;
    c.rect(x - kCellW / 2, bottom - kCellH, kCellW, kCellH,
           {.stroke = colour::ink, .width = 2});
    if (level[i] > 0) c.line(x, bottom, x, y - 10, {.stroke = colour::line});
    c.text(x, y, d.marks[i].label, {.size = 11});
  }
}

// One row of brackets per level, from `top` down.
void draw_spans(Canvas& c, const BufferDiagram& d, double top) {
  for (const BufferSpan& s : d.spans) {
    const double y = top + 8 + static_cast<double>(s.level) * kSpanRow;
    const double x1 = kMargin + static_cast<double>(s.first) * kCellW + 2;
    const double x2 = kMargin + static_cast<double>(s.last + 1) * kCellW - 2;
    c.bracket(x1, x2, y);
    c.text((x1 + x2) / 2, y + 14, s.label,
           {.size = 11, .fill = colour::muted});
  }
}

}  // namespace

std::string to_svg(const BufferDiagram& d) {
  const std::size_t n = d.cells.size();
  double rise = 0;  // the highest arc with its label
  for (const BufferJump& j : d.jumps) {
    check_cell(j.from, n, "jump");
    check_cell(j.to, n, "jump");
    rise = std::max(rise, arc_height(j.from, j.to) + 18);
  }
  for (const BufferMark& m : d.marks) check_cell(m.at, n, "mark");
  std::size_t mark_rows = 0, span_rows = 0;
  for (std::size_t l : mark_levels(d.marks)) {
    mark_rows = std::max(mark_rows, l + 1);
  }
  for (const BufferSpan& s : d.spans) {
    check_cell(s.last, n, "span");
    span_rows = std::max(span_rows, s.level + 1);
  }
  // Top to bottom: arcs, cells, mark rows, bracket rows.
  const double top = 8 + rise, marks = top + kCellH + 4;
  const double spans = marks + static_cast<double>(mark_rows) * kMarkRow;
  Canvas c(2 * kMargin + static_cast<double>(n) * kCellW,
           spans + 8 + static_cast<double>(span_rows) * kSpanRow, d.title,
           d.desc);
  draw_cells(c, d, top);
  draw_marks(c, d, top + kCellH);
  draw_spans(c, d, spans);
  draw_jumps(c, d, top);
  return c.svg();
}

namespace {

// ---------------------------------------------------------------------
// HeadDiagram: three rows. The input with its columns tinted by head;
// each head's slice and its output; the concatenation and the output.

constexpr double kGridW = 46, kGridH = 22, kLabel = 16, kRowGap = 56;
constexpr double kAttendGap = 64, kHeadGap = 40, kProjectGap = 80;

double grid_width(const Matrix& m) {
  return static_cast<double>(m.cols) * kGridW;
}

// Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false
// positive) about "[" + std::string here.
std::string shape_of(const Matrix& m) {
  std::string s = "[";
  s += count(m.rows);
  s += ',';
  s += count(m.cols);
  return s + "]";
}

void check_matrix(const Matrix& m, std::size_t rows) {
  if (m.values.size() != m.rows * m.cols || m.rows != rows) {
    throw std::invalid_argument(
        "book::to_svg: matrix '" + m.label + "' is " + shape_of(m) +
        " with " + count(m.values.size()) + " values, expected " +
        count(rows) + " rows");
  }
}

// The matrix with its top left corner at (x, y) and its label and shape
// `lift` above; column j is tinted with head[j]'s colour, or grey for -1.
void draw_matrix(Canvas& c, const Matrix& m, double x, double y,
                 const std::vector<int>& head, double lift = 6) {
  c.text(x, y - lift, m.label + "  " + shape_of(m),
         {.size = 12, .anchor = "start", .bold = true});
  for (std::size_t r = 0; r < m.rows; ++r) {
    for (std::size_t j = 0; j < m.cols; ++j) {
      const int h = head[j];
      const double cx = x + static_cast<double>(j) * kGridW;
      const double cy = y + static_cast<double>(r) * kGridH;
      c.rect(cx, cy, kGridW, kGridH,
             {.fill = h < 0 ? colour::neutral : colour::tint[h % 4],
              .stroke = h < 0 ? colour::line : colour::strong[h % 4]});
      c.text(cx + kGridW / 2, cy + kGridH / 2 + 4,
             fixed(m.values[r * m.cols + j], 2), {.size = 11});
    }
  }
}

// Column j of a [T, d] matrix belongs to head j / d_h.
std::vector<int> by_head(std::size_t cols, std::size_t d_h) {
  std::vector<int> head(cols);
  for (std::size_t j = 0; j < cols; ++j) head[j] = int(j / d_h);
  return head;
}

struct HeadLayout {
  double width, row1, row2, row3;  // width, and the top of each row's grid
  double in_x, head_x, concat_x, out_x;
  double head_step;  // from one head's pair to the next
};

HeadLayout head_layout(const HeadDiagram& d) {
  const double w_in = grid_width(d.input), w_h = grid_width(d.heads_in[0]);
  const double heads = static_cast<double>(d.heads_in.size());
  const double pair = 2 * w_h + kAttendGap;
  const double row2 = heads * pair + (heads - 1) * kHeadGap;
  const double row3 = 2 * w_in + kProjectGap;
  const double width = std::max({w_in, row2, row3}) + 2 * kMargin;
  const double grid_h = static_cast<double>(d.input.rows) * kGridH;
  HeadLayout l{};
  l.width = width;
  l.row1 = kMargin + kLabel + 18;  // the head names sit above the grid
  l.row2 = l.row1 + grid_h + kRowGap + kLabel;
  l.row3 = l.row2 + grid_h + kRowGap + kLabel;
  l.in_x = (width - w_in) / 2;
  l.head_x = (width - row2) / 2;
  l.head_step = pair + kHeadGap;
  l.concat_x = (width - row3) / 2;
  l.out_x = l.concat_x + w_in + kProjectGap;
  return l;
}

// The input, with the name of each head above its columns.
void draw_input(Canvas& c, const HeadDiagram& d, const HeadLayout& l) {
  const std::size_t d_h = d.heads_in[0].cols;
  for (std::size_t i = 0; i < d.heads_in.size(); ++i) {
    const double x = l.in_x + (static_cast<double>(i) + 0.5) *
                                  static_cast<double>(d_h) * kGridW;
    c.text(x, l.row1 - 4, "head " + count(i),
           {.size = 11, .fill = colour::strong[i % 4], .bold = true});
  }
  draw_matrix(c, d.input, l.in_x, l.row1 + 2, by_head(d.input.cols, d_h),
              kLabel + 8);
}

// Row 2: each head's slice, the attend arrow, and the head's output;
// arrows from the input's columns down to each slice.
void draw_heads(Canvas& c, const HeadDiagram& d, const HeadLayout& l) {
  const double w_h = grid_width(d.heads_in[0]);
  const double grid_h = static_cast<double>(d.input.rows) * kGridH;
  const double in_bottom = l.row1 + 2 + grid_h;
  for (std::size_t i = 0; i < d.heads_in.size(); ++i) {
    const double x = l.head_x + static_cast<double>(i) * l.head_step;
    const std::vector<int> head(d.heads_in[i].cols, int(i));
    const double from = l.in_x + (static_cast<double>(i) + 0.5) * w_h;
    c.arrow(from, in_bottom + 4, x + w_h / 2, l.row2 - kLabel - 4,
            colour::strong[i % 4]);
    draw_matrix(c, d.heads_in[i], x, l.row2, head);
    const double mid = l.row2 + grid_h / 2, out = x + w_h + kAttendGap;
    c.arrow(x + w_h + 6, mid, out - 6, mid, colour::strong[i % 4]);
    c.text(x + w_h + kAttendGap / 2, mid - 6, d.attend_label, {.size = 11});
    draw_matrix(c, d.heads_out[i], out, l.row2, head);
  }
  const double mid = (in_bottom + l.row2 - kLabel) / 2;
  c.text((l.in_x + w_h / 2 + l.head_x + w_h / 2) / 2 - 20, mid,
         d.split_label, {.size = 11, .anchor = "end"});
}

// Row 3: arrows from each head's output into its columns of the
// concatenation, then the projection to the output.
void draw_merge(Canvas& c, const HeadDiagram& d, const HeadLayout& l) {
  const double w_h = grid_width(d.heads_in[0]);
  const double grid_h = static_cast<double>(d.input.rows) * kGridH;
  const double h_bottom = l.row2 + grid_h;
  for (std::size_t i = 0; i < d.heads_out.size(); ++i) {
    const double from = l.head_x + static_cast<double>(i) * l.head_step +
                        w_h + kAttendGap + w_h / 2;
    const double to = l.concat_x + (static_cast<double>(i) + 0.5) * w_h;
    c.arrow(from, h_bottom + 4, to, l.row3 - kLabel - 4,
            colour::strong[i % 4]);
  }
  const double first = l.head_x + w_h + kAttendGap + w_h / 2;
  c.text((first + l.concat_x + w_h / 2) / 2 - 20, (h_bottom + l.row3) / 2 - 8,
         d.merge_label, {.size = 11, .anchor = "end"});
  draw_matrix(c, d.concat, l.concat_x, l.row3,
              by_head(d.concat.cols, d.heads_in[0].cols));
  const double mid = l.row3 + grid_h / 2;
  const double right = l.concat_x + grid_width(d.concat);
  c.arrow(right + 6, mid, l.out_x - 6, mid);
  c.text((right + l.out_x) / 2, mid - 6, d.project_label, {.size = 11});
  draw_matrix(c, d.out, l.out_x, l.row3, std::vector<int>(d.out.cols, -1));
}

}  // namespace

std::string to_svg(const HeadDiagram& d) {
  if (d.heads_in.empty() || d.heads_out.size() != d.heads_in.size()) {
    throw std::invalid_argument("book::to_svg: a head diagram needs one "
                                "input and one output block per head");
  }
  const std::size_t rows = d.input.rows;
  std::size_t width = 0;
  for (const std::vector<Matrix>* heads : {&d.heads_in, &d.heads_out}) {
    for (const Matrix& m : *heads) check_matrix(m, rows);
  }
  for (const Matrix& m : d.heads_in) width += m.cols;
  for (const Matrix* m : {&d.input, &d.concat, &d.out}) {
    check_matrix(*m, rows);
    if (m->cols != width) {
      throw std::invalid_argument("book::to_svg: matrix '" + m->label +
                                  "' has " + count(m->cols) +
                                  " columns, the heads " + count(width));
    }
  }
  const HeadLayout l = head_layout(d);
  const double grid_h = static_cast<double>(rows) * kGridH;
  Canvas c(l.width, l.row3 + grid_h + kMargin, d.title, d.desc);
  draw_input(c, d, l);
  draw_heads(c, d, l);
  draw_merge(c, d, l);
  return c.svg();
}

namespace {

// ---------------------------------------------------------------------
// FlowDiagram: stages down a centre line, arrow labels to its right,
// residual paths in a lane to its left.

constexpr double kBoxW = 150, kBoxH = 32, kAddR = 12, kEdge = 46;
constexpr double kCentre = 230, kLane = kCentre - kBoxW / 2 - 44;

double stage_height(const FlowStage& s) { return s.add ? 2 * kAddR : kBoxH; }

// The top of each stage, and the end of the last arrow.
std::vector<double> stage_tops(const FlowDiagram& d) {
  std::vector<double> top;
  double y = kMargin;
  for (const FlowStage& s : d.stages) {
    top.push_back(y);
    y += stage_height(s) + kEdge;
  }
  top.push_back(y - (d.stages.back().edge.empty() ? kEdge : 0));
  return top;
}

void draw_stage(Canvas& c, const FlowStage& s, double top) {
  const double mid = top + stage_height(s) / 2;
  if (s.add) {
    c.circle(kCentre, mid, kAddR, {.fill = "#ffffff", .width = 1.5});
    c.line(kCentre - 6, mid, kCentre + 6, mid, {.width = 1.5});
    c.line(kCentre, mid - 6, kCentre, mid + 6, {.width = 1.5});
  } else {
    c.rect(kCentre - kBoxW / 2, top, kBoxW, kBoxH,
           {.fill = colour::neutral, .stroke = colour::line});
    c.text(kCentre, mid + 4, s.label, {.size = 12, .bold = true});
  }
  const double note_x = kCentre + (s.add ? kAddR : kBoxW / 2) + 12;
  if (!s.note.empty()) {
    c.text(note_x, mid + 4, s.note,
           {.size = 11, .anchor = "start", .fill = colour::muted});
  }
}

// The arrow leaving stage k, with its label, down to the next stage.
void draw_edge(Canvas& c, const FlowDiagram& d, std::size_t k,
               const std::vector<double>& top) {
  const double from = top[k] + stage_height(d.stages[k]);
  const double to = top[k + 1];
  if (from >= to) return;
  c.arrow(kCentre, from, kCentre, to);
  c.text(kCentre + 10, (from + to) / 2 + 4, d.stages[k].edge,
         {.size = 11, .anchor = "start"});
}

// A residual path: from a dot on stage `from`'s arrow, left into the
// lane, down, and right into the addition at stage k.
void draw_skip(Canvas& c, const FlowDiagram& d, std::size_t k,
               const std::vector<double>& top) {
  const std::size_t from = static_cast<std::size_t>(d.stages[k].skip_from);
  const double tap = top[from] + stage_height(d.stages[from]) + kEdge / 4;
  const double mid = top[k] + stage_height(d.stages[k]) / 2;
  c.circle(kCentre, tap, 3, {.fill = colour::ink, .stroke = colour::ink});
  c.path_arrow({{kCentre, tap}, {kLane, tap}, {kLane, mid},
                {kCentre - kAddR, mid}});
  c.text(kLane - 8, (tap + mid) / 2 + 4, d.skip_label,
         {.size = 11, .anchor = "end", .fill = colour::muted});
}

// The desc, followed by each stage and its outgoing arrow in words, so
// that a screen reader gets the numbers too ("RMSNorm_{1}" reads
// "RMSNorm1").
std::string flow_desc(const FlowDiagram& d) {
  std::string out = d.desc;
  for (const FlowStage& s : d.stages) {
    std::string label;
    for (char ch : s.label) {
      if (ch != '_' && ch != '{' && ch != '}') label += ch;
    }
    out += (out.empty() ? "" : " ") + label;
    out += s.edge.empty() ? "." : ", then " + s.edge + ";";
  }
  return out;
}

}  // namespace

std::string to_svg(const FlowDiagram& d) {
  if (d.stages.empty()) {
    throw std::invalid_argument("book::to_svg: a flow diagram needs stages");
  }
  for (std::size_t k = 0; k < d.stages.size(); ++k) {
    const int from = d.stages[k].skip_from;
    if (from >= static_cast<int>(k) || from < -1) {
      throw std::invalid_argument("book::to_svg: stage " + count(k) +
                                  " skips from stage " +
                                  std::to_string(from) +
                                  ", expected an earlier stage");
    }
  }
  const std::vector<double> top = stage_tops(d);
  double width = 0;  // the right end of the longest note or arrow label
  for (const FlowStage& s : d.stages) {
    const double note_x = kCentre + (s.add ? kAddR : kBoxW / 2) + 12;
    width = std::max({width, note_x + text_width(s.note, 11),
                      kCentre + 10 + text_width(s.edge, 11)});
  }
  Canvas c(width + kMargin, top.back() + kMargin, d.title, flow_desc(d));
  for (std::size_t k = 0; k < d.stages.size(); ++k) {
    draw_stage(c, d.stages[k], top[k]);
    draw_edge(c, d, k, top);
    if (d.stages[k].skip_from >= 0) draw_skip(c, d, k, top);
  }
  return c.svg();
}

}  // namespace book
