// The exercise tests of the checkpoints chapter. They build a small
// checkpoint with the book's encoder, then call exercise::read_sections
// (starter.cpp, once fixed) on it and on damaged copies. The offsets and
// sizes of the sound file are worked out by hand in the first test; each
// damaged copy must be refused with an llm::CheckpointError, whatever
// its message.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "exercise.hpp"
#include "llm/adamw.hpp"
#include "llm/decoder_model.hpp"
#include "llm/params.hpp"
#include "llm/sha256.hpp"
#include "llm/tokenizer.hpp"

namespace {

// A tokenizer without merges (V = 258) and the smallest sensible model:
// d = 4, one block of two heads, f = 6, context 4.
const llm::ModelConfig config{.vocab = 258, .d_model = 4, .layers = 1,
                              .heads = 2, .ffn_width = 6, .context = 4};

std::string sound() {
  llm::Parameters params(1);
  llm::add_model_parameters(params, config);
  const llm::AdamW adamw(params);
  return llm::encode_checkpoint({.config = config,
                                 .tokenizer = llm::Tokenizer({}),
                                 .params = params,
                                 .optimizer = adamw.state(),
                                 .step = 0,
                                 .rng_state = 1});
}

std::uint64_t le(std::string_view b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
  }
  return v;
}

// The checksum recomputed after a change, so that only the change is
// wrong with the file.
std::string resealed(std::string b) {
  const llm::Sha256Digest d =
      llm::sha256(std::string_view(b).substr(0, b.size() - 32));
  b.replace(b.size() - 32, 32, reinterpret_cast<const char*>(d.data()), 32);
  return b;
}

}  // namespace

TEST_CASE("a sound file: every section's tag, offset and size") {
  const std::string b = sound();
  // The header is 16 bytes and every section head 12, so CONF's payload
  // starts at 28; CONF holds 64 bytes (six sizes, two doubles) and a
  // tokenizer without merges 24 (16 of header, 8 of checksum). The
  // payload sizes of the tensor sections depend on the model; what the
  // layout fixes is that each section follows the previous one and the
  // last ends where the 32-byte checksum begins.
  const auto s = exercise::read_sections(b);
  REQUIRE(s.size() == 5);
  CHECK(s[0].tag == "CONF");
  CHECK(s[0].offset == 16 + 12);  // after the header and CONF's head
  CHECK(s[0].size == 64);         // 6 sizes and 2 doubles
  CHECK(le(b, s[0].offset) == 258);      // V
  CHECK(le(b, s[0].offset + 8) == 4);    // d
  CHECK(s[1].tag == "TOKN");
  CHECK(s[1].offset == 28 + 64 + 12);
  CHECK(s[1].size == 24);  // a tokenizer file without merges
  CHECK(b.substr(s[1].offset, 6) == "LLMBPE");
  const char* tags[] = {"CONF", "TOKN", "PARM", "ADAM", "STEP"};
  for (std::size_t i = 1; i < 5; ++i) {
    INFO("section " << tags[i]);
    CHECK(s[i].tag == tags[i]);
    CHECK(s[i].offset == s[i - 1].offset + s[i - 1].size + 12);
    CHECK(b.substr(s[i].offset - 12, 4) == tags[i]);
  }
  CHECK(le(b, s[2].offset) == 1);  // PARM begins with the seed
  CHECK(s[4].size == 16);
  CHECK(s[4].offset + s[4].size == b.size() - 32);
}

TEST_CASE("not a checkpoint") {
  CHECK_THROWS_AS(exercise::read_sections(""), llm::CheckpointError);
  CHECK_THROWS_AS(exercise::read_sections(
                      llm::tokenizer_bytes(llm::Tokenizer({}))),
                  llm::CheckpointError);
  std::string b = sound();
  b[3] = 'x';
  CHECK_THROWS_AS(exercise::read_sections(b), llm::CheckpointError);
}

TEST_CASE("a newer version is refused, even with a sound checksum") {
  std::string b = sound();
  b[8] = 2;
  CHECK_THROWS_AS(exercise::read_sections(resealed(b)),
                  llm::CheckpointError);
  b[8] = 0;
  CHECK_THROWS_AS(exercise::read_sections(resealed(b)),
                  llm::CheckpointError);
}

TEST_CASE("bytes between the last section and the checksum are refused") {
  std::string b = sound();
  b.insert(b.size() - 32, "abc");
  CHECK_THROWS_AS(exercise::read_sections(resealed(b)),
                  llm::CheckpointError);
}

TEST_CASE("a file cut anywhere is refused") {
  const std::string b = sound();
  for (std::size_t n = 0; n < b.size(); ++n) {
    INFO("cut at " << n);
    CHECK_THROWS_AS(exercise::read_sections(b.substr(0, n)),
                    llm::CheckpointError);
  }
}

TEST_CASE("a flipped bit anywhere is refused") {
  const std::string b = sound();
  for (std::size_t at = 0; at < b.size(); ++at) {
    std::string x = b;
    x[at] ^= 0x04;
    INFO("byte " << at);
    CHECK_THROWS_AS(exercise::read_sections(x), llm::CheckpointError);
  }
}
