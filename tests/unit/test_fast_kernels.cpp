// Tests for chapter fast-kernels: every revised kernel (to_vector, zip,
// map, the reductions, matmul, the softmax rows) against a plain loop
// or the composed operations written here, which do the simple code's
// arithmetic in the simple code's order, compared bitwise on odd shapes and on views with offsets and strides; the same
// bits on 1, 2 and 3 threads; the thread setting's checks; and a tape
// that does not grow with the number of steps.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "llm/adamw.hpp"
#include "llm/attention.hpp"
#include "llm/autograd.hpp"
#include "llm/decoder_block.hpp"
#include "llm/error.hpp"
#include "llm/frozen.hpp"
#include "llm/layers.hpp"
#include "llm/matmul.hpp"
#include "llm/model_ops.hpp"
#include "llm/ops.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/softmax.hpp"
#include "llm/tensor.hpp"
#include "llm/threads.hpp"
#include "message_of.hpp"
#include "same_bits.hpp"

namespace {

using llm::Index;
using llm::Shape;
using llm::Tensor;
using Vec = std::vector<double>;

// Distinct values with many significant bits, so that a change in the
// order of a sum shows in the last bits.
Tensor noise(const Shape& shape, std::uint64_t seed) {
  llm::Rng rng(seed);
  return llm::init_tensor(shape, llm::fan_in_normal(3), rng);
}

// The elements of t in row-major order through at(): the simple walk.
Vec walk(const Tensor& t) {
  Vec v;
  if (t.numel() == 0) return v;
  Index i(t.rank(), 0);
  do {
    v.push_back(t.at(i));
  } while (llm::next_index(i, t.shape()));
  return v;
}

// The i-p-j product of the matrix-multiplication chapter on row-major
// vectors: c starts at 0 and adds a_ip b_pj for p = 0, 1, ... in turn.
Vec matmul_ipj(const Vec& a, const Vec& b, std::size_t m, std::size_t k,
               std::size_t n) {
  Vec c(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      for (std::size_t j = 0; j < n; ++j) {
        c[i * n + j] += a[i * k + p] * b[p * n + j];
      }
    }
  }
  return c;
}

struct ThreadsReset {
  ~ThreadsReset() { llm::set_threads(1); }
};

// check(m, k, n) for every m, k, n in {1, 7, 33, 65} (one tile, a tile
// and a part, several panels and row groups) on 1, 2 and 3 threads.
template <typename Check>
void for_odd_shapes(Check check) {
  const ThreadsReset reset;
  const std::size_t sizes[] = {1, 7, 33, 65};
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    for (std::size_t m : sizes) {
      for (std::size_t k : sizes) {
        for (std::size_t n : sizes) check(m, k, n);
      }
    }
  }
}

}  // namespace

TEST_CASE("to_vector walks views in row-major order", "[fast-kernels]") {
  const Tensor base = noise({5, 7, 9}, 1);
  CHECK(same_bits(base.to_vector(), walk(base)));
  const Tensor t = base.transpose(0, 2);                  // strides [1, 9, 63]
  CHECK(same_bits(t.to_vector(), walk(t)));
  const Tensor s = base.slice(1, 2, 6).slice(2, 1, 8);    // offset, gaps
  CHECK(s.offset() > 0);
  CHECK(same_bits(s.to_vector(), walk(s)));
  const Tensor wide = noise({1, 7}, 2).broadcast_to({3, 4, 7});  // stride 0
  CHECK(same_bits(wide.to_vector(), walk(wide)));
  const Tensor scalar(Shape{}, {2.5});
  CHECK(scalar.to_vector() == Vec{2.5});
  CHECK(Tensor({3, 0, 2}).slice(0, 1, 2).to_vector().empty());
  // contiguous() copies even a contiguous tensor: its own buffer.
  CHECK_FALSE(base.contiguous().shares_buffer_with(base));
}

TEST_CASE("zip and map apply the same function to the same pairs",
          "[fast-kernels]") {
  const Tensor a = noise({7, 33}, 3).transpose(0, 1);  // [33, 7], strided
  const Tensor b = noise({1, 7}, 4);                   // broadcast rows
  const Vec av = walk(a), bv = walk(b.broadcast_to({33, 7}));
  Vec sum(av.size()), prod(av.size()), quot(av.size());
  for (std::size_t k = 0; k < av.size(); ++k) {
    sum[k] = av[k] + bv[k];
    prod[k] = av[k] * bv[k];
    quot[k] = av[k] / bv[k];
  }
  CHECK(same_bits(llm::add(a, b).to_vector(), sum));
  CHECK(same_bits(llm::mul(a, b).to_vector(), prod));
  CHECK(same_bits(llm::div(a, b).to_vector(), quot));
  CHECK(llm::add(a, b).shape() == Shape{33, 7});
  CHECK_THROWS_AS(llm::add(a, noise({3, 5}, 5)), llm::ShapeError);
  const Vec neg = llm::map(a.slice(0, 1, 33), [](double v) { return -v; })
                      .to_vector();
  REQUIRE(neg.size() == 32 * 7);
  CHECK(neg[0] == -av[7]);  // row 1 of a, first column
}

TEST_CASE("zip meets a one-number operand as its broadcast did, bitwise",
          "[fast-kernels]") {
  const Tensor a = noise({7, 33}, 31).transpose(0, 1);  // [33, 7], strided
  const Vec av = walk(a);
  // One number as a scalar [], as [1, 1], and as a view at an offset.
  for (const Tensor& b : {Tensor(Shape{}, {0.37}), Tensor({1, 1}, {-2.5}),
                          noise({5}, 32).slice(0, 3, 4)}) {
    const double y = b.to_vector()[0];
    Vec sum(av.size()), quot(av.size());
    for (std::size_t k = 0; k < av.size(); ++k) {
      sum[k] = av[k] + y;
      quot[k] = av[k] / y;
    }
    CHECK(same_bits(llm::add(a, b).to_vector(), sum));
    CHECK(same_bits(llm::div(a, b).to_vector(), quot));
    CHECK(llm::add(a, b).shape() == llm::zip_shape(a.shape(), b.shape(),
                                                   "test"));
  }
  // One number on the left is met the same way by the general path.
  CHECK(same_bits(llm::sub(Tensor(Shape{}, {1.0}), a).to_vector(),
                  llm::map(a, [](double v) { return 1.0 - v; }).to_vector()));
}

TEST_CASE("reductions fold each axis in index order", "[fast-kernels]") {
  const Tensor x = noise({3, 65, 7}, 6).slice(1, 1, 34);  // [3, 33, 7] view
  const Vec xv = walk(x);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    Shape s = x.shape();
    s[axis] = 1;
    Vec want(llm::numel(s), 0.0);
    const std::size_t n = x.shape()[axis];
    std::size_t inner = 1;
    for (std::size_t a = axis + 1; a < 3; ++a) inner *= x.shape()[a];
    // Element (o, i, r) of x adds into (o, r), i = 0, 1, ... in turn.
    for (std::size_t o = 0; o < xv.size() / (n * inner); ++o) {
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t r = 0; r < inner; ++r) {
          want[o * inner + r] += xv[(o * n + i) * inner + r];
        }
      }
    }
    const Tensor got = llm::sum(x, axis);
    CHECK(got.shape() == s);
    CHECK(same_bits(got.to_vector(), want));
  }
  CHECK(llm::sum(Tensor({2, 0, 3}), 1).to_vector() == Vec(6, 0.0));
  const Vec row = noise({1, 7}, 7).to_vector();
  double top = row[0];
  for (double v : row) top = v > top ? v : top;
  CHECK(llm::max(noise({1, 7}, 7), 1).to_vector() == Vec{top});
  CHECK_THROWS_AS(llm::sum(x, 3), llm::IndexError);
}

TEST_CASE("matmul equals the i-p-j loop bitwise on odd shapes",
          "[fast-kernels]") {
  for_odd_shapes([](std::size_t m, std::size_t k, std::size_t n) {
    const Tensor a = noise({m, k}, 10 + m);
    const Tensor b = noise({k, n}, 20 + n);
    const Vec want = matmul_ipj(a.to_vector(), b.to_vector(), m, k, n);
    CHECK(same_bits(llm::matmul(a, b).to_vector(), want));
  });
}

TEST_CASE("matmul on views and batches equals the loop bitwise",
          "[fast-kernels]") {
  const ThreadsReset reset;
  for (std::size_t threads : {1, 2}) {
    llm::set_threads(threads);
    // a: a transposed slice with an offset; b: batch-broadcast.
    const Tensor a = noise({4, 70, 33}, 30).slice(1, 3, 68).transpose(1, 2);
    const Tensor b = noise({65, 130}, 31).slice(1, 1, 130);  // [65, 129]
    REQUIRE(a.shape() == Shape{4, 33, 65});
    const Tensor c = llm::matmul(a, b);
    REQUIRE(c.shape() == Shape{4, 33, 129});
    const Vec bv = walk(b);
    for (std::size_t t = 0; t < 4; ++t) {
      const Vec at = walk(a.slice(0, t, t + 1));
      const Vec want = matmul_ipj(at, bv, 33, 65, 129);
      CHECK(same_bits(walk(c.slice(0, t, t + 1)), want));
    }
    // b transposed (its panels gathered down columns) and b row-major
    // at an offset, 8 columns in a row: packed both ways, same bits.
    const Tensor bt = noise({17, 65}, 34).transpose(0, 1);  // [65, 17]
    const Tensor bs = noise({66, 30}, 35).slice(0, 1, 66).slice(1, 5, 22);
    for (const Tensor& bb : {bt, bs}) {
      const Tensor cb = llm::matmul(a, bb);
      for (std::size_t t = 0; t < 4; ++t) {
        const Vec want =
            matmul_ipj(walk(a.slice(0, t, t + 1)), walk(bb), 33, 65, 17);
        CHECK(same_bits(walk(cb.slice(0, t, t + 1)), want));
      }
    }
    // Large enough to be split over threads: 96 x 80 x 72 per batch.
    const Tensor x = noise({3, 96, 80}, 32), y = noise({3, 80, 72}, 33);
    const Tensor z = llm::matmul(x, y);
    for (std::size_t t = 0; t < 3; ++t) {
      const Vec want = matmul_ipj(walk(x.slice(0, t, t + 1)),
                                  walk(y.slice(0, t, t + 1)), 96, 80, 72);
      CHECK(same_bits(walk(z.slice(0, t, t + 1)), want));
    }
  }
}

TEST_CASE("matmul on a transposed or stretched a, read in place or "
          "copied by rows of four, gives the loop's bits",
          "[fast-kernels]") {
  for_odd_shapes([](std::size_t m, std::size_t k, std::size_t n) {
    // a = X^T: element (i, p) at X's [p, i], lda 1, step m. For m > 1,
    // n of 1 and 7 (under four panels) read it in place, 33 and 65 copy
    // it first; m = 1 has step 1 and is read in place.
    const Tensor a = noise({k, m}, 40 + m).transpose(0, 1);
    const Tensor b = noise({k, n}, 50 + n);
    const Vec want = matmul_ipj(walk(a), b.to_vector(), m, k, n);
    CHECK(same_bits(llm::matmul(a, b).to_vector(), want));
  });
  // Stride 0 inside the matrix: one row repeated (lda 0) and one column
  // repeated (step 0, never copied), against a batch of b that stretches
  // a's batch too.
  const Tensor rows = noise({1, 33}, 60).broadcast_to({7, 33});
  const Tensor cols = noise({7, 1}, 61).broadcast_to({7, 33});
  const Tensor b = noise({3, 33, 9}, 62);
  for (const Tensor& a : {rows, cols}) {
    const Tensor c = llm::matmul(a, b);
    REQUIRE(c.shape() == Shape{3, 7, 9});
    for (std::size_t t = 0; t < 3; ++t) {
      const Vec want = matmul_ipj(walk(a), walk(b.slice(0, t, t + 1)), 7, 33,
                                  9);
      CHECK(same_bits(walk(c.slice(0, t, t + 1)), want));
    }
  }
}

TEST_CASE("frozen_panels makes a frozen view's numbers once, keeps them "
          "while any FrozenBuffers holds the buffer, and not otherwise",
          "[fast-kernels]") {
  llm::Parameters params(9);
  const double* buffer = params.add("w", noise({65, 33}, 40)).buffer().data();
  int made = 0;
  const auto make = [&made] {
    ++made;
    return std::shared_ptr<const double[]>(new double[1]{1.0 * made});
  };
  const llm::MatrixView w{0, 65, 33, 33, 1}, w_t{0, 33, 65, 1, 33};
  llm::frozen_panels(buffer, w, make);  // not frozen: made every time
  llm::frozen_panels(buffer, w, make);
  CHECK(made == 2);
  {
    const llm::FrozenBuffers frozen(params);
    const auto first = llm::frozen_panels(buffer, w, make);
    CHECK(made == 3);
    CHECK(llm::frozen_panels(buffer, w, make) == first);  // kept
    CHECK(made == 3);
    llm::frozen_panels(buffer, w_t, make);  // another view: its own
    CHECK(made == 4);
    { const llm::FrozenBuffers nested(params); }  // ends; `frozen` holds on
    CHECK(llm::frozen_panels(buffer, w, make) == first);
    CHECK(made == 4);
  }
  llm::frozen_panels(buffer, w, make);  // thawed: the kept numbers are gone
  CHECK(made == 5);
}

TEST_CASE("matmul on frozen weights keeps their panels and gives the "
          "loop's bits, before and after an update in place",
          "[fast-kernels]") {
  const ThreadsReset reset;
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    llm::Parameters params(10);
    params.add("w", noise({65, 33}, 41));
    params.add("sq", noise({24, 24}, 45));  // W and W^T: same k, n
    // Right operands that view the two buffers: each whole, transposed,
    // and a slice at an offset; with the product's left operand.
    struct Case {
      Tensor b;
      Tensor x;
    };
    const auto cases = [&] {
      const Tensor w = params.list()[0].value, sq = params.list()[1].value;
      return std::vector<Case>{
          {w, noise({4, 7, 65}, 42)},  // 4 batches meet one w
          {w.transpose(0, 1), noise({7, 33}, 43)},
          {sq, noise({9, 24}, 46)},
          {sq.transpose(0, 1), noise({9, 24}, 47)},
          {sq.slice(0, 3, 24).slice(1, 1, 23), noise({2, 9, 21}, 48)},
          {w.slice(1, 8, 33), noise({5, 65}, 49)},
          // Two halves of sq: the same extents and strides, two offsets.
          {sq.slice(0, 0, 12), noise({9, 12}, 51)},
          {sq.slice(0, 12, 24), noise({9, 12}, 52)}};
    };
    const auto check = [&] {
      std::vector<Vec> got(8 * 4), want(8 * 4);
      // Each case four times, on as many threads as there are: the
      // first products pack, the others read kept panels (or race).
      llm::parallel_for(32, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const Case c = cases()[i / 4];
          const Tensor x = c.x.rank() == 2 ? c.x.reshape({1, c.x.shape()[0],
                                                          c.x.shape()[1]})
                                           : c.x;
          const std::size_t m = x.shape()[1], k = x.shape()[2],
                            n = c.b.shape()[1];
          const Tensor out = llm::matmul(x, c.b);
          for (std::size_t t = 0; t < x.shape()[0]; ++t) {
            const Vec one = walk(out.slice(0, t, t + 1));
            got[i].insert(got[i].end(), one.begin(), one.end());
            const Vec loop =
                matmul_ipj(walk(x.slice(0, t, t + 1)), walk(c.b), m, k, n);
            want[i].insert(want[i].end(), loop.begin(), loop.end());
          }
        }
      });
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(same_bits(got[i], want[i]));
      }
    };
    const Tensor sq = params.list()[1].value;
    const double* buffer = sq.buffer().data();
    int made = 0;
    const auto make = [&made] {
      ++made;
      return std::shared_ptr<const double[]>(new double[1]);
    };
    {
      const llm::FrozenBuffers frozen(params);
      check();
      // matmul kept the panels of sq^T: asking for them makes nothing.
      llm::frozen_panels(buffer, {0, 24, 24, 1, 24}, make);
      CHECK(made == 0);
    }
    llm::AdamW opt(params, {.lr = 0.5});
    opt.step(params, {{"w", noise({65, 33}, 44)}, {"sq", noise({24, 24}, 50)}});
    REQUIRE(params.list()[1].value.buffer().data() == buffer);  // in place
    const llm::FrozenBuffers frozen(params);
    check();  // the updated numbers, not the old panels
  }
}

TEST_CASE("the thread count is checked", "[fast-kernels]") {
  const ThreadsReset reset;
  CHECK(llm::thread_count() == 1);
  CHECK_THROWS_WITH(llm::set_threads(0),
                    "set_threads: count is 0, expected at least 1");
  CHECK(llm::thread_count() == 1);  // unchanged by the rejected call
  llm::set_threads(2);
  CHECK(llm::thread_count() == 2);
  // Every item is visited once, in chunks that cover [0, 10).
  std::vector<int> seen(10, 0);
  llm::parallel_for(10, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) seen[i] += 1;
  });
  CHECK(seen == std::vector<int>(10, 1));
  llm::parallel_for(0, [](std::size_t, std::size_t) { FAIL("no items"); });
}

TEST_CASE("kernels split over 1, 2 and 3 threads give the plain loops' "
          "bits", "[fast-kernels]") {
  const ThreadsReset reset;
  // Large enough to pass kParallelWork, odd extents, a view with an
  // offset; every operand layout zip and reduce tell apart.
  const Tensor x = noise({3, 129, 97}, 11).slice(1, 1, 128);  // [3,127,97]
  REQUIRE(x.numel() > llm::kParallelWork);
  const Tensor rows = noise({3, 127, 1}, 12);   // one number per row
  const Tensor cols = noise({1, 97}, 13);       // broadcast, stride 0
  const Tensor same = noise({3, 127, 97}, 14);  // the common shape
  const Tensor slab = noise({1, 401, 97}, 15);  // one outer slab
  const Vec xv = walk(x), rv = walk(rows.broadcast_to(x.shape()));
  const Vec cv = walk(cols.broadcast_to(x.shape())), sv = walk(same);
  Vec neg(xv.size()), by_row(xv.size()), by_col(xv.size()), diff(xv.size());
  for (std::size_t k = 0; k < xv.size(); ++k) {
    neg[k] = -1.5 * xv[k];
    by_row[k] = xv[k] - rv[k];
    by_col[k] = xv[k] * cv[k];
    diff[k] = xv[k] - sv[k];
  }
  // Row maxima (inner 1: four rows at a time) and the sum over axis 1
  // of one slab (threads split its columns), in index order.
  Vec top(3 * 127), down(97, 0.0);
  for (std::size_t r = 0; r < top.size(); ++r) {
    top[r] = xv[r * 97];
    for (std::size_t j = 1; j < 97; ++j) {
      top[r] = xv[r * 97 + j] > top[r] ? xv[r * 97 + j] : top[r];
    }
  }
  const Vec slab_v = walk(slab);
  for (std::size_t i = 0; i < 401; ++i) {
    for (std::size_t r = 0; r < 97; ++r) down[r] += slab_v[i * 97 + r];
  }
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    CHECK(same_bits(llm::map(x, [](double v) { return -1.5 * v; })
                        .to_vector(), neg));
    CHECK(same_bits(llm::sub(x, rows).to_vector(), by_row));
    CHECK(same_bits(llm::mul(x, cols).to_vector(), by_col));
    CHECK(same_bits(llm::sub(x, same).to_vector(), diff));
    CHECK(same_bits(llm::max(x, 2).to_vector(), top));
    CHECK(same_bits(llm::sum(slab, 1).to_vector(), down));
  }
}

TEST_CASE("the causal mask by rows marks what is_future marks, on any "
          "thread count", "[fast-kernels]") {
  const ThreadsReset reset;
  const std::size_t t = 37;
  const Tensor scores = noise({5, 7, t, t}, 16);  // 47915 elements
  REQUIRE(scores.numel() > llm::kParallelWork);
  const Vec sv = walk(scores);
  const Tensor seed = noise({5, 7, t, t}, 17);
  const Vec gv = walk(seed);
  Vec forward = sv, backward = gv;  // the simple loop, element by element
  for (std::size_t n = 0; n < sv.size(); ++n) {
    if (llm::is_future(n / t % t, n % t)) {
      forward[n] = -INFINITY;
      backward[n] = 0.0;
    }
  }
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    llm::Tape tape;
    const llm::Var x = tape.leaf(scores);
    const llm::Var y = llm::mask_future(x);
    tape.backward(y, seed);
    CHECK(same_bits(y.value().to_vector(), forward));
    CHECK(same_bits(x.grad().to_vector(), backward));
  }
}

TEST_CASE("an exception in a chunk reaches the caller as itself",
          "[fast-kernels]") {
  const ThreadsReset reset;
  llm::set_threads(3);
  const auto throw_from = [](std::size_t first) {
    return [first](std::size_t begin, std::size_t) {
      if (begin >= first) {
        throw llm::ShapeError("chunk at " + std::to_string(begin));
      }
    };
  };
  // Items 6, 7 and 8 throw, on whichever threads take their chunks.
  CHECK_THROWS_AS(llm::parallel_for(9, throw_from(6)), llm::ShapeError);
  CHECK_THROWS_WITH(llm::parallel_for(9, throw_from(6)), "chunk at 6");
  // Two chunks throw: the lowest chunk's exception, whatever the timing.
  for (int i = 0; i < 20; ++i) {
    CHECK_THROWS_WITH(llm::parallel_for(9, throw_from(3)), "chunk at 3");
  }
  // The helpers survive: every item once, and a nested loop runs inside
  // its chunk.
  std::vector<int> seen(9 * 9, 0);
  llm::parallel_for(9, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      llm::parallel_for(9, [&](std::size_t b2, std::size_t e2) {
        for (std::size_t j = b2; j < e2; ++j) seen[i * 9 + j] += 1;
      });
    }
  });
  CHECK(seen == std::vector<int>(9 * 9, 1));
  // Work below kParallelWork stays on one call.
  int calls = 0;
  llm::parallel_for(100, 10, [&](std::size_t, std::size_t) { ++calls; });
  CHECK(calls == 1);
}

TEST_CASE("a block's step gives the same bits on 1 and 2 threads, and its "
          "tape does not grow with the steps", "[fast-kernels]") {
  const ThreadsReset reset;
  const llm::DecoderBlockConfig config{
      .attention = {.d_model = 64, .heads = 2, .rope_base = 10000.0,
                    .capacity = 33},
      .ffn_width = 96};
  llm::Parameters params(5);
  llm::add_decoder_block_parameters(params, config);
  const Tensor x = noise({3, 33, 64}, 40);
  std::vector<Vec> runs;
  std::vector<std::size_t> sizes;
  for (std::size_t threads : {1, 2, 2}) {
    llm::set_threads(threads);
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, params);
    const llm::Var y = llm::decoder_block(
        tape.leaf(x), llm::decoder_block_weights(leaves), config).out;
    tape.backward(y, llm::probe_weights(y.shape()));
    Vec all = y.value().to_vector();
    for (const llm::NamedTensor& g : leaves.gradients()) {
      const Vec v = g.value.to_vector();
      all.insert(all.end(), v.begin(), v.end());
    }
    runs.push_back(all);
    sizes.push_back(tape.size());
  }
  CHECK(same_bits(runs[0], runs[1]));
  CHECK(same_bits(runs[1], runs[2]));
  CHECK(sizes[0] == sizes[1]);
  CHECK(sizes[1] == sizes[2]);
}

// The simple tape gave every node zeros and added each term to them, so
// a node's gradient was 0.0 + t1 + t2 + ...; the revised tape copies the
// first term. Element by element, 0.0 + (-0.0) is +0.0, and 0 * inf in
// the term an unreached node sends is NaN: the revision must keep both.
TEST_CASE("gradients keep the simple tape's bits: the sign of a first "
          "zero term, and zeros from a node nothing reached",
          "[fast-kernels]") {
  llm::Tape tape;
  const llm::Var x = tape.leaf(Tensor({2}, {1.0, 2.0}));
  const llm::Var c = tape.leaf(Tensor({2}, {-0.0, 3.0}));
  const llm::Var y = llm::mul(x, c);  // dy/dx = c: -0.0 and 3.0
  const llm::Var loss = llm::sum(y, 0);
  // A node after nothing the loss reads: its gradient stays empty
  // until read, then reads as zeros.
  const llm::Var w = tape.leaf(Tensor({1}, {5.0}));
  tape.backward(loss);
  const Vec gx = x.grad().to_vector();
  // 0.0 + 1 * (-0.0) = +0.0, exactly what add(zeros, term) gave.
  CHECK_FALSE(std::signbit(gx[0]));
  CHECK(gx[1] == 3.0);
  CHECK(w.grad().to_vector() == Vec{0.0});

  // inf * a zero gradient: the unreached mul still sends 0 * inf = NaN
  // to its inputs, as the simple tape's sweep did.
  llm::Tape t2;
  const llm::Var a = t2.leaf(Tensor({1}, {2.0}));
  const llm::Var inf = t2.leaf(Tensor({1}, {INFINITY}));
  const llm::Var unused = llm::mul(a, inf);  // nothing reads it
  const llm::Var l2 = llm::sum(llm::mul(a, a), 0);
  (void)unused;
  t2.backward(l2);
  // a's gradient: 0 (from unused, 0 * inf = NaN) + 2a = NaN.
  CHECK(std::isnan(a.grad().to_vector()[0]));
}

// The simple tape's gradient of a node sent terms t1, t2, ...:
// zeros + t1 + t2 + ..., each add a new tensor.
Vec simple_sum(const std::vector<Tensor>& terms) {
  Tensor sum(terms.front().shape());
  for (const Tensor& t : terms) sum = llm::add(sum, t);
  return sum.to_vector();
}

TEST_CASE("sole_data: only the one holder of a whole row-major buffer",
          "[fast-kernels]") {
  Tensor t = noise({7, 33}, 5);
  CHECK(t.sole_data() == t.buffer().data());
  Tensor copy = t;  // a second handle
  CHECK(t.sole_data() == nullptr);
  CHECK(copy.sole_data() == nullptr);
  copy = Tensor({1});
  CHECK(t.sole_data() != nullptr);
  Tensor slice = noise({9, 33}, 6).slice(0, 2, 9);  // offset, one holder
  CHECK(slice.sole_data() == nullptr);
  Tensor first = noise({9, 33}, 6).slice(0, 0, 7);  // part of its buffer
  CHECK(first.sole_data() == nullptr);
  Tensor flipped = noise({33, 7}, 7).transpose(0, 1);
  CHECK(flipped.sole_data() == nullptr);
}

TEST_CASE("accumulate in place or into a temporary's buffer gives add's "
          "bits on odd shapes and views, and leaves other holders alone",
          "[fast-kernels]") {
  ThreadsReset reset;
  for (const std::size_t threads : {1, 2}) {
    llm::set_threads(threads);
    for (const Shape& shape : {Shape{1}, Shape{7}, Shape{33}, Shape{65},
                               Shape{7, 33}, Shape{3, 5, 9}}) {
      const std::size_t n = llm::numel(shape);
      // Terms: a -0.0 among the first, a transposed view, a view at an
      // offset into a larger buffer.
      Vec v1 = noise({n}, 11).to_vector();
      v1[0] = -0.0;
      const Tensor t1 = Tensor({n}, v1).reshape(shape);
      Shape wide = shape;
      wide.front() += 3;
      const Tensor t2 = noise(wide, 12).slice(0, 2, shape.front() + 2);
      const Tensor t3 = noise({n}, 13).reshape(shape);
      const Vec expected = simple_sum({t1, t2, t3, t3});
      const Vec before1 = t1.to_vector(), before2 = t2.to_vector();

      llm::Tape tape;  // lvalue terms: the first copied, the rest in place
      const llm::Var x = tape.leaf(Tensor(shape));
      x.accumulate(t1);
      x.accumulate(t2);
      x.accumulate(t3);
      x.accumulate(t3);
      CHECK(same_bits(x.grad().to_vector(), expected));
      CHECK(same_bits(t1.to_vector(), before1));
      CHECK(same_bits(t2.to_vector(), before2));

      // Temporaries: the first becomes the gradient, a view is copied.
      const llm::Var y = tape.leaf(Tensor(shape));
      y.accumulate(t1.contiguous());
      CHECK_FALSE(std::signbit(y.grad().to_vector()[0]));  // 0.0 + -0.0
      y.accumulate(noise(wide, 12).slice(0, 2, shape.front() + 2));
      y.accumulate(t3.contiguous());
      y.accumulate(t3.contiguous());
      CHECK(same_bits(y.grad().to_vector(), expected));

      // A gradient someone else holds is not written in place.
      const llm::Var z = tape.leaf(Tensor(shape));
      z.accumulate(t1.contiguous());
      const Tensor held = z.grad();
      const Vec held_before = held.to_vector();
      z.accumulate(t2);
      z.accumulate(t3.contiguous());
      z.accumulate(t3);
      CHECK(same_bits(held.to_vector(), held_before));
      CHECK(same_bits(z.grad().to_vector(), expected));

      // A transposed first term: [n0, rest] read through its strides.
      if (shape.size() == 2) {
        const Shape flip{shape[1], shape[0]};
        const Tensor tt = noise(flip, 14).transpose(0, 1);
        const llm::Var w = tape.leaf(Tensor(shape));
        w.accumulate(noise(flip, 14).transpose(0, 1));
        w.accumulate(tt);
        CHECK(same_bits(w.grad().to_vector(), simple_sum({tt, tt})));
      }
      CHECK_THROWS_AS(y.accumulate(Tensor({n + 1})), llm::ShapeError);
    }
  }
}

TEST_CASE("a first term whose 0.0 + x is x bit for bit becomes the "
          "gradient's buffer; one with -0 or a signalling NaN, or a view, "
          "is copied; accumulate writes into neither",
          "[fast-kernels]") {
  const Tensor t = noise({7, 33}, 41);  // no zeros at all
  const Vec before = t.to_vector();
  llm::Tape tape;
  const llm::Var x = tape.leaf(Tensor({7, 33}));
  x.accumulate(t);
  CHECK(x.grad().shares_buffer_with(t));  // shared, not copied
  CHECK(same_bits(x.grad().to_vector(), before));
  const Tensor t2 = noise({7, 33}, 42);
  x.accumulate(t2);  // the buffer is held twice: a new one for the sum
  CHECK_FALSE(x.grad().shares_buffer_with(t));
  CHECK(same_bits(t.to_vector(), before));
  CHECK(same_bits(x.grad().to_vector(), simple_sum({t, t2})));

  Vec with_zero = before;
  with_zero[5] = -0.0;
  const Tensor tz({7, 33}, with_zero);
  const llm::Var y = tape.leaf(Tensor({7, 33}));
  y.accumulate(tz);
  CHECK_FALSE(y.grad().shares_buffer_with(tz));  // copied: -0 becomes +0
  CHECK_FALSE(std::signbit(y.grad().to_vector()[5]));
  CHECK(std::signbit(tz.to_vector()[5]));
  CHECK(same_bits(y.grad().to_vector(), simple_sum({tz})));

  // A signalling NaN: 0.0 + x makes it quiet, so it is copied.
  Vec with_nan = before;
  with_nan[9] = std::bit_cast<double>(std::uint64_t{0x7ff0000000000001});
  const Tensor tn({7, 33}, with_nan);
  const llm::Var q = tape.leaf(Tensor({7, 33}));
  q.accumulate(tn);
  CHECK_FALSE(q.grad().shares_buffer_with(tn));
  CHECK(same_bits(q.grad().to_vector(), simple_sum({tn})));

  // A quiet NaN is shared exactly when 0.0 + x gives back its bits, as
  // x86-64 does (it keeps a quiet NaN's payload); either way the
  // gradient has the bits of the simple code's 0.0 + x.
  Vec with_quiet = before;
  with_quiet[20] = std::bit_cast<double>(std::uint64_t{0x7ff8000000000123});
  const Tensor tq({7, 33}, with_quiet);
  volatile double zero = 0.0;  // added at run time, not folded
  const bool kept = std::bit_cast<std::uint64_t>(zero + with_quiet[20]) ==
                    std::bit_cast<std::uint64_t>(with_quiet[20]);
  const llm::Var u = tape.leaf(Tensor({7, 33}));
  u.accumulate(tq);
  CHECK(u.grad().shares_buffer_with(tq) == kept);
  CHECK(same_bits(u.grad().to_vector(), simple_sum({tq})));

  const Tensor flipped = noise({33, 7}, 43).transpose(0, 1);
  const llm::Var z = tape.leaf(Tensor({7, 33}));
  z.accumulate(flipped);
  CHECK_FALSE(z.grad().shares_buffer_with(flipped));
  CHECK(same_bits(z.grad().to_vector(), simple_sum({flipped})));
}

TEST_CASE("gather and scatter_add by rows give the element walk's bits, "
          "on a view and with repeated ids",
          "[fast-kernels]") {
  const Tensor table = noise({5, 9}, 51).transpose(0, 1);  // [9, 5] view
  const std::vector<std::size_t> ids{4, 0, 4, 8, 4, 2, 0};
  llm::Tape tape;
  const llm::Var leaf = tape.leaf(table);
  const llm::Var rows = llm::gather(leaf, ids);  // [7, 5]
  Vec expected_rows;
  for (std::size_t id : ids) {
    for (std::size_t j = 0; j < 5; ++j) {
      expected_rows.push_back(table.at({id, j}));
    }
  }
  CHECK(same_bits(rows.value().to_vector(), expected_rows));

  const Tensor g = noise({5, 7}, 52).transpose(0, 1);  // [7, 5] view
  Vec sums(9 * 5, 0.0);  // the simple code: zeros, then += in id order
  for (std::size_t i = 0; i < ids.size(); ++i) {
    for (std::size_t j = 0; j < 5; ++j) sums[ids[i] * 5 + j] += g.at({i, j});
  }
  CHECK(same_bits(llm::scatter_add(g, ids, 9).to_vector(), sums));
  tape.backward(rows, g);
  Vec expected_grad(sums.size());
  for (std::size_t k = 0; k < sums.size(); ++k) expected_grad[k] = 0.0 + sums[k];
  CHECK(same_bits(leaf.grad().to_vector(), expected_grad));
  CHECK_THROWS_AS(llm::gather(leaf, {9}), llm::IndexError);
  CHECK(message_of<llm::IndexError>([&] { llm::scatter_add(g, {4, 0, 4, 9, 4, 2, 0}, 9); }) ==
        "scatter_add: id 9 at position 3 is outside a table of 9 rows");
  CHECK(message_of<llm::ShapeError>([&] { llm::scatter_add(g, {4, 0}, 9); }) ==
        "scatter_add: g is [7,5], expected [n, d] with n = 2 ids");
}

TEST_CASE("nll's gradient: +0 everywhere but each row's target, which "
          "gets 0 + -g / N, shared or copied",
          "[fast-kernels]") {
  const Tensor logp = noise({5, 7}, 61);
  const std::vector<std::size_t> targets{3, 0, 3, 6, 1};
  llm::Tape tape;
  const llm::Var x = tape.leaf(logp);
  const llm::Var loss = llm::nll(x, targets);
  double total = 0.0;
  for (std::size_t i = 0; i < 5; ++i) total -= logp.at({i, targets[i]});
  CHECK(same_bits(loss.value().to_vector(), Vec{total / 5.0}));
  // Seeds 0.7, +0 (-g / N is -0: nll's zeros are copied, and 0.0 + -0
  // is +0) and -0 (+0 at the targets).
  for (const double seed : {0.7, 0.0, -0.0}) {
    tape.backward(loss, Tensor(Shape{}, {seed}));
    Vec expected(5 * 7, 0.0);
    for (std::size_t i = 0; i < 5; ++i) {
      expected[i * 7 + targets[i]] = 0.0 + -seed / 5.0;
    }
    CHECK(same_bits(x.grad().to_vector(), expected));
  }
  CHECK_THROWS_AS(llm::nll(x, {3, 0, 3, 6, 7}), llm::IndexError);
}

TEST_CASE("AdamW gives each thread whole parameters and the one-thread "
          "bits; parameters on one buffer stay in registry order",
          "[fast-kernels]") {
  const ThreadsReset reset;
  // Several parameters of different sizes (a large one, as the
  // embedding is, and small ones), two steps of made-up gradients.
  const auto run = [](std::size_t threads, bool shared) {
    llm::set_threads(threads);
    llm::Parameters p(27);
    const Tensor big = noise({300, 17}, 30).contiguous();
    p.add("embed.weight", big);
    p.add("w", noise({17, 9}, 31).contiguous());
    p.add("gain", noise({9}, 32).contiguous());
    if (shared) p.add("alias", big);  // the same buffer under a second name
    llm::AdamW opt(p, {.lr = 1e-2, .weight_decay = 0.1});
    for (std::uint64_t s = 0; s < 2; ++s) {
      std::vector<llm::NamedTensor> g;
      for (const llm::NamedTensor& n : p.list()) {
        g.push_back({n.name, noise(n.value.shape(), 40 + s).contiguous()});
      }
      opt.step(p, g);
    }
    Vec out;
    for (const llm::NamedTensor& n : p.list()) {
      const Vec v = walk(n.value);
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  };
  for (bool shared : {false, true}) {
    const Vec one = run(1, shared);
    CHECK(same_bits(run(2, shared), one));
    CHECK(same_bits(run(3, shared), one));
  }
}

TEST_CASE("AdamW writes a row-major parameter through its buffer, at an "
          "offset or not, and a view through set, with the same bits",
          "[fast-kernels]") {
  const auto run = [](const Tensor& start) {
    llm::Parameters p(27);
    p.add("w", start);
    llm::AdamW opt(p, {.lr = 1e-2, .weight_decay = 0.1});
    for (std::uint64_t s = 0; s < 3; ++s) {
      opt.step(p, {{"w", noise({7, 33}, 60 + s)}});
    }
    return walk(p.list()[0].value);
  };
  // The same values as a fresh [7, 33] tensor, a slice at an offset
  // and a transposed view of a [33, 7] buffer.
  const Tensor w = noise({7, 33}, 50).contiguous();
  const Vec want = run(w.contiguous());
  Vec padded(2 * 33, 1.5);  // two rows before w's
  const Vec wv = w.to_vector();
  padded.insert(padded.end(), wv.begin(), wv.end());
  const Tensor at_offset = Tensor({9, 33}, padded).slice(0, 2, 9);
  REQUIRE(at_offset.offset() == 2 * 33);
  CHECK(same_bits(run(at_offset), want));
  const Tensor view = w.transpose(0, 1).contiguous().transpose(0, 1);
  REQUIRE_FALSE(view.is_contiguous());
  CHECK(same_bits(run(view), want));
}

TEST_CASE("AdamW's check names the first non-finite gradient element in "
          "row-major order, read in place or through a view, and changes "
          "nothing", "[fast-kernels]") {
  // The simple check_step copies the gradient with to_vector and throws
  // at the first element std::isfinite rejects, printing it with
  // std::to_string ("inf", "-inf"); the fast one must find the same
  // element. With two doubles a vector instruction, an odd length's
  // last element is the scalar remainder's; a bad element alone in the
  // body (position 4) and alone in the remainder are both caught.
  const double inf = std::numeric_limits<double>::infinity();
  const double huge = std::numeric_limits<double>::max();  // finite
  const auto message = [](const Tensor& grad) {
    llm::Parameters p(27);
    p.add("w", Tensor(grad.shape()));
    llm::AdamW opt(p, {.lr = 1e-2});
    const Vec before = walk(p.list()[0].value);
    const std::string m = message_of<llm::DomainError>(
        [&] { opt.step(p, {{"w", grad}}); });
    CHECK(same_bits(walk(p.list()[0].value), before));
    CHECK(opt.state().step == 0);
    return m;
  };
  for (const std::size_t n : {7u, 33u, 65u}) {
    Vec v(n, huge);
    v[4] = -inf;  // in the vector body, the only bad element
    CHECK(message(Tensor({n}, v)) == "AdamW::step: gradient of 'w' holds -inf");
  }
  for (const std::size_t n : {1u, 7u, 33u, 65u}) {
    Vec v(n, huge);  // every element finite, the largest double
    v[n - 1] = -inf;
    CHECK(message(Tensor({n}, v)) == "AdamW::step: gradient of 'w' holds -inf");
    if (n > 1) {
      v[n / 2] = inf;  // the first in order wins
      CHECK(message(Tensor({n}, v)) == "AdamW::step: gradient of 'w' holds inf");
    }
  }
  // A transposed view: buffer order and row-major order disagree. The
  // buffer [3, 2] holds -inf at (0, 1) and inf at (1, 0); the view
  // [2, 3] reads (0, 0) (0, 1) (0, 2) = buffer 0, 2, 4, so +inf (buffer
  // position 2) comes first in row-major order, -inf (position 1) later.
  const Tensor t = Tensor({3, 2}, {0.5, -inf, inf, 1.0, 2.0, 3.0}).transpose(0, 1);
  REQUIRE_FALSE(t.is_contiguous());
  CHECK(message(t) == "AdamW::step: gradient of 'w' holds inf");
  // Row-major slices at an offset are read in place: the element
  // before the slice is not the gradient's, the one at its end is.
  const Tensor after_inf = Tensor({4}, {inf, 1.0, 2.0, 3.0}).slice(0, 1, 4);
  const Tensor ends_inf = Tensor({4}, {1.0, 2.0, 3.0, inf}).slice(0, 1, 4);
  REQUIRE(after_inf.is_contiguous());
  REQUIRE(after_inf.offset() == 1);
  {
    llm::Parameters p(27);
    p.add("w", Tensor({3}));
    llm::AdamW opt(p, {.lr = 1e-2});
    CHECK_NOTHROW(opt.step(p, {{"w", after_inf}}));
  }
  CHECK(message(ends_inf) == "AdamW::step: gradient of 'w' holds inf");
  // A NaN is not finite either; std::to_string prints it as nan or -nan.
  const std::string nan_message =
      message(Tensor({7}, {0, 1, 2, 3, 4, std::nan(""), 6}));
  CHECK(nan_message.rfind("AdamW::step: gradient of 'w' holds ", 0) == 0);
  CHECK(nan_message.find("nan") != std::string::npos);
  // Every finite gradient, the largest included, passes.
  llm::Parameters p(27);
  p.add("w", Tensor({33}));
  llm::AdamW opt(p, {.lr = 1e-2});
  CHECK_NOTHROW(opt.step(p, {{"w", Tensor({33}, Vec(33, huge))}}));
}

TEST_CASE("AdamW reads a gradient that lies on a parameter's buffer as "
          "the simple loop does, on any number of threads",
          "[fast-kernels]") {
  const ThreadsReset reset;
  // The simple loop copies each parameter's gradient (to_vector) just
  // before updating that parameter, in registry order. So the expected
  // result of each case is the same step given, instead of the shared
  // gradient, an independent copy of the values the simple loop would
  // copy: taken before the step when nothing before the parameter in
  // the registry writes them.
  const auto values = [](const llm::Parameters& p) {
    Vec out;
    for (const llm::NamedTensor& n : p.list()) {
      const Vec v = walk(n.value);
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  };
  for (const std::size_t threads : {1u, 2u, 3u}) {
    llm::set_threads(threads);
    // The gradient is the parameter's own buffer, one element behind:
    // parameter element k is buffer k + 1, gradient element k buffer k.
    const auto own = [&](bool copy) {
      const Tensor buffer = noise({4097}, 70).contiguous();
      llm::Parameters p(27);
      p.add("w", buffer.slice(0, 1, 4097));
      const Tensor grad = buffer.slice(0, 0, 4096);
      llm::AdamW opt(p, {.lr = 1e-2, .weight_decay = 0.1});
      opt.step(p, {{"w", copy ? grad.contiguous() : grad}});
      return values(p);
    };
    CHECK(same_bits(own(false), own(true)));
  }
  // Parameter a's gradient is parameter b itself. The simple loop reads
  // b before b's update when a comes first in the registry, after it
  // when b comes first; so does one thread reading b in place, in
  // registry order. Any number of threads must give those bits (with
  // threads splitting the parameters, a would race with b's update).
  const auto cross = [&](std::size_t threads, bool a_first, bool copy) {
    llm::set_threads(threads);
    llm::Parameters p(27);
    const Tensor a = noise({256, 257}, 71).contiguous();
    const Tensor b = noise({256, 257}, 72).contiguous();
    if (a_first) p.add("a", a);
    p.add("b", b);
    if (!a_first) p.add("a", a);
    llm::AdamW opt(p, {.lr = 1e-2});
    opt.step(p, {{"a", copy ? b.contiguous() : b},
                 {"b", noise({256, 257}, 73).contiguous()}});
    return values(p);
  };
  CHECK(same_bits(cross(1, true, false), cross(1, true, true)));
  for (const bool a_first : {true, false}) {
    const Vec one = cross(1, a_first, false);
    CHECK(same_bits(cross(2, a_first, false), one));
    CHECK(same_bits(cross(3, a_first, false), one));
  }
}

namespace {

// Scores with the cases a row kernel must keep: causal -inf runs, a
// row of -inf only, +inf and NaN. [5, 7, 33] as a view with an offset
// (slice) and gaps, so that the kernels read a row-major copy.
Tensor softmax_cases() {
  const Tensor base = noise({5, 9, 40}, 50);
  std::vector<double> v = base.to_vector();
  for (std::size_t n = 0; n < v.size(); ++n) {
    const std::size_t i = n / 40 % 9, c = n % 40;
    if (c > 3 + 4 * i) v[n] = -INFINITY;  // a causal mask, 4 keys a row
  }
  for (std::size_t c = 0; c < 40; ++c) v[2 * 40 + c] = -INFINITY;
  v[3 * 40 + 10] = INFINITY;
  v[4 * 40 + 7] = NAN;
  return Tensor(base.shape(), std::move(v)).slice(1, 1, 8).slice(2, 3, 36);
}

// The simple versions: the whole-tensor operations the stable-softmax
// and model-op-gradients chapters compose, along the last axis.
Tensor simple_softmax(const Tensor& x) {
  const std::size_t a = x.rank() - 1;
  const Tensor e = llm::map(llm::sub(x, llm::max(x, a)),
                            [](double v) { return std::exp(v); });
  return llm::div(e, llm::sum(e, a));
}

Tensor simple_log_softmax(const Tensor& x) {
  const std::size_t a = x.rank() - 1;
  const Tensor z = llm::sub(x, llm::max(x, a));
  const Tensor s = llm::sum(llm::map(z, [](double v) { return std::exp(v); }),
                            a);
  return llm::sub(z, llm::map(s, [](double v) { return std::log(v); }));
}

}  // namespace

TEST_CASE("softmax and log_softmax by rows equal the composed operations "
          "bitwise, masked keys included", "[fast-kernels]") {
  const ThreadsReset reset;
  const Tensor cases = softmax_cases();  // [5, 7, 33], a view
  REQUIRE(cases.offset() > 0);
  const std::vector<Tensor> inputs = {
      cases, cases.transpose(1, 2), noise({1}, 51), noise({7}, 52),
      noise({65, 1}, 53), noise({3, 65}, 54), noise({2, 33, 7}, 55),
      noise({3, 129, 97}, 56)};  // the last above kParallelWork
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    for (const Tensor& x : inputs) {
      CHECK(same_bits(llm::softmax(x).to_vector(),
                      simple_softmax(x).to_vector()));
      CHECK(same_bits(llm::log_softmax(x).to_vector(),
                      simple_log_softmax(x).to_vector()));
    }
  }
  // Half of a causal row's exps are skipped; they were exactly +0.
  const Vec p = llm::softmax(cases).to_vector();
  CHECK(p[32] == 0.0);
  CHECK_FALSE(std::signbit(p[32]));
  CHECK_THROWS_AS(llm::softmax(Tensor({3, 0})), llm::ShapeError);
}

TEST_CASE("softmax and log_softmax backward by rows equal the composed "
          "operations bitwise", "[fast-kernels]") {
  const ThreadsReset reset;
  const std::vector<Shape> shapes = {{1}, {7}, {65, 1}, {3, 65}, {2, 33, 7},
                                     {3, 129, 97}};
  for (std::size_t threads : {1, 2, 3}) {
    llm::set_threads(threads);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& s = shapes[i];
      const Tensor x = noise(s, 60 + i);
      // The incoming gradient as a view with an offset and gaps.
      Shape wide = s;
      wide.back() += 2;
      const Tensor g = noise(wide, 70 + i).slice(s.size() - 1, 1,
                                                 s.back() + 1);
      const std::size_t a = s.size() - 1;
      llm::Tape tape;
      const llm::Var xs = tape.leaf(x);
      const llm::Var p = llm::softmax(xs);
      tape.backward(p, g);
      // p * (g - sum(g p)), as the self-attention chapter wrote it.
      const Tensor pv = p.value();
      const Tensor want_s = llm::mul(
          pv, llm::sub(g, llm::sum(llm::mul(g, pv), a)));
      CHECK(same_bits(xs.grad().to_vector(), want_s.to_vector()));

      llm::Tape tape2;
      const llm::Var xl = tape2.leaf(x);
      const llm::Var y = llm::log_softmax(xl);
      tape2.backward(y, g);
      // g - exp(y) * sum(g), as the model-op-gradients chapter wrote it.
      const Tensor ey = llm::map(y.value(), [](double v) {
        return std::exp(v);
      });
      const Tensor want_l = llm::sub(g, llm::mul(ey, llm::sum(g, a)));
      CHECK(same_bits(xl.grad().to_vector(), want_l.to_vector()));
    }
  }
}
