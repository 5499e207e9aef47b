// The exercise tests of the training chapter. They call the exercise's
// scheduled_rate and clip_global (starter.cpp, once fixed) on examples
// worked out by hand in the comments. Each test names what it checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "exercise.hpp"

namespace {

// Warm-up of 4 steps to 0.8, then 8 steps of cosine decay to 0.2.
const llm::Schedule sched{.lr_max = 0.8, .lr_min = 0.2, .warmup = 4,
                          .steps = 12};

}  // namespace

TEST_CASE("the warm-up rises by lr_max / warmup per step, from the first") {
  // 0.8 (s + 1) / 4: 0.2, 0.4, 0.6, 0.8. Step 0 must not be zero.
  CHECK(exercise::scheduled_rate(sched, 0) == Approx(0.2).margin(1e-12));
  CHECK(exercise::scheduled_rate(sched, 1) == Approx(0.4).margin(1e-12));
  CHECK(exercise::scheduled_rate(sched, 3) == Approx(0.8).margin(1e-12));
}

TEST_CASE("the decay is halfway at its middle and ends at lr_min") {
  // p = (s + 1 - 4) / 8: step 7 gives p = 1/2, the mean 0.5; step 11
  // gives p = 1, cos(pi) = -1, lr_min = 0.2.
  CHECK(exercise::scheduled_rate(sched, 7) == Approx(0.5).margin(1e-12));
  CHECK(exercise::scheduled_rate(sched, 11) == Approx(0.2).margin(1e-12));
}

TEST_CASE("the rate never rises during the decay") {
  for (std::size_t s = 4; s < 12; ++s) {
    INFO("step " << s);
    CHECK(exercise::scheduled_rate(sched, s) <=
          exercise::scheduled_rate(sched, s - 1));
  }
}

TEST_CASE("clipping halves both vectors when the global norm is twice "
          "the threshold") {
  // a = [3, 4], b = [12]: the global norm is sqrt(9 + 16 + 144) = 13.
  // Clipped at 6.5, both are halved: [1.5, 2] and [6]. Clipping b alone
  // by its own norm would leave a unchanged and give b = [6.5].
  std::vector<std::vector<double>> g = {{3.0, 4.0}, {12.0}};
  CHECK(exercise::clip_global(g, 6.5) == Approx(13.0).margin(1e-12));
  CHECK(g[0][0] == Approx(1.5).margin(1e-12));
  CHECK(g[0][1] == Approx(2.0).margin(1e-12));
  CHECK(g[1][0] == Approx(6.0).margin(1e-12));
}

TEST_CASE("clipping leaves a gradient below the threshold alone") {
  std::vector<std::vector<double>> g = {{3.0, 4.0}, {12.0}};
  CHECK(exercise::clip_global(g, 20.0) == Approx(13.0).margin(1e-12));
  CHECK(g == std::vector<std::vector<double>>{{3.0, 4.0}, {12.0}});
}
