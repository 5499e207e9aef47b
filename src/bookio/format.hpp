// Formatting helpers that many chapters' demos share: numbers in exponent
// form, lists of numbers, byte strings made visible, small tensor
// fixtures, the tables of gradient checks and of parameter registries.
// They need no llm: a function that takes a tensor or a registry is a
// template over anything with to_vector() or list(), so bookio stays
// independent of the library the book teaches.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bookio/bookio.hpp"

namespace book {

/// "1.0e-05": v in exponent form with `decimals` mantissa decimals.
std::string sci(double v, int decimals = 1);

/// Prints "key=1.0e-05" and publishes the full-precision value.
void show_sci(std::string_view key, double v);

/// "1 2.5 3": each value through fmt(format), separated by spaces.
std::string join(const std::vector<double>& values,
                 const char* format = "%g");

/// "1.000000 0.500000": each value through fixed(v, decimals).
std::string join_fixed(const std::vector<double>& values, int decimals = 6);

/// The Euclidean norm, sqrt(v0^2 + v1^2 + ...), summed in order.
double norm(const std::vector<double>& values);

/// The largest |a[k] - b[k]|; throws std::invalid_argument when the
/// sizes differ.
double max_abs_diff(const std::vector<double>& a,
                    const std::vector<double>& b);

/// n values start, start + step, ..., start + (n - 1) step.
std::vector<double> ramp_values(std::size_t n, double start, double step);

/// One row of a gradient-check table: what was checked (an operation,
/// an input or a parameter), a detail (its inputs, shape or size) and
/// the largest absolute and relative errors the check found.
struct GradientRow {
  std::string what;
  std::string detail;
  double max_abs;
  double max_rel;
};

/// The headings of a gradient table's first two columns, and whether
/// the table shows max_abs as well as max_rel.
struct GradientColumns {
  std::string what;
  std::string detail;
  bool max_abs = false;
};

/// The table of a gradient check: columns what, detail, [max abs.
/// error,] max rel. error, and one row per GradientRow, the errors in
/// sci() form.
Table gradient_table(std::string caption, const GradientColumns& columns,
                     const std::vector<GradientRow>& rows);

/// Prints and publishes "check.max_rel", the largest max_rel of the
/// rows, then publishes gradient_table(caption, columns, rows) as NAME.
void show_gradient_table(std::string_view name, std::string caption,
                         const GradientColumns& columns,
                         const std::vector<GradientRow>& rows);

/// The bytes with space shown as "␣" and newline as "↵".
std::string visible(std::string_view bytes);

/// The whole file as bytes; throws std::runtime_error when it cannot be
/// opened.
std::string read_file(const std::string& path);

// A tensor (anything whose to_vector() gives its elements in row-major
// order) goes to the same functions through these overloads.
template <class T>
concept HasValues = requires(const T& t) {
  { t.to_vector() } -> std::same_as<std::vector<double>>;
};

/// join() of a tensor's elements.
template <HasValues T>
std::string join(const T& t, const char* format = "%g") {
  return join(t.to_vector(), format);
}

/// join_fixed() of a tensor's elements.
template <HasValues T>
std::string join_fixed(const T& t, int decimals = 6) {
  return join_fixed(t.to_vector(), decimals);
}

/// norm() of a tensor's elements.
template <HasValues T>
double norm(const T& t) {
  return norm(t.to_vector());
}

/// max_abs_diff() of two tensors' elements.
template <HasValues T>
double max_abs_diff(const T& a, const T& b) {
  return max_abs_diff(a.to_vector(), b.to_vector());
}

/// "0.500000 0.500000": row i of a matrix (anything with
/// slice(axis, begin, end)), through join_fixed.
template <class Matrix>
std::string matrix_row(const Matrix& m, std::size_t i, int decimals = 6) {
  return join_fixed(m.slice(0, i, i + 1), decimals);
}

/// One case of a gradient-check table: an operation, labels for its
/// inputs, the function a check differentiates and the inputs it is
/// checked at. One label makes the case one row, with its largest
/// errors over all the inputs; one label per input, a row per input.
template <class Function, class Tensor>
struct GradientCase {
  std::string name;
  std::vector<std::string> labels;
  Function f;
  std::vector<Tensor> inputs;
};

/// The rows of a gradient table for `cases`. check(c) checks case c and
/// returns one error per input, each with max_abs and max_rel (as
/// llm::check_tape_gradients does). Throws std::invalid_argument when a
/// case has neither one label nor one per error.
template <class Case, class Check>
std::vector<GradientRow> gradient_rows(const std::vector<Case>& cases,
                                       const Check& check) {
  std::vector<GradientRow> rows;
  for (const Case& c : cases) {
    const auto errors = check(c);
    if (c.labels.size() == errors.size()) {
      for (std::size_t i = 0; i < errors.size(); ++i) {
        rows.push_back({c.name, c.labels[i], errors[i].max_abs,
                        errors[i].max_rel});
      }
    } else if (c.labels.size() == 1) {
      GradientRow worst{c.name, c.labels[0], 0.0, 0.0};
      for (const auto& e : errors) {
        worst.max_abs = std::fmax(worst.max_abs, e.max_abs);
        worst.max_rel = std::fmax(worst.max_rel, e.max_rel);
      }
      rows.push_back(worst);
    } else {
      throw std::invalid_argument(
          "book::gradient_rows: " + c.name + " has " +
          std::to_string(c.labels.size()) + " labels for " +
          std::to_string(errors.size()) + " inputs");
    }
  }
  return rows;
}

/// A registry's table: one row per entry of params.list() (each with a
/// name and a tensor value), its name, its shape through shape_text and
/// its number of scalars. book::registry_table(caption, params,
/// llm::to_string).
template <class Registry, class ShapeText>
Table registry_table(std::string caption, const Registry& params,
                     const ShapeText& shape_text) {
  Table t{.caption = std::move(caption),
          .columns = {"name", "shape", "scalars"}, .rows = {}};
  for (const auto& n : params.list()) {
    t.rows.push_back({head(n.name), text(shape_text(n.value.shape())),
                      text(std::to_string(n.value.numel()))});
  }
  return t;
}

/// A Tensor of `shape` holding start, start + step, ... in row-major
/// order: book::ramp<Tensor>({2, 3}, 0.0, 0.5).
template <class Tensor>
Tensor ramp(const std::vector<std::size_t>& shape, double start,
            double step) {
  std::size_t n = 1;
  for (std::size_t extent : shape) n *= extent;
  return Tensor(shape, ramp_values(n, start, step));
}

}  // namespace book
