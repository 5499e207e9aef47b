// The Canvas of diagram.hpp: each call appends one SVG element to the
// body, and svg() wraps the body in the document.
#include "bookio/diagram.hpp"

#include "bookio/escape.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace book {

namespace {

// A coordinate with two decimals: enough for a drawing, and stable.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string paint_attributes(const Paint& p) {
  return " fill=\"" + escape_markup(p.fill) + "\" stroke=\"" +
         escape_markup(p.stroke) + "\" stroke-width=\"" + num(p.width) + "\"";
}

// Text with "_{...}" as subscripts: each subscript is a smaller tspan
// moved down, and the text after it moves back up to the baseline.
std::string rich_text(std::string_view s, double size) {
  std::string out;
  bool lowered = false;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t sub = s.find("_{", i);
    std::size_t close = sub == std::string_view::npos
                            ? sub
                            : s.find('}', sub + 2);
    if (close == std::string_view::npos) sub = close = s.size();
    std::string_view plain = s.substr(i, sub - i);
    if (!plain.empty()) {
      out += lowered ? "<tspan dy=\"" + num(-0.3 * size) + "\">" : "";
      out += escape_markup(plain) + (lowered ? "</tspan>" : "");
      lowered = false;
    }
    if (sub < s.size()) {
      out += "<tspan dy=\"" + num(0.3 * size) + "\" font-size=\"" +
             num(0.75 * size) + "\">" +
             escape_markup(s.substr(sub + 2, close - sub - 2)) + "</tspan>";
      lowered = true;
    }
    i = close == s.size() ? close : close + 1;
  }
  return out;
}

}  // namespace

Canvas::Canvas(double width, double height, std::string title,
               std::string desc)
    : width_(width), height_(height), title_(std::move(title)),
      desc_(std::move(desc)) {}

void Canvas::rect(double x, double y, double w, double h,
                  const Paint& paint) {
  body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
           num(w) + "\" height=\"" + num(h) + "\"" +
           paint_attributes(paint) + "/>\n";
}

void Canvas::circle(double cx, double cy, double r, const Paint& paint) {
  body_ += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" +
           num(r) + "\"" + paint_attributes(paint) + "/>\n";
}

void Canvas::line(double x1, double y1, double x2, double y2,
                  const Paint& paint) {
  body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" +
           num(x2) + "\" y2=\"" + num(y2) + "\" stroke=\"" +
           escape_markup(paint.stroke) + "\" stroke-width=\"" +
           num(paint.width) + "\"/>\n";
}

void Canvas::text(double x, double y, std::string_view s, const Font& font) {
  body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) +
           "\" text-anchor=\"" + escape_markup(font.anchor) +
           "\" font-size=\"" + num(font.size) + "\" fill=\"" +
           escape_markup(font.fill) + "\"" +
           (font.bold ? " font-weight=\"bold\"" : "") + ">" +
           rich_text(s, font.size) + "</text>\n";
}

// A filled triangle whose tip is (x, y), pointing along (dx, dy).
void Canvas::arrowhead(double x, double y, double dx, double dy,
                       const std::string& fill) {
  const double n = std::hypot(dx, dy);
  if (n == 0) return;
  const double ux = dx / n, uy = dy / n, len = 7, half = 3.5;
  const double bx = x - ux * len, by = y - uy * len;  // middle of the base
  body_ += "<polygon points=\"" + num(x) + "," + num(y) + " " +
           num(bx - uy * half) + "," + num(by + ux * half) + " " +
           num(bx + uy * half) + "," + num(by - ux * half) + "\" fill=\"" +
           escape_markup(fill) + "\"/>\n";
}

void Canvas::arrow(double x1, double y1, double x2, double y2,
                   const std::string& stroke) {
  path_arrow({{x1, y1}, {x2, y2}}, stroke);
}

void Canvas::path_arrow(const std::vector<std::pair<double, double>>& points,
                        const std::string& stroke) {
  if (points.size() < 2) return;
  // Stop the line at the base of the head, so the tip stays sharp.
  std::vector<std::pair<double, double>> p = points;
  auto& [tx, ty] = p.back();
  const auto [px, py] = p[p.size() - 2];
  const double n = std::hypot(tx - px, ty - py);
  const double x = tx, y = ty;
  if (n > 7) tx -= (tx - px) / n * 6, ty -= (ty - py) / n * 6;
  std::string d;
  for (const auto& [a, b] : p) {
    if (!d.empty()) d += ' ';
    d += num(a);
    d += ',';
    d += num(b);
  }
  body_ += "<polyline points=\"" + d + "\" fill=\"none\" stroke=\"" +
           escape_markup(stroke) + "\" stroke-width=\"1.5\"/>\n";
  arrowhead(x, y, x - px, y - py, stroke);
}

void Canvas::arc(double x1, double x2, double y, double height,
                 const std::string& stroke) {
  // A quadratic curve through its control point 2 * height above y
  // peaks at height; it ends along (x2 - middle, 2 * height).
  const double mid = (x1 + x2) / 2, cy = y - 2 * height;
  body_ += "<path d=\"M " + num(x1) + " " + num(y) + " Q " + num(mid) +
           " " + num(cy) + " " + num(x2) + " " + num(y) +
           "\" fill=\"none\" stroke=\"" + escape_markup(stroke) +
           "\" stroke-width=\"1.5\"/>\n";
  arrowhead(x2, y, x2 - mid, 2 * height, stroke);
}

void Canvas::bracket(double x1, double x2, double y, double tick) {
  body_ += "<path d=\"M " + num(x1) + " " + num(y - tick) + " V " + num(y) +
           " H " + num(x2) + " V " + num(y - tick) + "\" fill=\"none\" " +
           "stroke=\"" + colour::line + "\" stroke-width=\"1\"/>\n";
}

std::string Canvas::svg() const {
  const std::string box = "0 0 " + num(width_) + " " + num(height_);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" + box +
         "\" role=\"img\" font-family=\"sans-serif\">\n<title>" +
         escape_markup(title_) + "</title>\n<desc>" + escape_markup(desc_) +
         "</desc>\n<rect width=\"" + num(width_) + "\" height=\"" +
         num(height_) + "\" fill=\"#ffffff\"/>\n" + body_ + "</svg>\n";
}

}  // namespace book
