// Tests for the parameter file of chapter neural-ngram: save_parameters
// writes the bytes its comment documents (spelled out word by word in the
// test), load_parameters restores every name, shape and bit (including
// -0, a denormal and a rank-0 tensor), and every truncated or foreign
// input is refused with its message.
#include <catch2/catch.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "llm/error.hpp"
#include "llm/ngram.hpp"
#include "llm/param_file.hpp"
#include "llm/params.hpp"
#include "llm/tensor.hpp"
#include "message_of.hpp"

namespace {

using llm::Parameters;
using llm::Tensor;

// A small n-gram model: six tensors of the shapes its chapter registers.
Parameters ngram_params() {
  Parameters p(20);
  llm::add_ngram_parameters(p, {.vocab = 5, .order = 3, .embed = 2,
                                .hidden = 3});
  return p;
}

}  // namespace

namespace {

// The eight bytes of w, least significant first.
std::string word(std::uint64_t w) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(char((w >> (8 * i)) & 0xff));
  return s;
}

}  // namespace

TEST_CASE("save_parameters writes the documented bytes", "[neural-ngram]") {
  Parameters p(5);
  p.add("w", Tensor({1, 2}, {1.0, -2.0}));
  // magic, seed 5, one tensor, name of 1 byte "w", rank 2, extents 1 and
  // 2, then the bits of 1.0 (0x3FF0...) and -2.0 (0xC000...).
  const std::string expected = std::string("llmparam") + word(5) + word(1) +
                               word(1) + "w" + word(2) + word(1) + word(2) +
                               word(0x3FF0000000000000) +
                               word(0xC000000000000000);
  CHECK(llm::save_parameters(p) == expected);
}

TEST_CASE("load_parameters restores every name, shape and bit",
          "[neural-ngram]") {
  Parameters p = ngram_params();
  p.add("odd", Tensor({2}, {-0.0, std::numeric_limits<double>::denorm_min()}));
  p.add("scalar", Tensor(llm::Shape{}, {3.5}));
  const std::string bytes = llm::save_parameters(p);
  const Parameters q = llm::load_parameters(bytes);
  CHECK(q.seed() == p.seed());
  REQUIRE(q.size() == p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    CHECK(q.list()[i].name == p.list()[i].name);
    CHECK(q.list()[i].value.shape() == p.list()[i].value.shape());
    const std::vector<double> a = p.list()[i].value.to_vector();
    const std::vector<double> b = q.list()[i].value.to_vector();
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      CHECK(std::bit_cast<std::uint64_t>(a[k]) ==
            std::bit_cast<std::uint64_t>(b[k]));
    }
  }
  CHECK(q.fingerprint() == p.fingerprint());
  CHECK(llm::save_parameters(q) == bytes);
}

TEST_CASE("load_parameters rejects truncated and foreign bytes",
          "[neural-ngram]") {
  Parameters p(5);
  p.add("w", Tensor({1, 2}, {1.0, -2.0}));
  const std::string bytes = llm::save_parameters(p);  // 57 bytes of header, 16 of elements
  REQUIRE(bytes.size() == 73);
  const auto error = [](std::string_view b) {
    return message_of<llm::FormatError>([&] { llm::load_parameters(b); });
  };
  CHECK(error("") == "load_parameters: the bytes do not begin with "
                     "\"llmparam\", expected a parameter file");
  CHECK(error("hello, world, this is not it") ==
        "load_parameters: the bytes do not begin with \"llmparam\", "
        "expected a parameter file");
  CHECK(error(bytes.substr(0, 12)) ==
        "load_parameters: truncated at byte 8, expected 8 more bytes for "
        "the seed");
  CHECK(error(bytes.substr(0, 72)) ==
        "load_parameters: truncated at byte 57, expected 16 more bytes for "
        "the elements");
  CHECK(error(bytes + "x") ==
        "load_parameters: 1 bytes after the last tensor, expected none");
  for (std::size_t n = 0; n < bytes.size(); ++n) {  // every shorter prefix
    CHECK_THROWS_AS(llm::load_parameters(bytes.substr(0, n)),
                    llm::FormatError);
  }
  // An extent far larger than the file: rejected before allocating.
  std::string huge = bytes;
  huge.replace(49, 8, word(std::uint64_t(1) << 62));
  CHECK(error(huge).starts_with("load_parameters: truncated at byte 57"));
}
