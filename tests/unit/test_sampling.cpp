// Tests for chapter sampling: temperature, top-k and top-p worked out by
// hand on three or four logits (logits chosen as logarithms or as equal
// values, so that the probabilities are simple fractions), ties at the
// cut, greedy as the limit of a small temperature, seeded draws against
// an inverse CDF written here and their frequencies over many draws
// against a binomial bound, generation against a plain loop over
// next_token_logits with a sliding window, and every rejected input with
// its own message. Uses only what chapters up to it define.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "llm/autograd.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sampling.hpp"
#include "fixtures.hpp"
#include "message_of.hpp"

namespace {

using llm::Rng;
using llm::SamplingOptions;
using llm::TokenId;
using Vec = std::vector<double>;

Vec dist(const Vec& z, const SamplingOptions& o) {
  return llm::sampling_distribution(z, o);
}

double entropy(const Vec& q) {
  double h = 0.0;
  for (double x : q) {
    if (x > 0.0) h -= x * std::log(x);
  }
  return h;
}

}  // namespace

TEST_CASE("temperature scales the logits before the softmax",
          "[sampling]") {
  // z = (0, ln 3): at T = 1 the weights are e^0 = 1 and e^ln3 = 3, so
  // (1/4, 3/4). At T = 1/2 the logits double: weights 1 and 9, so
  // (1/10, 9/10). At T = 2 they halve: weights 1 and sqrt 3.
  const Vec z = {0.0, std::log(3.0)};
  require_near(dist(z, {}), {0.25, 0.75});
  require_near(dist(z, {.temperature = 0.5}), {0.1, 0.9});
  const double r3 = std::sqrt(3.0);
  require_near(dist(z, {.temperature = 2.0}), {1 / (1 + r3), r3 / (1 + r3)});
  // Adding a constant to every logit changes nothing (the shift by the
  // largest logit removes it), even one that would overflow exp.
  require_near(dist({700.0, 700.0 + std::log(3.0)}, {}), {0.25, 0.75});
}

TEST_CASE("entropy grows with the temperature", "[sampling]") {
  // For logits that are not all equal, the entropy of softmax(z / T) is
  // increasing in T (its derivative is Var(z / T) / T >= 0), from 0 at
  // T -> 0 towards log V as T grows.
  const Vec z = {1.0, -0.5, 2.0, 0.3};
  double previous = -1.0;
  for (double t : {0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 100.0}) {
    const double h = entropy(dist(z, {.temperature = t}));
    INFO("T = " << t << ", entropy " << h);
    CHECK(h > previous);
    CHECK(h < std::log(4.0));
    previous = h;
  }
  CHECK(entropy(dist(z, {.temperature = 0.0})) == 0.0);
  CHECK(entropy(dist(z, {.temperature = 1e6})) ==
        Approx(std::log(4.0)).margin(1e-6));
}

TEST_CASE("greedy is the limit of a small temperature and breaks ties by "
          "the lower id", "[sampling]") {
  // Distinct logits: at T = 1e-3 the runner-up's weight is
  // e^{-0.5 / 1e-3} = e^{-500}, about 7e-218, so the distribution is
  // one-hot to far below 1e-12, as at T = 0.
  const Vec z = {1.0, 5.0, 4.5, 2.0};
  require_near(dist(z, {.temperature = 1e-3}), {0, 1, 0, 0});
  CHECK(dist(z, {.temperature = 0.0}) == Vec{0, 1, 0, 0});
  // A tie for the largest logit: the limit T -> 0 splits the mass
  // evenly between ids 1 and 2; greedy (T = 0) picks the lower id.
  const Vec tie = {1.0, 5.0, 5.0, 2.0};
  require_near(dist(tie, {.temperature = 1e-3}), {0, 0.5, 0.5, 0});
  CHECK(dist(tie, {.temperature = 0.0}) == Vec{0, 1, 0, 0});
  // Greedy draws ignore the uniform number (but still consume one).
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed), copy(seed);
    CHECK(llm::sample_token(tie, {.temperature = 0.0}, rng) == 1);
    copy.uniform();
    CHECK(rng.state() == copy.state());
  }
  // top-k 1 is greedy too, at any temperature.
  CHECK(dist(tie, {.temperature = 3.0, .top_k = 1}) == Vec{0, 1, 0, 0});
}

TEST_CASE("top-k keeps the k most probable, the lower id at a tied cut",
          "[sampling]") {
  // z = (3, 1, 1, 0): ids 1 and 2 tie for second place. k = 2 keeps id 0
  // and the lower of the tied ids, 1; renormalised, (e^3, e^1) / total.
  const Vec z = {3.0, 1.0, 1.0, 0.0};
  const double a = std::exp(3.0), b = std::exp(1.0);
  require_near(dist(z, {.top_k = 2}), {a / (a + b), b / (a + b), 0, 0});
  require_near(dist(z, {.top_k = 3}),
               {a / (a + 2 * b), b / (a + 2 * b), b / (a + 2 * b), 0});
  // k = 0 and k >= V keep everything: the plain softmax.
  const double t = a + 2 * b + 1;
  const Vec all = {a / t, b / t, b / t, 1 / t};
  require_near(dist(z, {.top_k = 0}), all);
  require_near(dist(z, {.top_k = 4}), all);
  require_near(dist(z, {.top_k = 99}), all);
  // Two equal logits and k = 1: the lower id takes all the mass.
  CHECK(dist({2.0, 1.0, 2.0, 0.0}, {.top_k = 1}) == Vec{1, 0, 0, 0});
  CHECK(dist({2.0, 1.0, 2.0, 0.0}, {.top_k = 2}) == Vec{0.5, 0, 0.5, 0});
}

TEST_CASE("top-p keeps the fewest top tokens whose mass reaches p",
          "[sampling]") {
  // Four equal logits: each probability is exactly 1/4 (e^0 = 1, and
  // 1/4 is a binary fraction), so the running masses 1/4, 1/2, 3/4, 1
  // are exact. p = 1/2 is reached exactly by the second token: two are
  // kept, ids 0 and 1 (ties by id), at 1/2 each.
  const Vec z = {0.0, 0.0, 0.0, 0.0};
  CHECK(dist(z, {.top_p = 0.5}) == Vec{0.5, 0.5, 0, 0});
  CHECK(dist(z, {.top_p = 0.25}) == Vec{1, 0, 0, 0});
  // Just above 1/2 needs a third token.
  require_near(dist(z, {.top_p = 0.5000001}), {1.0 / 3, 1.0 / 3, 1.0 / 3, 0});
  CHECK(dist(z, {.top_p = 0.49}) == Vec{0.5, 0.5, 0, 0});
  CHECK(dist(z, {.top_p = 1.0}) == Vec{0.25, 0.25, 0.25, 0.25});
  // The smallest p keeps the single most probable token.
  CHECK(dist({0.0, 2.0, 1.0}, {.top_p = 1e-9}) == Vec{0, 1, 0});
}

TEST_CASE("top-p measures mass within the top-k prefix", "[sampling]") {
  // z = (ln 4, ln 2, 0, 0): probabilities (1/2, 1/4, 1/8, 1/8) up to
  // rounding. k = 2 leaves (2/3, 1/3) once renormalised; p = 0.6 is
  // reached by the first token alone (2/3 >= 0.6), although its mass in
  // the whole vocabulary, 1/2, is below 0.6.
  const Vec z = {std::log(4.0), std::log(2.0), 0.0, 0.0};
  CHECK(dist(z, {.top_k = 2, .top_p = 0.6}) == Vec{1, 0, 0, 0});
  require_near(dist(z, {.top_p = 0.6}), {2.0 / 3, 1.0 / 3, 0, 0});
  require_near(dist(z, {.top_k = 2, .top_p = 0.7}), {2.0 / 3, 1.0 / 3, 0, 0});
  // Temperature first, then the cut: T = 1/2 squares the weights to
  // (16, 4, 1, 1) / 22, and p = 0.9 needs the first two (20/22 = 0.909).
  require_near(dist(z, {.temperature = 0.5, .top_p = 0.9}),
               {0.8, 0.2, 0, 0});
}

TEST_CASE("a draw is the inverse CDF over the ids of one uniform number",
          "[sampling]") {
  // The reference: the same uniform number, drawn from a copy of the
  // generator, and the first id whose running sum of q exceeds u.
  const Vec z = {0.2, -1.0, 1.5, 0.0, 0.7};
  const SamplingOptions o{.temperature = 0.9, .top_k = 4};
  const Vec q = dist(z, o);
  Rng rng(32);
  for (int i = 0; i < 200; ++i) {
    Rng copy = rng;
    const double u = copy.uniform();
    double running = 0.0;
    std::size_t want = 0;
    while (want + 1 < q.size() && !(u < running + q[want])) {
      running += q[want];
      ++want;
    }
    CHECK(llm::sample_token(z, o, rng) == want);
    CHECK(rng.state() == copy.state());  // exactly one uniform() used
  }
}

TEST_CASE("seeded draws repeat, and their frequencies match q",
          "[sampling]") {
  const Vec z = {1.0, 0.0, 2.0, -1.0, 0.5};
  const SamplingOptions o{.temperature = 1.0, .top_k = 4};
  const Vec q = dist(z, o);
  Rng a(7), b(7), c(8);
  std::vector<TokenId> first, second, other;
  for (int i = 0; i < 50; ++i) {
    first.push_back(llm::sample_token(z, o, a));
    second.push_back(llm::sample_token(z, o, b));
    other.push_back(llm::sample_token(z, o, c));
  }
  CHECK(first == second);
  CHECK(first != other);
  // n draws: the count of token v is binomial(n, q_v), with standard
  // deviation s = sqrt(n q_v (1 - q_v)). A correct sampler leaves a count
  // more than 5 s from n q_v with probability below 6e-7 per token, so
  // the bound holds for this fixed seed unless the sampler is wrong; an
  // off-by-one interval or a wrong order moves a count by far more.
  const std::size_t n = 40000;
  std::vector<std::size_t> count(q.size(), 0);
  Rng rng(2026);
  for (std::size_t i = 0; i < n; ++i) ++count[llm::sample_token(z, o, rng)];
  for (std::size_t v = 0; v < q.size(); ++v) {
    const double mean = double(n) * q[v];
    const double s = std::sqrt(double(n) * q[v] * (1 - q[v]));
    INFO("token " << v << ": " << count[v] << " draws, expected " << mean);
    CHECK(std::abs(double(count[v]) - mean) <= 5 * s);
  }
  CHECK(count[3] == 0);  // cut by top-k: never drawn
}

TEST_CASE("each bad option and logit has its own error",
          "[sampling]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Vec z = {0.0, 1.0};
  auto bad = [&](const SamplingOptions& o) {
    return message_of<llm::ConfigError>([&] { dist(z, o); });
  };
  CHECK(bad({.temperature = -0.5}) ==
        "sampling: temperature is -0.500000, expected a finite T >= 0");
  CHECK(bad({.temperature = nan}) ==
        "sampling: temperature is nan, expected a finite T >= 0");
  CHECK(bad({.temperature = inf}) ==
        "sampling: temperature is inf, expected a finite T >= 0");
  CHECK(bad({.top_p = 0.0}) ==
        "sampling: top_p is 0.000000, expected 0 < p <= 1");
  CHECK(bad({.top_p = 1.5}) ==
        "sampling: top_p is 1.500000, expected 0 < p <= 1");
  CHECK(bad({.top_p = -0.1}) ==
        "sampling: top_p is -0.100000, expected 0 < p <= 1");
  CHECK(bad({.top_p = nan}) == "sampling: top_p is nan, expected 0 < p <= 1");
  CHECK(message_of<llm::ShapeError>([] { dist({}, {}); }) ==
        "sampling_distribution: no logits, expected V >= 1");
  CHECK(message_of<llm::DomainError>([&] { dist({0.0, nan}, {}); }) ==
        "sampling_distribution: logit 1 is nan, expected a finite number");
  CHECK(message_of<llm::DomainError>([&] { dist({-inf, 0.0}, {}); }) ==
        "sampling_distribution: logit 0 is -inf, expected a finite number");
  // A rejected draw uses no random number.
  Rng rng(1);
  const std::uint64_t before = rng.state();
  CHECK_THROWS_AS(llm::sample_token(z, {.top_p = 2.0}, rng), llm::ConfigError);
  CHECK_THROWS_AS(llm::sample_token({}, {}, rng), llm::ShapeError);
  CHECK(rng.state() == before);
}

namespace {

// V = 7, d = 4, one block of two heads, f = 6, a context of 4.
const llm::ModelConfig tiny{.vocab = 7, .d_model = 4, .layers = 1,
                            .heads = 2, .ffn_width = 6, .context = 4};

llm::Parameters tiny_model() {
  llm::Parameters p(32);
  llm::add_model_parameters(p, tiny);
  // Scale the embedding up so that the logits differ visibly between
  // tokens (at its initial 0.02 every distribution is nearly uniform).
  llm::Parameters q(32);
  for (const llm::NamedTensor& n : p.list()) {
    q.add(n.name, n.name == "embed.weight"
                      ? llm::Tensor(n.value.shape(), [&] {
                          Vec v = n.value.to_vector();
                          for (double& x : v) x *= 50.0;
                          return v;
                        }())
                      : n.value);
  }
  return q;
}

}  // namespace

TEST_CASE("next_token_logits is the last row of model_forward",
          "[sampling]") {
  const llm::Parameters p = tiny_model();
  const std::vector<TokenId> ids = {3, 1, 4};
  llm::Tape tape;
  const llm::ParameterLeaves leaves(tape, p);
  const llm::Tensor z =
      llm::model_forward(llm::model_weights(leaves, tiny), tiny,
                         {.batch = 1, .length = 3, .ids = {3, 1, 4}})
          .logits.value();
  const Vec got = llm::next_token_logits(p, tiny, ids);
  REQUIRE(got.size() == 7);
  for (std::size_t v = 0; v < 7; ++v) CHECK(got[v] == z.at({0, 2, v}));
  // Longer than the context: the model refuses.
  CHECK_THROWS_AS(llm::next_token_logits(p, tiny, {1, 2, 3, 4, 5}),
                  llm::IndexError);
}

TEST_CASE("generate feeds the model its own output through a sliding "
          "window", "[sampling]") {
  const llm::Parameters p = tiny_model();
  const SamplingOptions o{.temperature = 0.8, .top_k = 5};
  const std::vector<TokenId> prompt = {2, 5, 1};
  // The reference loop: window = the last min(size, 4) tokens.
  Rng ref_rng(11);
  std::vector<TokenId> want = prompt;
  for (int n = 0; n < 6; ++n) {
    const std::size_t start = want.size() > 4 ? want.size() - 4 : 0;
    const std::vector<TokenId> window(want.begin() + long(start), want.end());
    want.push_back(llm::sample_token(llm::next_token_logits(p, tiny, window),
                                     o, ref_rng));
  }
  Rng rng(11);
  const std::vector<TokenId> got = llm::generate(p, tiny, prompt, 6, o, rng);
  CHECK(got == want);
  CHECK(got.size() == 9);
  CHECK(rng.state() == ref_rng.state());
  // Greedy ignores the seed; zero tokens returns the prompt.
  Rng r1(1), r2(2);
  CHECK(llm::generate(p, tiny, prompt, 6, {.temperature = 0.0}, r1) ==
        llm::generate(p, tiny, prompt, 6, {.temperature = 0.0}, r2));
  CHECK(llm::generate(p, tiny, prompt, 0, o, rng) == prompt);
  // A prompt longer than the context: only its last 4 tokens are read.
  Rng r3(5), r4(5);
  const std::vector<TokenId> full =
      llm::generate(p, tiny, {6, 6, 2, 5, 1, 3}, 1, o, r3);
  const std::vector<TokenId> cut =
      llm::generate(p, tiny, {2, 5, 1, 3}, 1, o, r4);
  CHECK(full.back() == cut.back());
}

TEST_CASE("generate checks everything before it draws", "[sampling]") {
  const llm::Parameters p = tiny_model();
  Rng rng(3);
  const std::uint64_t before = rng.state();
  CHECK(message_of<llm::ShapeError>([&] {
          llm::generate(p, tiny, {}, 3, {}, rng);
        }) == "generate: the prompt is empty, expected >= 1 token");
  CHECK(message_of<llm::IndexError>([&] {
          llm::generate(p, tiny, {1, 7}, 3, {}, rng);
        }) == "generate: prompt token 1 is 7, expected an id below V = 7");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::generate(p, tiny, {1}, 3, {.temperature = -1.0}, rng);
        }) == "sampling: temperature is -1.000000, expected a finite T >= 0");
  llm::ModelConfig broken = tiny;
  broken.layers = 0;
  CHECK_THROWS_AS(llm::generate(p, broken, {1}, 3, {}, rng), llm::ConfigError);
  CHECK(rng.state() == before);
}
