#include "bookio/format.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "bookio/bookio.hpp"

namespace book {

std::string sci(double v, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*e", decimals, v);
  return text;
}

void show_sci(std::string_view key, double v) {
  publish(key, v);
  line(std::string(key) + "=" + sci(v));
}

Table gradient_table(std::string caption, const GradientColumns& columns,
                     const std::vector<GradientRow>& rows) {
  Table t{.caption = std::move(caption),
          .columns = {columns.what, columns.detail},
          .rows = {}};
  if (columns.max_abs) t.columns.push_back("max abs. error");
  t.columns.push_back("max rel. error");
  for (const GradientRow& r : rows) {
    std::vector<Cell> cells = {head(r.what), text(r.detail)};
    if (columns.max_abs) cells.push_back(text(sci(r.max_abs)));
    cells.push_back(text(sci(r.max_rel)));
    t.rows.push_back(std::move(cells));
  }
  return t;
}

void show_gradient_table(std::string_view name, std::string caption,
                         const GradientColumns& columns,
                         const std::vector<GradientRow>& rows) {
  double worst = 0.0;
  for (const GradientRow& r : rows) worst = std::fmax(worst, r.max_rel);
  show_sci("check.max_rel", worst);
  table(name, gradient_table(std::move(caption), columns, rows));
}

std::string join(const std::vector<double>& values, const char* format) {
  std::string s;
  for (double v : values) {
    s.append(s.empty() ? "" : " ").append(fmt(format, v));
  }
  return s;
}

std::string join_fixed(const std::vector<double>& values, int decimals) {
  std::string s;
  for (double v : values) {
    s.append(s.empty() ? "" : " ").append(fixed(v, decimals));
  }
  return s;
}

double norm(const std::vector<double>& values) {
  double s = 0.0;
  for (double v : values) s += v * v;
  return std::sqrt(s);
}

double max_abs_diff(const std::vector<double>& a,
                    const std::vector<double>& b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("book::max_abs_diff: " +
                                std::to_string(a.size()) + " values against " +
                                std::to_string(b.size()));
  }
  double m = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    m = std::fmax(m, std::fabs(a[k] - b[k]));
  }
  return m;
}

std::vector<double> ramp_values(std::size_t n, double start, double step) {
  std::vector<double> v(n);
  for (std::size_t k = 0; k < n; ++k) {
    v[k] = start + step * static_cast<double>(k);
  }
  return v;
}

std::string visible(std::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    out += c == ' ' ? "␣" : c == '\n' ? "↵" : std::string(1, c);
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("bookio: cannot open '" + path + "'");
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace book
