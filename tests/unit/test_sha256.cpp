// Tests for the SHA-256 of chapter corpus-splits: the examples of the
// standard (FIPS 180), and agreement with coreutils' sha256sum, an
// independent implementation, on every length from 0 to 130 bytes (every
// way the padding can fall: the length field in the last block or in an
// extra block).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "llm/sha256.hpp"

namespace {

// sha256sum's digest of `bytes`, through a temporary file of its own
// (mkstemp: snapshots run these tests in parallel processes, which a
// fixed name would let overwrite each other's input).
std::string coreutils_sha256(const std::string& bytes) {
  namespace fs = std::filesystem;
  std::string name =
      (fs::temp_directory_path() / "llm-test-sha256-XXXXXX").string();
  const int fd = mkstemp(name.data());
  REQUIRE(fd >= 0);
  close(fd);
  const fs::path file = name;
  {
    std::ofstream out(file, std::ios::binary);
    out << bytes;
  }
  const std::string command = "sha256sum '" + file.string() + "'";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char digest[65] = {};
  const std::size_t got = std::fread(digest, 1, 64, pipe);
  REQUIRE(pclose(pipe) == 0);
  REQUIRE(got == 64);
  fs::remove(file);
  return digest;
}

}  // namespace

TEST_CASE("sha256_hex gives the standard's example digests",
          "[corpus-splits]") {
  CHECK(llm::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(llm::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  CHECK(llm::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256 returns the digest's bytes in order",
          "[corpus-splits]") {
  // sha256sum prints ba7816bf... for "abc": bytes 0xba, 0x78, ..., 0xad.
  const llm::Sha256Digest d = llm::sha256("abc");
  CHECK(d[0] == 0xba);
  CHECK(d[1] == 0x78);
  CHECK(d[31] == 0xad);
}

TEST_CASE("sha256_hex agrees with sha256sum at every padding boundary",
          "[corpus-splits]") {
  std::string text;
  for (int n = 0; n <= 130; ++n) {
    REQUIRE(llm::sha256_hex(text) == coreutils_sha256(text));
    // Bytes from 0x00 to 0xFF, not only ASCII.
    text.push_back(static_cast<char>((n * 37 + 11) % 256));
  }
}
