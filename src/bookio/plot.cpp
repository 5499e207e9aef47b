// A small SVG line plot for the book's figures: axes with ticks (linear or
// logarithmic), one polyline with point markers per series, a legend.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "bookio/bookio.hpp"
#include "bookio/escape.hpp"

namespace book {

namespace {

constexpr double kWidth = 640, kHeight = 400;
constexpr double kLeft = 72, kRight = 24, kTop = 40, kBottom = 56;
constexpr double kLegendRow = 18;  // height of one legend entry
const char* const kColours[] = {"#1f6fb4", "#c2410c", "#15803d", "#7e22ce"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

struct Axis {
  bool log = false;
  double lo = 0, hi = 1;
  double map(double v, double a, double b) const {
    double t = log ? (std::log10(v) - lo) / (hi - lo) : (v - lo) / (hi - lo);
    return a + t * (b - a);
  }
  std::vector<double> ticks() const {
    std::vector<double> out;
    if (log) {
      for (double e = std::ceil(lo); e <= hi + 1e-9; e += 1) out.push_back(e);
      return out;
    }
    double step = std::pow(10.0, std::floor(std::log10((hi - lo) / 5)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
      if ((hi - lo) / (step * m) <= 6) {
        step *= m;
        break;
      }
    }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9;
         v += step) {
      out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return out;
  }
  std::string label(double t) const {
    char buf[32];
    if (log) {
      std::snprintf(buf, sizeof buf, "1e%d", static_cast<int>(std::lround(t)));
    } else {
      std::snprintf(buf, sizeof buf, "%g", t);
    }
    return buf;
  }
  double value(double t) const { return log ? std::pow(10.0, t) : t; }
};

Axis make_axis(bool log, const std::vector<double>& values) {
  Axis a;
  a.log = log;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) {
      throw std::invalid_argument("book::to_svg: value " + std::to_string(v) +
                                  " cannot be drawn on this axis");
    }
    double x = log ? std::log10(v) : v;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  if (values.empty()) lo = 0, hi = 1;
  if (log) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
  }
  if (hi - lo < 1e-12) hi = lo + 1;
  a.lo = lo;
  a.hi = hi;
  return a;
}

}  // namespace

std::string to_svg(const Plot& plot) {
  std::vector<double> xs, ys;
  for (const auto& s : plot.series) {
    if (s.x.size() != s.y.size()) {
      throw std::invalid_argument("book::to_svg: series '" + s.label +
                                  "' has " + std::to_string(s.x.size()) +
                                  " x values and " + std::to_string(s.y.size()) +
                                  " y values");
    }
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
  }
  Axis ax = make_axis(plot.log_x, xs), ay = make_axis(plot.log_y, ys);
  double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
  // The legend sits below the x-axis label, one row per series, so that
  // it can neither cover a line nor be cut off at the right edge.
  const double height =
      kHeight + 10 + kLegendRow * static_cast<double>(plot.series.size());
  std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 " +
      num(height) +
      "\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>" + escape_markup(plot.title) + "</title>\n"
      "<rect width=\"640\" height=\"" + num(height) +
      "\" fill=\"#ffffff\"/>\n";
  svg += "<text x=\"320\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" +
         escape_markup(plot.title) + "</text>\n";
  for (double t : ax.ticks()) {
    double x = ax.map(ax.value(t), x0, x1);
    svg += "<line x1=\"" + num(x) + "\" y1=\"" + num(y1) + "\" x2=\"" +
           num(x) + "\" y2=\"" + num(y0) + "\" stroke=\"#e5e7eb\"/>\n";
    svg += "<text x=\"" + num(x) + "\" y=\"" + num(y0 + 18) +
           "\" text-anchor=\"middle\" fill=\"#111\">" + ax.label(t) +
           "</text>\n";
  }
  for (double t : ay.ticks()) {
    double y = ay.map(ay.value(t), y0, y1);
    svg += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y) + "\" x2=\"" +
           num(x1) + "\" y2=\"" + num(y) + "\" stroke=\"#e5e7eb\"/>\n";
    svg += "<text x=\"" + num(x0 - 6) + "\" y=\"" + num(y + 4) +
           "\" text-anchor=\"end\" fill=\"#111\">" + ay.label(t) + "</text>\n";
  }
  svg += "<rect x=\"" + num(x0) + "\" y=\"" + num(y1) + "\" width=\"" +
         num(x1 - x0) + "\" height=\"" + num(y0 - y1) +
         "\" fill=\"none\" stroke=\"#111\"/>\n";
  svg += "<text x=\"" + num((x0 + x1) / 2) + "\" y=\"" + num(kHeight - 14) +
         "\" text-anchor=\"middle\" fill=\"#111\">" +
         escape_markup(plot.x_label) + "</text>\n";
  svg += "<text transform=\"translate(16 " + num((y0 + y1) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" fill=\"#111\">" +
         escape_markup(plot.y_label) + "</text>\n";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    const char* colour = kColours[i % 4];
    std::string points;
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      if (k) points += ' ';
      points += num(ax.map(s.x[k], x0, x1)) + "," + num(ay.map(s.y[k], y0, y1));
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) +
           "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      svg += "<circle cx=\"" + num(ax.map(s.x[k], x0, x1)) + "\" cy=\"" +
             num(ay.map(s.y[k], y0, y1)) + "\" r=\"3\" fill=\"" + colour +
             "\"/>\n";
    }
    double ly = kHeight + 8 + kLegendRow * static_cast<double>(i);
    svg += "<line x1=\"" + num(x0) + "\" y1=\"" + num(ly - 4) +
           "\" x2=\"" + num(x0 + 24) + "\" y2=\"" + num(ly - 4) +
           "\" stroke=\"" + colour + "\" stroke-width=\"2\"/>\n";
    svg += "<text x=\"" + num(x0 + 30) + "\" y=\"" + num(ly) +
           "\" fill=\"#111\">" + escape_markup(s.label) + "</text>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace book
