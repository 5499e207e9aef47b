// Tests of the demos' shared formatting helpers (src/bookio/format.hpp)
// and of book::error_message. Every expected string is printf's output
// worked out by hand; the numbers are exact in binary.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bookio/error_message.hpp"
#include "bookio/format.hpp"

namespace {

// Stands in for llm::Tensor: a shape, and elements through to_vector().
struct FakeTensor {
  std::vector<std::size_t> shape;
  std::vector<double> values;
  std::vector<double> to_vector() const { return values; }
  // Rows begin..end of a matrix (axis 0 only, as matrix_row uses it).
  FakeTensor slice(std::size_t axis, std::size_t begin,
                   std::size_t end) const {
    REQUIRE(axis == 0);
    const std::size_t cols = shape[1];
    return {{end - begin, cols},
            {values.begin() + static_cast<long>(begin * cols),
             values.begin() + static_cast<long>(end * cols)}};
  }
};

// Stands in for llm::GradientError: the fields a gradient table reads.
struct FakeError {
  double max_abs;
  double max_rel;
};

// A case whose "function" gives the errors a check of it would find.
using Errors = std::vector<FakeError>;
using FakeCase = book::GradientCase<std::function<Errors()>, double>;

FakeCase fake_case(std::string name, std::vector<std::string> labels,
                   Errors errors) {
  return {std::move(name), std::move(labels), [errors] { return errors; },
          std::vector<double>(errors.size(), 0.0)};
}

// What f prints on stdout, read back from a temporary file.
template <class F>
std::string stdout_of(const F& f) {
  std::fflush(stdout);
  char path[] = "/tmp/bookio-stdout-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = ::dup(STDOUT_FILENO);
  ::dup2(fd, STDOUT_FILENO);
  f();
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(fd);
  const std::string out = book::read_file(path);
  ::unlink(path);
  return out;
}

// Each cell's text, a "*" before a header cell's.
std::vector<std::string> row_text(const std::vector<book::Cell>& row) {
  std::vector<std::string> out;
  for (const book::Cell& c : row) {
    out.push_back((c.header ? "*" : "") + c.text);
  }
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("book::sci writes exponent form with the decimals asked",
          "[tool][bookio]") {
  CHECK(book::sci(1e-5) == "1.0e-05");  // one decimal by default
  CHECK(book::sci(123456.0, 2) == "1.23e+05");
  CHECK(book::sci(-0.25, 0) == "-2e-01");  // 2.5 (exact) rounds to even
  CHECK(book::sci(0.0) == "0.0e+00");
}

TEST_CASE("book::join and join_fixed separate values by one space",
          "[tool][bookio]") {
  CHECK(book::join({}) == "");
  CHECK(book::join({1.0, 2.5, -3.0}) == "1 2.5 -3");
  CHECK(book::join({0.5, -1.0}, "%.2f") == "0.50 -1.00");
  // fixed drops the sign of a value that rounds to zero; fmt keeps it.
  CHECK(book::join_fixed({-1e-7, 2.0}, 3) == "0.000 2.000");
  CHECK(book::join({-1e-7}, "%.3f") == "-0.000");
  CHECK(book::join_fixed({0.25}) == "0.250000");
  const FakeTensor t{{3}, {1.0, 0.125, 4.0}};
  CHECK(book::join(t) == "1 0.125 4");
  CHECK(book::join_fixed(t, 1) == "1.0 0.1 4.0");  // 0.125 -> 0.1 (even)
  const FakeTensor m{{2, 2}, {1.0, 0.5, -0.25, 0.0}};
  CHECK(book::matrix_row(m, 0) == "1.000000 0.500000");
  CHECK(book::matrix_row(m, 1, 2) == "-0.25 0.00");  // -0.25 is exact
}

TEST_CASE("book::norm and max_abs_diff reduce in order",
          "[tool][bookio]") {
  CHECK(book::norm({3.0, 4.0}) == 5.0);
  CHECK(book::norm({}) == 0.0);
  CHECK(book::norm(FakeTensor{{2, 2}, {1.0, -1.0, 1.0, -1.0}}) == 2.0);
  // |1 - 1.5| = 0.5, |2 - 2| = 0, |3 - 1| = 2.
  CHECK(book::max_abs_diff({1.0, 2.0, 3.0}, {1.5, 2.0, 1.0}) == 2.0);
  CHECK(book::max_abs_diff({}, {}) == 0.0);
  CHECK(book::max_abs_diff(FakeTensor{{2}, {-1.0, 0.0}},
                           FakeTensor{{2}, {0.0, 0.25}}) == 1.0);
  CHECK_THROWS_WITH(book::max_abs_diff({1.0}, {1.0, 2.0}),
                    "book::max_abs_diff: 1 values against 2");
}

TEST_CASE("book::ramp fills a tensor in row-major order",
          "[tool][bookio]") {
  CHECK(book::ramp_values(4, 1.0, 0.5) ==
        std::vector<double>{1.0, 1.5, 2.0, 2.5});
  CHECK(book::ramp_values(0, 1.0, 1.0).empty());
  const FakeTensor t = book::ramp<FakeTensor>({2, 3}, 2.0, -0.25);
  CHECK(t.shape == std::vector<std::size_t>{2, 3});
  CHECK(t.values == std::vector<double>{2.0, 1.75, 1.5, 1.25, 1.0, 0.75});
}

TEST_CASE("book::registry_table lists name, shape and scalars in order",
          "[tool][bookio]") {
  // Stands in for llm::Parameters: list() of entries with a name and a
  // tensor value with shape() and numel().
  struct Value {
    std::vector<std::size_t> dims;
    const std::vector<std::size_t>& shape() const { return dims; }
    std::size_t numel() const { return dims[0] * dims[1]; }
  };
  struct Entry {
    std::string name;
    Value value;
  };
  struct Registry {
    std::vector<Entry> entries;
    const std::vector<Entry>& list() const { return entries; }
  };
  const Registry r{{{"w_q", {{8, 2}}}, {"w_down", {{3, 5}}}}};
  const auto shape_text = [](const std::vector<std::size_t>& s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]);
  };
  const book::Table t = book::registry_table("two", r, shape_text);
  CHECK(t.caption == "two");
  CHECK(t.columns == std::vector<std::string>{"name", "shape", "scalars"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0][0].text == "w_q");
  CHECK(t.rows[0][0].header);
  CHECK(t.rows[0][1].text == "8x2");
  CHECK(t.rows[0][2].text == "16");
  CHECK(t.rows[1][0].text == "w_down");
  CHECK(t.rows[1][2].text == "15");
  CHECK_FALSE(t.rows[1][2].header);
}

TEST_CASE("book::gradient_table shows max abs. error only when asked",
          "[tool][bookio]") {
  const std::vector<book::GradientRow> rows = {{"add", "[2,3]", 0.5, 0.25},
                                               {"mul", "[3]", 0.125, 0.75}};
  const book::Table rel =
      book::gradient_table("two ops", {"operation", "inputs"}, rows);
  CHECK(rel.caption == "two ops");
  CHECK(rel.columns == Strings{"operation", "inputs", "max rel. error"});
  REQUIRE(rel.rows.size() == 2);
  CHECK(row_text(rel.rows[0]) == Strings{"*add", "[2,3]", "2.5e-01"});
  CHECK(row_text(rel.rows[1]) == Strings{"*mul", "[3]", "7.5e-01"});
  const book::Table both = book::gradient_table(
      "with abs", {.what = "tensor", .detail = "shape", .max_abs = true},
      rows);
  CHECK(both.columns == Strings{"tensor", "shape", "max abs. error",
                                "max rel. error"});
  REQUIRE(both.rows.size() == 2);
  CHECK(row_text(both.rows[0]) ==
        Strings{"*add", "[2,3]", "5.0e-01", "2.5e-01"});
  CHECK(row_text(both.rows[1]) ==  // 1.25 (exact) rounds to even
        Strings{"*mul", "[3]", "1.2e-01", "7.5e-01"});
  CHECK(book::gradient_table("none", {"a", "b"}, {}).rows.empty());
}

TEST_CASE("book::show_gradient_table prints the largest max_rel",
          "[tool][bookio]") {
  // max_abs is larger in the first row; the line reports max_rel only.
  const std::vector<book::GradientRow> rows = {{"x", "[2]", 0.5, 0.25},
                                               {"w", "[2,2]", 0.125, 0.75},
                                               {"b", "[2]", 0.25, 0.5}};
  CHECK(stdout_of([&] {
          book::show_gradient_table("t", "c", {"tensor", "shape"}, rows);
        }) == "check.max_rel=7.5e-01\n");
  CHECK(stdout_of([] {
          book::show_gradient_table("t", "c", {"tensor", "shape"}, {});
        }) == "check.max_rel=0.0e+00\n");
}

TEST_CASE("book::gradient_rows makes a row per case or per input",
          "[tool][bookio]") {
  const auto check = [](const FakeCase& c) { return c.f(); };
  const std::vector<FakeCase> cases = {
      // One label: one row with the largest of each error.
      fake_case("mul", {"[2,3] * [3]"}, {{0.5, 0.125}, {0.25, 0.75}}),
      // A label per input: a row per input.
      fake_case("attend", {"probs", "v"}, {{0.25, 0.5}, {0.125, 0.25}}),
      fake_case("one", {"x"}, {{0.5, 0.5}})};
  const std::vector<book::GradientRow> rows =
      book::gradient_rows(cases, check);
  REQUIRE(rows.size() == 4);
  const auto is = [](const book::GradientRow& r, const std::string& what,
                     const std::string& detail, double abs, double rel) {
    return r.what == what && r.detail == detail && r.max_abs == abs &&
           r.max_rel == rel;
  };
  CHECK(is(rows[0], "mul", "[2,3] * [3]", 0.5, 0.75));
  CHECK(is(rows[1], "attend", "probs", 0.25, 0.5));
  CHECK(is(rows[2], "attend", "v", 0.125, 0.25));
  CHECK(is(rows[3], "one", "x", 0.5, 0.5));
  const std::vector<FakeCase> bad = {
      fake_case("attention", {"q", "k"}, Errors(3, {0.5, 0.5}))};
  CHECK_THROWS_WITH(book::gradient_rows(bad, check),
                    "book::gradient_rows: attention has 2 labels for 3 "
                    "inputs");
  const std::vector<FakeCase> unlabelled = {
      fake_case("sum", {}, {{0.5, 0.5}})};
  CHECK_THROWS_WITH(book::gradient_rows(unlabelled, check),
                    "book::gradient_rows: sum has 0 labels for 1 inputs");
}

TEST_CASE("book::visible marks spaces and newlines", "[tool][bookio]") {
  CHECK(book::visible("a b\n") == "a\xE2\x90\xA3" "b\xE2\x86\xB5");
  CHECK(book::visible("") == "");
  CHECK(book::visible("\t") == "\t");
}

TEST_CASE("book::read_file returns the bytes or says why not",
          "[tool][bookio]") {
  char path[] = "/tmp/bookio-read-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  const std::string bytes("a\0b\r\n", 5);
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK(book::read_file(path) == bytes);
  ::unlink(path);
  CHECK_THROWS_WITH(book::read_file(path),
                    std::string("bookio: cannot open '") + path + "'");
}

TEST_CASE("book::error_message returns the expected error's message",
          "[tool][bookio]") {
  CHECK(book::error_message<std::invalid_argument>(
            [] { throw std::invalid_argument("bad shape"); }) ==
        "bad shape");
  // A base class catches its subclasses (llm::ShapeError is an llm::Error).
  CHECK(book::error_message<std::logic_error>(
            [] { throw std::invalid_argument("derived"); }) == "derived");
  CHECK_THROWS_WITH(book::error_message<std::invalid_argument>([] {}),
                    "book::error_message: the call was accepted");
  CHECK_THROWS_AS(book::error_message<std::invalid_argument>(
                      [] { throw std::out_of_range("other"); }),
                  std::out_of_range);
}
