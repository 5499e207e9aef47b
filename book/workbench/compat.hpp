// What the WebAssembly build of the library needs from a C++20 standard
// library that Debian's Emscripten (3.1.6, with an older libc++) lacks.
// Forced into every library file compiled for a workbench
// (cmake/Workbench.cmake, -include); the g++ build never reads it.
#pragma once
#include <version>

#if !defined(__cpp_lib_bit_cast)
#include <cstring>
#include <type_traits>

namespace std {

// The bits of `from` read as a To, as C++20's std::bit_cast (not
// constexpr here, which the library does not need).
template <class To, class From>
To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: sizes differ");
  static_assert(std::is_trivially_copyable_v<To> &&
                    std::is_trivially_copyable_v<From>,
                "bit_cast: types must be trivially copyable");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

}  // namespace std
#endif
