// Shared by tests and tools that want varied but reproducible input:
// SplitMix64 (Vigna), written here independently of the library's own
// generator (llm::Rng, which arrives in a later chapter).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

struct Mix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

// `count` values in [-1, 1): the top 53 bits of each output from `seed`,
// scaled by 2^-52, minus 1.
inline std::vector<double> splitmix_values(std::size_t count,
                                           std::uint64_t seed) {
  Mix mix{seed};
  std::vector<double> v(count);
  for (double& x : v) {
    x = static_cast<double>(mix.next() >> 11) * 0x1.0p-52 - 1.0;
  }
  return v;
}
