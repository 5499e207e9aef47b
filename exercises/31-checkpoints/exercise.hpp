// The function the checkpoints chapter's exercise asks for. The exercise
// tests (tests.cpp) call it; starter.cpp defines it with three mistakes
// for the reader to find and fix.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "llm/checkpoint.hpp"

namespace exercise {

/// One section of an encoded checkpoint.
struct Section {
  std::string tag;     ///< CONF, TOKN, PARM, ADAM or STEP
  std::size_t offset;  ///< the payload's first byte in the file
  std::size_t size;    ///< the payload's bytes
};

/// The sections of a checkpoint, as llm::checkpoint_sections finds them.
/// Throws llm::CheckpointError (with any message) unless `bytes` begins
/// with the magic "LLMCKPT\n", holds version 1 and 5 sections with the
/// tags CONF, TOKN, PARM, ADAM, STEP in that order, every payload fits
/// before the 32-byte checksum, the last one ends exactly where the
/// checksum begins, and the checksum is the SHA-256 of every byte
/// before it.
std::vector<Section> read_sections(std::string_view bytes);

}  // namespace exercise
