// What the workbenches that read the book's trained checkpoint share
// (bpe, generate and sampling): the checkpoint from the page's bytes, and
// the reader's sampling settings, checked in the same words by the two
// that sample, so that the page and the tests see one message for one
// mistake. Only those workbenches include it: they are built in a book
// that has chapter 34 (cmake/Workbench.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "entry.hpp"
#include "llm/checkpoint.hpp"
#include "llm/sampling.hpp"

namespace workbench {

// The checkpoint in the `n` bytes at `bytes` (the page's copy of the
// trained tinyllm.ckpt); a Refusal when there are none, the library's
// error when they are not a checkpoint.
inline llm::Checkpoint checkpoint(const unsigned char* bytes, int n) {
  require(n > 0, "no checkpoint bytes");
  return llm::decode_checkpoint(std::string_view(
      reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n)));
}

// The settings as the library takes them; a Refusal naming the first one
// out of range (temperature 0 to 100, top-k 0 or more, top-p above 0 and
// at most 1).
inline llm::SamplingOptions sampling_options(double temperature, int top_k,
                                             double top_p) {
  require(temperature >= 0.0 && temperature <= 100.0,
          "the temperature must be a number from 0 to 100");
  require(top_k >= 0, "top-k must be a whole number, 0 for all");
  require(top_p > 0.0 && top_p <= 1.0,
          "top-p must be a number above 0 and at most 1");
  const llm::SamplingOptions options{
      .temperature = temperature,
      .top_k = static_cast<std::size_t>(top_k),
      .top_p = top_p};
  llm::validate(options);
  return options;
}

// The seed of a draw, from 0 to 2147483647; a Refusal otherwise.
inline std::uint64_t sampling_seed(int seed) {
  require(seed >= 0, "the seed must be a whole number from 0 to 2147483647");
  return static_cast<std::uint64_t>(seed);
}

}  // namespace workbench
