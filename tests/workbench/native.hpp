// What the native programs of the workbench tests share
// (tests/workbench/NAME_native.cpp, each the workbench's entry point built
// with g++ and linked with the book's library): reading one case a line
// from standard input, answering one line a case on standard output
// ("ok ..." or "error MESSAGE"), reporting on standard error a case where
// the workbench differs from the library, and loading the trained
// checkpoint named on the command line. tests/workbench/builds.js is the
// other end.
//
// The exit status: 0, 1 when some case differed from the library, 2 when
// a line is not a case or the checkpoint does not load.
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>

namespace native {

// Thrown by Case for a line that is not a case.
struct Unreadable {};

// One case: a line of standard input, its fields read in turn (those
// before a tab, if it has one), and whether the workbench differed from
// the library on it.
class Case {
 public:
  Case(const char* program, const std::string& line)
      : program_(program),
        line_(line),
        tab_(line.find('\t')),
        fields_(line.substr(0, tab_)) {}

  // The next field as a T; Unreadable if there is none.
  template <class T>
  T next() {
    T value{};
    if (!(fields_ >> value)) throw Unreadable{};
    return value;
  }

  // Fills every element of `values` with the next fields.
  template <class Values>
  void fill(Values& values) {
    for (auto& v : values) v = next<std::remove_reference_t<decltype(v)>>();
  }

  // What follows the tab: the case's text; Unreadable without a tab.
  std::string text() const {
    if (tab_ == std::string::npos) throw Unreadable{};
    return line_.substr(tab_ + 1);
  }

  // The whole line, as read.
  const std::string& line() const { return line_; }

  // Says on standard error that the workbench differs from `what` for
  // this case, which fails the program.
  void differs(const char* what) {
    std::fprintf(stderr, "%s: the workbench differs from %s for '%s'\n",
                 program_, what, line_.c_str());
    failed_ = true;
  }

  bool failed() const { return failed_; }

 private:
  const char* program_;
  bool failed_ = false;
  std::string line_;
  std::size_t tab_;
  std::istringstream fields_;
};

// " v" with 17 significant digits, which reads back as the same double,
// or " inf", " -inf", " nan".
inline void print(double v) {
  if (std::isnan(v)) std::printf(" nan");
  else if (std::isinf(v)) std::printf(v > 0 ? " inf" : " -inf");
  else std::printf(" %.17g", v);
}

// The answer "ok" and every double of each of `lists`, in order.
template <class... Lists>
void answer(const Lists&... lists) {
  std::printf("ok");
  (..., [](const auto& list) { for (double v : list) print(v); }(lists));
  std::printf("\n");
}

// The answer "error MESSAGE": the entry point refused the case.
inline void refused(const char* message) { std::printf("error %s\n", message); }

// A text as one line and back: '\' written '\\' and a newline '\n'.
inline std::string to_line(const std::string& text) {
  std::string line;
  for (const char c : text) {
    if (c == '\\') line += "\\\\";
    else if (c == '\n') line += "\\n";
    else line += c;
  }
  return line;
}

inline std::string from_line(const std::string& line) {
  std::string text;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      ++i;
      text += line[i] == 'n' ? '\n' : line[i];
    } else {
      text += line[i];
    }
  }
  return text;
}

// Runs `answer_case(c)` for each line of standard input (blank ones too
// when `blank_lines`, for a program whose cases are texts), and returns
// the exit status.
template <class AnswerCase>
int each_line(const char* program, AnswerCase answer_case,
              bool blank_lines = false) {
  std::string line;
  int failures = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty() && !blank_lines) continue;
    Case c(program, line);
    try {
      answer_case(c);
    } catch (const Unreadable&) {
      std::fprintf(stderr, "%s: cannot read the case '%s'\n", program,
                   line.c_str());
      return 2;
    }
    if (c.failed()) ++failures;
  }
  return failures ? 1 : 0;
}

// Loads the checkpoint file named by the only argument with `load` (the
// workbench's wb_load); false, after saying why on standard error, when
// there is no such argument or the file does not read or load.
inline bool load_checkpoint(const char* program, int argc, char** argv,
                            int (*load)(const unsigned char*, int),
                            const char* (*error)(void)) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: workbench_%s CHECKPOINT\n", program);
    return false;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) {
    std::fprintf(stderr, "%s: cannot read %s\n", program, argv[1]);
    return false;
  }
  if (load(reinterpret_cast<const unsigned char*>(bytes.data()),
           static_cast<int>(bytes.size())) != 0) {
    std::fprintf(stderr, "%s: %s: %s\n", program, argv[1], error());
    return false;
  }
  return true;
}

}  // namespace native
