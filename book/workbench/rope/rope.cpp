// The workbench of chapter 24 (see rope.hpp): the chapter's own
// llm::Rope::apply, called through a C interface so that the page's
// WebAssembly module and the native comparison program run the same code.
#include "rope.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "../entry.hpp"
#include "llm/autograd.hpp"
#include "llm/rope.hpp"
#include "llm/tensor.hpp"

namespace {

constexpr std::size_t kDim = WB_ROPE_DIM;
using Vector = std::vector<double>;
using workbench::require;
using workbench::same_bits;

// Built on the first call: 2048 positions of four pairs.
const llm::Rope& rope() {
  static const llm::Rope r(kDim, WB_ROPE_CAPACITY, 10000.0);
  return r;
}

// One vector rotated for `position`, as the demo's rotated() does it: a
// sequence of one token whose offset is the position.
Vector rotated(const llm::Rope& r, const Vector& v, std::size_t position) {
  llm::Tape tape;
  const llm::Var x = tape.leaf(llm::Tensor({1, v.size()}, Vector(v)));
  return r.apply(x, position).value().to_vector();  // [1, d]
}

// In index order, as the demo's dot(): the same additions, the same bits.
double dot(const Vector& a, const Vector& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

extern "C" int wb_rope(const double* q, const double* k, int m, int n,
                       int rotate_key, double* rotated_out,
                       double* scores) {
  return workbench::answer([&] {
    require(workbench::all_finite(q, kDim) && workbench::all_finite(k, kDim),
            "every feature must be a finite number");
    require(m >= 0 && n >= 0, "a position is a whole number from 0, got " +
                                  std::to_string(m < 0 ? m : n));
    const Vector query(q, q + kDim), key(k, k + kDim);
    const Vector rq = rotated(rope(), query, static_cast<std::size_t>(m));
    const Vector rk = rotate_key != 0
                          ? rotated(rope(), key, static_cast<std::size_t>(n))
                          : key;
    const double plain = dot(query, key), score = dot(rq, rk);
    require(std::isfinite(plain) && std::isfinite(score),
            "the score of this query and key is too large for a double");
    workbench::copy_out(rq, rotated_out);
    workbench::copy_out(rk, rotated_out + kDim);
    scores[0] = plain;
    scores[1] = score;
  });
}

extern "C" const char* wb_error(void) {
  return workbench::last_error.c_str();
}

extern "C" int wb_matches_chapter(const double* q, const double* k, int m,
                                  int n) {
  if (m < 0 || n < 0 || m >= 1024 || n >= 1024) return 1;
  Vector out(2 * kDim);
  double scores[2];
  if (wb_rope(q, k, m, n, 1, out.data(), scores) != 0) return 1;
  const llm::Rope chapter(kDim, 1024, 10000.0);  // the demo's relative()
  const Vector rq = rotated(chapter, Vector(q, q + kDim), std::size_t(m));
  const Vector rk = rotated(chapter, Vector(k, k + kDim), std::size_t(n));
  const double score = dot(rq, rk);
  const bool same = same_bits(rq, Vector(out.begin(), out.begin() + kDim)) &&
                    same_bits(rk, Vector(out.begin() + kDim, out.end())) &&
                    std::memcmp(&score, &scores[1], sizeof score) == 0;
  return same ? 0 : 1;
}
