// Shared by the matrix-multiplication tests, the fast-kernels exercise
// and the matmul benchmark: C = A B on row-major vectors in the
// formula's order i-j-p, C_ij = sum_p A_ip B_pj, each element summed
// from zero in increasing p, written independently of the library.
#pragma once

#include <cstddef>
#include <vector>

inline std::vector<double> naive_matmul(const std::vector<double>& a,
                                        const std::vector<double>& b,
                                        std::size_t m, std::size_t k,
                                        std::size_t n) {
  std::vector<double> c(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (std::size_t p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
  }
  return c;
}
