// Tests for chapter parameters-init: the SplitMix64 generator against its
// published outputs, uniform and normal draws, the FNV-1a name hash, the
// fan-in initialisers and the named-parameter registry. Uses only what
// chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "llm/error.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/tensor.hpp"
#include "message_of.hpp"

namespace {

struct Moments {
  double mean;
  double var;
};

// Sample mean and population variance.
Moments moments(const std::vector<double>& xs) {
  double sum = 0.0, squares = 0.0;
  for (const double x : xs) sum += x;
  const double mean = sum / static_cast<double>(xs.size());
  for (const double x : xs) squares += (x - mean) * (x - mean);
  return {mean, squares / static_cast<double>(xs.size())};
}

std::vector<double> draws(std::uint64_t seed, std::size_t n, bool normal) {
  llm::Rng rng(seed);
  std::vector<double> xs(n);
  for (double& x : xs) x = normal ? rng.normal() : rng.uniform();
  return xs;
}

// The first n outputs of llm::Rng from `seed`.
std::vector<std::uint64_t> first_outputs(std::uint64_t seed, std::size_t n) {
  llm::Rng rng(seed);
  std::vector<std::uint64_t> out(n);
  for (std::uint64_t& x : out) x = rng.next_u64();
  return out;
}

}  // namespace

TEST_CASE("SplitMix64 gives the published outputs",
          "[parameters-init]") {
  // Published reference outputs of splitmix64.c (Vigna) for seed 0.
  REQUIRE(first_outputs(0, 3) ==
          std::vector<std::uint64_t>{0xe220a8397b1dcdafULL,
                                     0x6e789e6aa1b965f4ULL,
                                     0x06c45d188009454fULL});
  // The widely published test vector of SplitMix64 for seed 1234567.
  REQUIRE(first_outputs(1234567, 5) ==
          std::vector<std::uint64_t>{
              6457827717110365317ULL, 3203168211198807973ULL,
              9817491932198370423ULL, 4593380528125082431ULL,
              16408922859458223821ULL});
}

TEST_CASE("the state advances by gamma and the output is mix64 of it",
          "[parameters-init]") {
  const std::uint64_t gamma = 0x9e3779b97f4a7c15ULL;
  llm::Rng rng(5);
  const std::uint64_t x = rng.next_u64();
  REQUIRE(rng.state() == 5 + gamma);
  REQUIRE(x == llm::mix64(5 + gamma));
  // A copy continues exactly where the original stands.
  llm::Rng copy = rng;
  REQUIRE(copy.next_u64() == rng.next_u64());
}

TEST_CASE("uniform keeps the top 53 bits exactly",
          "[parameters-init]") {
  // By hand: 0xe220a8397b1dcdaf >> 11 = 0x1c4415072f63b9.
  llm::Rng rng(0);
  REQUIRE(rng.uniform() == 0x1c4415072f63b9 * 0x1.0p-53);
  REQUIRE(rng.uniform() ==
          static_cast<double>(0x6e789e6aa1b965f4ULL >> 11) * 0x1.0p-53);
}

TEST_CASE("uniform draws lie in [0, 1) with mean 1/2 and variance 1/12",
          "[parameters-init]") {
  const std::vector<double> u = draws(42, 100000, false);
  for (const double x : u) {
    REQUIRE(x >= 0.0);
    REQUIRE(x < 1.0);
  }
  // For n = 1e5 the standard error of the mean is sqrt(1/12/n) = 9.1e-4
  // and of the variance sqrt((1/80 - 1/144)/n) = 2.4e-4; the tolerances
  // are five standard errors, so a correct generator fails with
  // probability below 1e-6 whatever the seed.
  const Moments m = moments(u);
  REQUIRE(m.mean == Approx(0.5).margin(5 * 9.1e-4));
  REQUIRE(m.var == Approx(1.0 / 12.0).margin(5 * 2.4e-4));
}

TEST_CASE("normal draws have mean 0 and variance 1",
          "[parameters-init]") {
  const std::vector<double> z = draws(7, 100000, true);
  // Standard errors for n = 1e5: mean 1/sqrt(n) = 3.2e-3, variance
  // sqrt(2/n) = 4.5e-3. Tolerances are five standard errors.
  const Moments m = moments(z);
  REQUIRE(m.mean == Approx(0.0).margin(5 * 3.2e-3));
  REQUIRE(m.var == Approx(1.0).margin(5 * 4.5e-3));
  // About 68.27% within one standard deviation; the standard error of
  // that fraction is sqrt(0.68 * 0.32 / n) = 1.5e-3.
  double inside = 0.0;
  for (const double x : z) inside += std::fabs(x) < 1.0 ? 1.0 : 0.0;
  REQUIRE(inside / 1e5 == Approx(0.682689).margin(5 * 1.5e-3));
}

TEST_CASE("normal is Box-Muller of exactly two uniforms",
          "[parameters-init]") {
  llm::Rng rng(11), twin(11);
  const double z = rng.normal();
  const double u1 = twin.uniform(), u2 = twin.uniform();
  REQUIRE(z == std::sqrt(-2.0 * std::log(1.0 - u1)) *
                   std::cos(2.0 * 3.14159265358979323846 * u2));
  REQUIRE(rng.state() == twin.state());
}

TEST_CASE("FNV-1a gives the published hashes",
          "[parameters-init]") {
  // Published FNV-1a 64-bit test vectors (Fowler, Noll, Vo).
  REQUIRE(llm::fnv1a64("") == 0xcbf29ce484222325ULL);
  REQUIRE(llm::fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  REQUIRE(llm::fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

TEST_CASE("derived seeds depend on the base seed and the name",
          "[parameters-init]") {
  REQUIRE(llm::derive_seed(42, "w") == llm::derive_seed(42, "w"));
  REQUIRE(llm::derive_seed(42, "w") != llm::derive_seed(43, "w"));
  REQUIRE(llm::derive_seed(42, "w") != llm::derive_seed(42, "b"));
  // By definition: mix64(base ^ fnv1a64(name)).
  REQUIRE(llm::derive_seed(0, "") == llm::mix64(0xcbf29ce484222325ULL));
}

TEST_CASE("fan-in initialisers have the stated scale",
          "[parameters-init]") {
  // By hand: 1/sqrt(4) = 0.5 and sqrt(3/12) = 0.5.
  REQUIRE(llm::fan_in_normal(4).scale == 0.5);
  REQUIRE(llm::fan_in_normal(4).distribution == llm::Distribution::normal);
  REQUIRE(llm::fan_in_uniform(12).scale == 0.5);
  REQUIRE(llm::fan_in_uniform(12).distribution ==
          llm::Distribution::uniform);
  REQUIRE(message_of<llm::ConfigError>([] { llm::fan_in_normal(0); }) ==
          "fan_in_normal: fan_in must be > 0");
  REQUIRE(message_of<llm::ConfigError>([] { llm::fan_in_uniform(0); }) ==
          "fan_in_uniform: fan_in must be > 0");
}

TEST_CASE("init_tensor fills constants, bounded uniforms and normals",
          "[parameters-init]") {
  llm::Rng rng(3);
  const llm::Tensor zeros = llm::init_tensor({2, 3}, llm::constant(0.0), rng);
  REQUIRE(zeros.shape() == llm::Shape{2, 3});
  REQUIRE(zeros.to_vector() == std::vector<double>(6, 0.0));
  REQUIRE(rng.state() == 3);  // constants draw nothing

  const llm::Tensor u = llm::init_tensor({200, 100}, llm::fan_in_uniform(3),
                                         rng);  // a = 1
  for (const double x : u.to_vector()) REQUIRE(std::fabs(x) <= 1.0);
  // Variance a^2/3 = 1/3; n = 2e4, standard error
  // sqrt((1/5 - 1/9)/n) = 2.1e-3, five of them.
  REQUIRE(moments(u.to_vector()).var == Approx(1.0 / 3.0).margin(0.0105));

  const llm::Tensor z = llm::init_tensor({200, 100}, llm::fan_in_normal(16),
                                         rng);  // std 1/4
  // Variance 1/16; standard error sqrt(2/n)/16 = 6.2e-4, five of them.
  REQUIRE(moments(z.to_vector()).var == Approx(1.0 / 16.0).margin(3.1e-3));
}

TEST_CASE("init_tensor rejects a bad scale before drawing",
          "[parameters-init]") {
  llm::Rng rng(3);
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::init_tensor({2}, {.scale = -1.0}, rng);
          }) == "init_tensor: expected a finite scale >= 0, got -1.000000");
  REQUIRE(message_of<llm::ConfigError>([&] {
            llm::init_tensor({2}, llm::constant(std::nan("")), rng);
          }) == "init_tensor: expected a finite scale, got nan");
  REQUIRE(rng.state() == 3);
}

TEST_CASE("the registry keeps names in order and counts scalars",
          "[parameters-init]") {
  llm::Parameters p(42);
  p.add("w", {3, 4}, llm::fan_in_normal(3));
  p.add("b", {4}, llm::constant(0.0));
  p.add("g", llm::Tensor({4}, {1.0, 1.0, 1.0, 1.0}));
  REQUIRE(p.size() == 3);
  REQUIRE(p.scalar_count() == 12 + 4 + 4);
  REQUIRE(p.list()[0].name == "w");
  REQUIRE(p.list()[1].name == "b");
  REQUIRE(p.list()[2].name == "g");
  REQUIRE(p.contains("b"));
  REQUIRE_FALSE(p.contains("x"));
  REQUIRE(p.at("w").shape() == llm::Shape{3, 4});
  REQUIRE(p.seed() == 42);
}

TEST_CASE("a parameter is drawn from its own derived stream",
          "[parameters-init]") {
  llm::Parameters p(42);
  const llm::Tensor w = p.add("w", {2, 2}, llm::fan_in_normal(4));
  llm::Rng rng(llm::derive_seed(42, "w"));
  REQUIRE(w.to_vector() ==
          llm::init_tensor({2, 2}, llm::fan_in_normal(4), rng).to_vector());
}

TEST_CASE("add returns a handle sharing the stored buffer",
          "[parameters-init]") {
  llm::Parameters p(1);
  llm::Tensor w = p.add("w", {2}, llm::constant(0.0));
  w.set({1}, 2.5);
  REQUIRE(p.at("w").at({1}) == 2.5);
}

TEST_CASE("duplicate, empty and unknown names are rejected",
          "[parameters-init]") {
  llm::Parameters p(1);
  p.add("w", {2, 3}, llm::constant(0.0));
  REQUIRE(message_of<llm::ConfigError>([&] {
            p.add("w", {5}, llm::constant(1.0));
          }) == "Parameters::add: expected a new name, got 'w', "
                "already registered as [2,3]");
  REQUIRE(message_of<llm::ConfigError>([&] {
            p.add("w", llm::Tensor({1}));
          }) == "Parameters::add: expected a new name, got 'w', "
                "already registered as [2,3]");
  REQUIRE(message_of<llm::ConfigError>([&] {
            p.add("", {1}, llm::constant(0.0));
          }) == "Parameters::add: expected a name, got ''");
  REQUIRE(message_of<llm::IndexError>([&] { p.at("v"); }) ==
          "Parameters::at: no parameter named 'v' among 1");
  // A rejected add leaves the registry as it was.
  REQUIRE(p.size() == 1);
  REQUIRE(p.at("w").shape() == llm::Shape{2, 3});
  REQUIRE(p.at("w").to_vector() == std::vector<double>(6, 0.0));
}

TEST_CASE("with() replaces one parameter in a copy and leaves the original",
          "[parameters-init]") {
  llm::Parameters p(7);
  llm::Tensor a = p.add("a", {2}, llm::constant(1.0));
  p.add("b", {3}, llm::constant(2.0));
  const llm::Parameters q = p.with("b", llm::Tensor({3}, {4.0, 5.0, 6.0}));
  // Same names, order and seed; only b's values differ.
  REQUIRE(q.size() == 2);
  REQUIRE(q.seed() == 7);
  REQUIRE(q.list()[0].name == "a");
  REQUIRE(q.list()[1].name == "b");
  REQUIRE(q.at("b").to_vector() == std::vector<double>{4.0, 5.0, 6.0});
  REQUIRE(p.at("b").to_vector() == std::vector<double>(3, 2.0));
  // The parameters not replaced share the original's buffer.
  a.set({0}, 9.0);
  REQUIRE(q.at("a").to_vector() == std::vector<double>{9.0, 1.0});
  REQUIRE(message_of<llm::IndexError>([&] {
            p.with("c", llm::Tensor({3}));
          }) == "Parameters::with: no parameter named 'c' among 2");
  REQUIRE(message_of<llm::ShapeError>([&] {
            p.with("b", llm::Tensor({2}));
          }) == "Parameters::with: expected 'b' to keep its shape [3], "
                "got [2]");
  REQUIRE(p.at("b").to_vector() == std::vector<double>(3, 2.0));
}

namespace {

llm::Parameters model(std::uint64_t seed, bool reversed) {
  llm::Parameters p(seed);
  if (reversed) p.add("b", {5}, llm::fan_in_uniform(5));
  p.add("a", {3, 5}, llm::fan_in_normal(3));
  if (!reversed) p.add("b", {5}, llm::fan_in_uniform(5));
  return p;
}

}  // namespace

TEST_CASE("the same seed gives bitwise identical parameters",
          "[parameters-init]") {
  const llm::Parameters p = model(42, false), q = model(42, false);
  REQUIRE(p.at("a").to_vector() == q.at("a").to_vector());
  REQUIRE(p.at("b").to_vector() == q.at("b").to_vector());
  REQUIRE(p.fingerprint() == q.fingerprint());
}

TEST_CASE("different seeds give different parameters",
          "[parameters-init]") {
  const llm::Parameters p = model(42, false), q = model(43, false);
  REQUIRE(p.at("a").to_vector() != q.at("a").to_vector());
  REQUIRE(p.fingerprint() != q.fingerprint());
}

TEST_CASE("creation order does not change a parameter's values",
          "[parameters-init]") {
  const llm::Parameters p = model(42, false), q = model(42, true);
  REQUIRE(p.at("a").to_vector() == q.at("a").to_vector());
  REQUIRE(p.at("b").to_vector() == q.at("b").to_vector());
  // The list keeps each registry's own order, so the fingerprints differ.
  REQUIRE(p.list()[0].name == "a");
  REQUIRE(q.list()[0].name == "b");
  REQUIRE(p.fingerprint() != q.fingerprint());
}

TEST_CASE("with one shared generator, order changes the values",
          "[parameters-init]") {
  llm::Rng first(42), second(42);
  const llm::Tensor a1 = llm::init_tensor({3}, {}, first);
  const llm::Tensor b2 = llm::init_tensor({3}, {}, second);
  const llm::Tensor a2 = llm::init_tensor({3}, {}, second);
  REQUIRE(b2.to_vector() == a1.to_vector());  // b took a's numbers
  REQUIRE(a2.to_vector() != a1.to_vector());
}
