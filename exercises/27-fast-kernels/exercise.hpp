// What the fast-kernels chapter's exercise asks for: a matrix product in
// tiles that gives the same bits as the plain loop. The exercise tests
// (tests.cpp) call it; starter.cpp defines it with three mistakes for the
// reader to find and fix.
#pragma once

#include <cstddef>
#include <vector>

namespace exercise {

/// C = A B for row-major A [m, k] and B [k, n], computed in tiles of 4
/// rows by 8 columns of C, each tile's 32 sums kept in local variables
/// while p runs over k. Every element must be the plain loop's
/// sum_{p = 0}^{k-1} a[i, p] b[p, j], added from zero in increasing p,
/// so the result is bitwise equal to it.
std::vector<double> matmul_tiled(const std::vector<double>& a,
                                 const std::vector<double>& b,
                                 std::size_t m, std::size_t k, std::size_t n);

}  // namespace exercise
