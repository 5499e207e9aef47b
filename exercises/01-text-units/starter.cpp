// Exercise of the text-units chapter: a UTF-8 decoder that compiles,
// runs, and is wrong in three places. Fix it until the exercise tests
// pass:
//
//   cmake --build build --target run_exercise_01
#include "exercise.hpp"

#include <cstddef>

namespace exercise {

std::u32string decode_utf8(std::string_view bytes) {
  std::u32string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    std::size_t length = 1;
    char32_t c = lead, smallest = 0;
    if (lead < 0x80) { length = 1; }
    else if ((lead & 0xE0) == 0xC0) { length = 2; c = lead & 0x1F; smallest = 0x80; }
    else if ((lead & 0xF0) == 0xE0) { length = 3; c = lead & 0x0F; smallest = 0x800; }
    else if ((lead & 0xF8) == 0xF0) { length = 4; c = lead & 0x07; smallest = 0x10000; }
    else throw llm::EncodingError("decode_utf8: invalid lead byte at " + std::to_string(i));
    if (bytes.size() - i < length) {
      throw llm::EncodingError("decode_utf8: the text ends inside a sequence at " +
                               std::to_string(i));
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto b = static_cast<unsigned char>(bytes[i + k]);
      c = (c << 8) | (b & 0x3F);
    }
    (void)smallest;
    out.push_back(c);
    i += length;
  }
  return out;
}

}  // namespace exercise
