// Exercise of the checkpoints chapter: a reader of a checkpoint's
// sections that compiles, reads the book's files without complaint, and
// is wrong in three places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_31
#include "exercise.hpp"

#include <array>
#include <cstdint>

#include "llm/sha256.hpp"

namespace exercise {
namespace {

constexpr std::string_view magic = "LLMCKPT\n";
constexpr std::size_t header_bytes = 16;  // magic, version, count
constexpr std::size_t head_bytes = 12;    // tag, payload size
constexpr std::size_t digest_bytes = 32;  // SHA-256 of all before it
constexpr std::array<std::string_view, 5> tags = {"CONF", "TOKN", "PARM",
                                                  "ADAM", "STEP"};

// The little-endian number of `bytes` bytes at `at`.
std::uint64_t get(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= std::uint64_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
  }
  return v;
}

[[noreturn]] void fail(const std::string& why) {
  throw llm::CheckpointError("read_sections: " + why);
}

}  // namespace

std::vector<Section> read_sections(std::string_view in) {
  if (in.size() < header_bytes + digest_bytes) fail("too short");
  if (in.substr(0, magic.size()) != magic) fail("no checkpoint magic");
  const std::uint64_t version = get(in, 8, 4);
  if (version < 1) fail("unknown version");
  if (get(in, 12, 4) != tags.size()) fail("wrong section count");

  const std::size_t end = in.size() - digest_bytes;
  std::vector<Section> sections;
  std::size_t at = header_bytes;
  for (std::string_view tag : tags) {
    if (end - at < head_bytes) fail("truncated before a section head");
    if (in.substr(at, 4) != tag) fail("unexpected section tag");
    const std::uint64_t size = get(in, at + 4, 8);
    if (size > end - at - head_bytes) fail("truncated section");
    sections.push_back({std::string(tag), at, size});
    at += head_bytes + size;
  }
  if (at > end) fail("sections overlap the checksum");

  const llm::Sha256Digest d = llm::sha256(in.substr(0, end));
  const std::string_view want(reinterpret_cast<const char*>(d.data()),
                              d.size());
  if (in.substr(end) != want) fail("checksum mismatch");
  return sections;
}

}  // namespace exercise
