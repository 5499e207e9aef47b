// The lint of numbers in prose: a number the prose states must be a
// checked value or marked as an input (extract_parts.hpp).
#include <cctype>
#include <charconv>

#include "extract_parts.hpp"

namespace litbook {

namespace {

// A character that joins a number to a word ("C++20", "UTF-8", "x2").
bool word_char(unsigned char c) {
  return std::isalpha(c) || c == '_' || c == '+' || c >= 0x80;
}

}  // namespace

void lint_prose_text(Chapter& ch, const std::string& s, int line) {
  // Math whose dollars Pandoc did not pair stays as text.
  for (std::size_t k = 0; k < s.size(); ++k) {
    bool command = s[k] == '\\' && k + 1 < s.size() &&
                   std::isalpha(static_cast<unsigned char>(s[k + 1]));
    if (s[k] == '$' || command) {
      ch.stray_tex.push_back({s, line});
      break;
    }
  }
  std::size_t i = 0;
  while (i < s.size()) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t int_end = i;
    bool fraction = false, exponent = false;
    if (i + 1 < s.size() && s[i] == '.' &&
        std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      fraction = true;
      ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    }
    if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
      if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        exponent = true;
        i = j;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      }
    }
    bool joined_before =
        start > 0 && (word_char(static_cast<unsigned char>(s[start - 1])) ||
                      (s[start - 1] == '-' && start > 1 &&
                       std::isalpha(static_cast<unsigned char>(s[start - 2]))));
    bool joined_after =
        i < s.size() && (word_char(static_cast<unsigned char>(s[i])) ||
                         (s[i] == '-' && i + 1 < s.size() &&
                          std::isalpha(static_cast<unsigned char>(s[i + 1]))));
    if (joined_before || joined_after) continue;
    std::string number = s.substr(start, i - start);
    if (!fraction && !exponent) {
      std::size_t digits = int_end - start;
      long value = 0;
      std::from_chars(s.data() + start, s.data() + int_end, value);
      if (digits == 1) continue;
      if (digits == 4 && value >= 1900 && value <= 2099) continue;
      if (digits == 2 && number[0] == '0') continue;  // "07"
    }
    ch.unbound.push_back({number, line});
  }
}

}  // namespace litbook
