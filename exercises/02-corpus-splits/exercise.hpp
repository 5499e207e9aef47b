// What the corpus-splits chapter's exercise asks for: the split of a
// document from its name. The exercise tests (tests.cpp) call it;
// starter.cpp defines it with three mistakes for the reader to find and
// fix.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "llm/corpus.hpp"

namespace exercise {

/// As llm::split_hash: the first 8 bytes of SHA-256(name), read as a
/// big-endian integer (byte 0 is the most significant).
std::uint64_t split_hash(std::string_view name);

/// As llm::split_of: bucket = split_hash(name) mod 100; buckets 0-79 are
/// train, 80-89 validation, 90-99 test.
llm::Split split_of(std::string_view name);

/// As llm::split_documents: each document into the split of its name,
/// keeping their order.
llm::CorpusSplits split_documents(const std::vector<llm::Document>& documents);

}  // namespace exercise
