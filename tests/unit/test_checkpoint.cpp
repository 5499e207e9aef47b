// Tests for chapter checkpoints: the byte layout worked out by hand, a
// bitwise round trip of every part (special doubles included), the file
// functions, every refused input with its exact message (and that no
// cut and no flipped bit anywhere in a file decodes), and the chapter's
// claim that training resumed from a checkpoint gives the same bits as
// training that never stopped, and different bits when the optimiser's
// or the generator's state is dropped. Uses only what chapters up to it
// define.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "llm/adamw.hpp"
#include "llm/autograd.hpp"
#include "llm/checkpoint.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/layers.hpp"
#include "llm/params.hpp"
#include "llm/random.hpp"
#include "llm/sha256.hpp"
#include "llm/tensor.hpp"
#include "llm/tokenizer.hpp"
#include "message_of.hpp"

namespace {

namespace fs = std::filesystem;

// A new, empty directory of its own under the temporary directory:
// two test processes at once (the snapshot tests of two chapters) must
// never share one, or one removes the other's files.
fs::path scratch_dir(const std::string& name) {
  std::string path =
      (fs::temp_directory_path() / (name + "-XXXXXX")).string();
  if (mkdtemp(path.data()) == nullptr) {
    throw std::runtime_error("scratch_dir: mkdtemp failed for " + path);
  }
  return path;
}

using llm::Checkpoint;
using llm::CheckpointError;
using llm::ModelConfig;
using llm::Parameters;
using llm::Tensor;

// Two merges, so V = 256 + 2 + 2 = 260; d = 4, one block of two heads,
// f = 6, context 4.
llm::Tokenizer tokenizer() {
  return llm::Tokenizer(llm::BpeMerges{{{'a', 'b', 7}, {256, 'c', 3}}});
}
const ModelConfig tiny{.vocab = 260, .d_model = 4, .layers = 1, .heads = 2,
                       .ffn_width = 6, .context = 4, .rope_base = 100.0};

// A distinct, deterministic value per element: sin(k + phase).
Tensor wave(const llm::Shape& shape, double phase) {
  std::vector<double> v(llm::numel(shape));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::sin(k + phase);
  return Tensor(shape, v);
}

// The model's registry (seed 12), its first tensor holding the doubles
// a decimal format would mangle, and a state with moments of their own.
Checkpoint sample() {
  Parameters params(12);
  llm::add_model_parameters(params, tiny);
  Tensor e = params.at("embed.weight");
  e.set({0, 0}, -0.0);
  e.set({0, 1}, std::numeric_limits<double>::denorm_min());
  e.set({0, 2}, std::numeric_limits<double>::infinity());
  e.set({0, 3}, std::bit_cast<double>(0x7ff8000000000123ULL));  // NaN
  e.set({1, 0}, 0.1);
  llm::AdamWState state{.step = 3, .m = {}, .v = {}};
  double phase = 0.5;
  for (const llm::NamedTensor& n : params.list()) {
    state.m.push_back({n.name, wave(n.value.shape(), phase += 1.0)});
    state.v.push_back({n.name, wave(n.value.shape(), phase += 1.0)});
  }
  return Checkpoint{.config = tiny, .tokenizer = tokenizer(),
                    .params = params, .optimizer = state, .step = 42,
                    .rng_state = 0x0123456789abcdefULL};
}

std::vector<std::uint64_t> bits(const Tensor& t) {
  std::vector<std::uint64_t> out;
  for (double x : t.to_vector()) out.push_back(std::bit_cast<std::uint64_t>(x));
  return out;
}

// Names, shapes and every element's bits, in order.
void require_same(const std::vector<llm::NamedTensor>& a,
                  const std::vector<llm::NamedTensor>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("tensor " << i << " " << a[i].name);
    CHECK(a[i].name == b[i].name);
    CHECK(a[i].value.shape() == b[i].value.shape());
    CHECK(bits(a[i].value) == bits(b[i].value));
  }
}

std::uint64_t le(std::string_view b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
  }
  return v;
}

void set_le(std::string& b, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + i] = char((v >> (8 * i)) & 0xff);
}

// The checksum recomputed over the changed bytes: what a buggy writer
// would have produced, so that the checks after the checksum are reached.
std::string resealed(std::string b) {
  const llm::Sha256Digest d =
      llm::sha256(std::string_view(b).substr(0, b.size() - 32));
  b.replace(b.size() - 32, 32, reinterpret_cast<const char*>(d.data()), 32);
  return b;
}

std::string decode_error(const std::string& bytes) {
  return message_of<CheckpointError>([&] { llm::decode_checkpoint(bytes); });
}

// The bytes a named-tensor list takes, by the chapter's rule: 4 for the
// count, per tensor 4 + name + 4 + 8 per extent + 8 per element.
std::size_t list_bytes(const std::vector<llm::NamedTensor>& list) {
  std::size_t n = 4;
  for (const llm::NamedTensor& t : list) {
    n += 4 + t.name.size() + 4 + 8 * t.value.rank() + 8 * t.value.numel();
  }
  return n;
}

const std::string prefix = "decode_checkpoint: the input ";

}  // namespace

TEST_CASE("the layout, byte by byte", "[checkpoints]") {
  const Checkpoint c = sample();
  const std::string b = llm::encode_checkpoint(c);
  CHECK(b.substr(0, 8) == "LLMCKPT\n");
  CHECK(le(b, 8, 4) == 1);   // version
  CHECK(le(b, 12, 4) == 5);  // sections
  // Section heads at 16, then each 12 + payload after the previous one.
  const std::size_t tok = 24 + 16 * 2;  // the tokenizer's own file
  const std::size_t parm = 8 + list_bytes(c.params.list());
  const std::size_t adam = 8 + list_bytes(c.optimizer.m) +
                           list_bytes(c.optimizer.v);
  const std::vector<std::pair<std::string, std::size_t>> want = {
      {"CONF", 64}, {"TOKN", tok}, {"PARM", parm}, {"ADAM", adam},
      {"STEP", 16}};
  std::size_t at = 16;
  const auto sections = llm::checkpoint_sections(b);
  REQUIRE(sections.size() == 5);
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("section " << want[i].first);
    CHECK(b.substr(at, 4) == want[i].first);
    CHECK(le(b, at + 4, 8) == want[i].second);
    CHECK(sections[i].tag == want[i].first);
    CHECK(sections[i].offset == at + 12);
    CHECK(sections[i].size == want[i].second);
    at += 12 + want[i].second;
  }
  REQUIRE(b.size() == at + 32);
  // CONF: V, d, N, h, f, context, then the bits of RoPE's base and eps.
  const std::size_t conf = 28;
  CHECK(le(b, conf, 8) == 260);
  CHECK(le(b, conf + 8, 8) == 4);
  CHECK(le(b, conf + 40, 8) == 4);
  CHECK(le(b, conf + 48, 8) == std::bit_cast<std::uint64_t>(100.0));
  CHECK(le(b, conf + 56, 8) == std::bit_cast<std::uint64_t>(1e-5));
  // TOKN is the tokenizer's file, as Tokenizer::save writes it.
  const fs::path dir = scratch_dir("llm-test-ckpt-layout");
  tokenizer().save((dir / "t.bin").string());
  std::ifstream f(dir / "t.bin", std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(f)),
                         std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  CHECK(b.substr(conf + 64 + 12, tok) == file);
  CHECK(llm::tokenizer_bytes(tokenizer()) == file);
  // PARM begins with the seed, then 21 tensors, the first named
  // embed.weight of rank 2, [260, 4], whose element 0 is -0.0.
  const std::size_t p = conf + 64 + 12 + tok + 12;
  CHECK(le(b, p, 8) == 12);
  CHECK(le(b, p + 8, 4) == c.params.size());
  CHECK(le(b, p + 12, 4) == 12);
  CHECK(b.substr(p + 16, 12) == "embed.weight");
  CHECK(le(b, p + 28, 4) == 2);
  CHECK(le(b, p + 32, 8) == 260);
  CHECK(le(b, p + 40, 8) == 4);
  CHECK(le(b, p + 48, 8) == 0x8000000000000000ULL);
  // STEP: the step, then the generator's state.
  CHECK(le(b, b.size() - 32 - 16, 8) == 42);
  CHECK(le(b, b.size() - 32 - 8, 8) == 0x0123456789abcdefULL);
  // The checksum is the SHA-256 of everything before it.
  const llm::Sha256Digest d = llm::sha256(std::string_view(b).substr(0, at));
  CHECK(b.substr(at) ==
        std::string(reinterpret_cast<const char*>(d.data()), 32));
}

TEST_CASE("a round trip keeps every bit", "[checkpoints]") {
  const Checkpoint c = sample();
  const std::string b = llm::encode_checkpoint(c);
  const Checkpoint back = llm::decode_checkpoint(b);
  CHECK(back.config.vocab == 260);
  CHECK(back.config.d_model == 4);
  CHECK(back.config.layers == 1);
  CHECK(back.config.heads == 2);
  CHECK(back.config.ffn_width == 6);
  CHECK(back.config.context == 4);
  CHECK(back.config.rope_base == 100.0);
  CHECK(back.config.eps == 1e-5);
  REQUIRE(back.tokenizer.merges().merges.size() == 2);
  CHECK(back.tokenizer.merges().merges[1].left == 256);
  CHECK(back.tokenizer.merges().merges[1].count == 3);
  CHECK(back.params.seed() == 12);
  require_same(back.params.list(), c.params.list());
  CHECK(back.params.fingerprint() == c.params.fingerprint());
  CHECK(back.optimizer.step == 3);
  require_same(back.optimizer.m, c.optimizer.m);
  require_same(back.optimizer.v, c.optimizer.v);
  CHECK(back.step == 42);
  CHECK(back.rng_state == 0x0123456789abcdefULL);
  CHECK(llm::encode_checkpoint(back) == b);
  CHECK(!llm::checkpoint_problem(b).has_value());
  // The loaded tensors own their buffers: changing them leaves c alone.
  back.params.at("embed.weight").set({1, 0}, 5.0);
  CHECK(c.params.at("embed.weight").at({1, 0}) == 0.1);
}

TEST_CASE("files: atomic save, load, and the errors of both",
          "[checkpoints]") {
  const fs::path dir = scratch_dir("llm-test-ckpt-files");
  const std::string path = (dir / "run.ckpt").string();
  const Checkpoint c = sample();
  llm::save_checkpoint(path, c);
  // The temporary file is gone: the directory holds the checkpoint alone.
  const auto names = [&] {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
      out.push_back(e.path().filename().string());
    }
    return out;
  };
  CHECK(names() == std::vector<std::string>{"run.ckpt"});
  std::ifstream f(path, std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(f)),
                         std::istreambuf_iterator<char>());
  CHECK(file == llm::encode_checkpoint(c));
  CHECK(llm::encode_checkpoint(llm::load_checkpoint(path)) == file);

  // A second save replaces the file whole.
  Checkpoint later = sample();
  later.step = 43;
  llm::save_checkpoint(path, later);
  CHECK(llm::load_checkpoint(path).step == 43);

  CHECK(message_of<llm::IoError>([&] {
          llm::load_checkpoint((dir / "missing").string());
        }) == "load_checkpoint: cannot open '" + (dir / "missing").string() +
                  "'");
  const std::string nowhere = (dir / "no" / "x.ckpt").string();
  CHECK(message_of<llm::IoError>([&] {
          llm::save_checkpoint(nowhere, c);
        }) == "save_checkpoint: cannot create a file beside '" + nowhere +
                  "': No such file or directory");
  // A failed rename (onto a directory) names the target and leaves no
  // temporary file.
  fs::create_directories(dir / "taken");
  const std::string taken = (dir / "taken").string();
  CHECK(message_of<llm::IoError>([&] { llm::save_checkpoint(taken, c); }) ==
        "save_checkpoint: cannot write '" + taken + "': Is a directory");
  fs::remove(dir / "taken");
  CHECK(names() == std::vector<std::string>{"run.ckpt"});
  // A file or a symbolic link at the old fixed name path.tmp is neither
  // overwritten nor followed.
  std::ofstream(dir / "victim") << "keep";
  fs::create_symlink(dir / "victim", path + ".tmp");
  llm::save_checkpoint(path, c);
  CHECK(fs::is_symlink(path + ".tmp"));
  std::ifstream victim(dir / "victim");
  CHECK(std::string((std::istreambuf_iterator<char>(victim)),
                    std::istreambuf_iterator<char>()) == "keep");
  fs::remove(path + ".tmp");
  fs::remove(dir / "victim");
  // A bad file names its path; an empty file is not a checkpoint.
  std::ofstream(dir / "empty.ckpt").close();
  CHECK(message_of<CheckpointError>([&] {
          llm::load_checkpoint((dir / "empty.ckpt").string());
        }) == "load_checkpoint: '" + (dir / "empty.ckpt").string() +
                  "' is empty: not a checkpoint");
  // A checkpoint whose parts disagree is not written at all.
  Checkpoint bad = sample();
  bad.config.ffn_width = 8;
  CHECK_THROWS_AS(llm::save_checkpoint((dir / "bad.ckpt").string(), bad),
                  CheckpointError);
  CHECK(!fs::exists(dir / "bad.ckpt"));
  CHECK(!fs::exists(dir / "bad.ckpt.tmp"));
  fs::remove_all(dir);
}

TEST_CASE("Tokenizer::save writes through the checkpoint's writer",
          "[checkpoints]") {
  // From this chapter on the tokenizer's file is written by
  // write_file_durably: a unique temporary name, never path.tmp.
  const fs::path dir = scratch_dir("llm-test-tok-durable");
  const std::string path = (dir / "t.tok").string();
  const auto names = [&] {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
      out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const llm::Tokenizer t = tokenizer();
  // An existing file at path.tmp is neither overwritten nor renamed away.
  std::ofstream(path + ".tmp") << "stale";
  t.save(path);
  CHECK(llm::tokenizer_bytes(llm::Tokenizer::load(path)) ==
        llm::tokenizer_bytes(t));
  std::ifstream stale(path + ".tmp");
  CHECK(std::string((std::istreambuf_iterator<char>(stale)),
                    std::istreambuf_iterator<char>()) == "stale");
  CHECK(names() == std::vector<std::string>{"t.tok", "t.tok.tmp"});
  fs::remove(path + ".tmp");
  // A symbolic link at path.tmp is not followed: its target keeps its
  // bytes, and the link stays a link.
  std::ofstream(dir / "victim") << "keep";
  fs::create_symlink(dir / "victim", path + ".tmp");
  t.save(path);
  CHECK(fs::is_symlink(path + ".tmp"));
  std::ifstream victim(dir / "victim");
  CHECK(std::string((std::istreambuf_iterator<char>(victim)),
                    std::istreambuf_iterator<char>()) == "keep");
  CHECK(names() ==
        std::vector<std::string>{"t.tok", "t.tok.tmp", "victim"});
  fs::remove(path + ".tmp");
  fs::remove(dir / "victim");
  // Failures name the target and the system's reason, and leave nothing.
  const std::string nowhere = (dir / "no" / "t.tok").string();
  CHECK(message_of<llm::IoError>([&] { t.save(nowhere); }) ==
        "Tokenizer::save: cannot create a file beside '" + nowhere +
            "': No such file or directory");
  fs::create_directories(dir / "taken");
  const std::string taken = (dir / "taken").string();
  CHECK(message_of<llm::IoError>([&] { t.save(taken); }) ==
        "Tokenizer::save: cannot write '" + taken + "': Is a directory");
  CHECK(names() == std::vector<std::string>{"t.tok", "taken"});
  fs::remove_all(dir);
}

// The signal the child of the next test raises from inside a write.
int signal_to_raise = 0;

TEST_CASE("a signal during a write removes the temporary file",
          "[checkpoints]") {
  const fs::path dir = scratch_dir("llm-test-ckpt-signal");
  const std::string path = (dir / "out.ckpt").string();
  const std::string big(1 << 20, 'x');
  const auto names = [&] {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
      out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // The child limits its files to 4096 bytes: the write stops there,
    // with the temporary file created and partly written, and the kernel
    // sends SIGXFSZ, whose handler raises `sig`. Deterministic.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // Catch installs handlers of its own; a plain program has none.
      for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
      signal_to_raise = sig;
      ::signal(SIGXFSZ, [](int) { ::raise(signal_to_raise); });
      const ::rlimit limit{4096, 4096};
      ::setrlimit(RLIMIT_FSIZE, &limit);
      try {
        llm::write_file_durably(path, big, "test");
      } catch (...) {
        ::_exit(2);
      }
      ::_exit(1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(names().empty());
  }
  // A signal the program ignores stays ignored (the write fails on the
  // limit instead, and removes its file as any failure does).
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::signal(SIGTERM, SIG_IGN);
    signal_to_raise = SIGTERM;
    ::signal(SIGXFSZ, [](int) { ::raise(signal_to_raise); });
    const ::rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      llm::write_file_durably(path, big, "test");
    } catch (const llm::IoError&) {
      struct sigaction now {};
      ::sigaction(SIGTERM, nullptr, &now);
      ::_exit(now.sa_handler == SIG_IGN ? 0 : 3);
    }
    ::_exit(1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(names().empty());
  // A write that succeeds puts back the actions it found.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction hup_before {}, int_before {}, hup_after {}, int_after {};
  ::sigaction(SIGHUP, &ignore, &hup_before);
  ::sigaction(SIGINT, nullptr, &int_before);
  llm::write_file_durably(path, "bytes", "test");
  ::sigaction(SIGHUP, &hup_before, &hup_after);
  ::sigaction(SIGINT, nullptr, &int_after);
  CHECK(hup_after.sa_handler == SIG_IGN);
  CHECK(int_after.sa_handler == int_before.sa_handler);
  CHECK(names() == std::vector<std::string>{"out.ckpt"});
  fs::remove_all(dir);
}

TEST_CASE("what is not a checkpoint", "[checkpoints]") {
  CHECK(decode_error("") == prefix + "is empty: not a checkpoint");
  CHECK(decode_error(llm::tokenizer_bytes(tokenizer())) ==
        prefix + "is a tokenizer file (LLMBPE magic), not a checkpoint");
  std::string b = llm::encode_checkpoint(sample());
  b[6] = 'X';
  CHECK(decode_error(b) == prefix +
                               "does not begin with the checkpoint magic "
                               "LLMCKPT (it begins 4c 4c 4d 43 4b 50 58 0a)");
  CHECK(decode_error("{\"x\": 1}") ==
        prefix + "does not begin with the checkpoint magic LLMCKPT (it "
                 "begins 7b 22 78 22 3a 20 31 7d)");
}

TEST_CASE("a truncated file, cut anywhere", "[checkpoints]") {
  const std::string b = llm::encode_checkpoint(sample());
  // A beginning of the magic is a cut checkpoint, not a foreign file.
  CHECK(decode_error(b.substr(0, 5)) ==
        prefix + "is truncated: 5 bytes, fewer than 48 for a header and "
                 "a checksum");
  // One byte short: STEP (16 bytes) now overlaps the checksum by one.
  const std::size_t step_payload = b.size() - 32 - 16;
  CHECK(decode_error(b.substr(0, b.size() - 1)) ==
        prefix + "is truncated: section STEP holds 16 bytes from byte " +
            std::to_string(step_payload) + ", only 15 come before the "
            "checksum");
  // Every cut is refused, and as truncated (the walk runs before the
  // checksum); only a cut inside the magic can be nothing else.
  for (std::size_t n = 1; n < b.size(); ++n) {
    const std::string m = decode_error(b.substr(0, n));
    INFO("cut at " << n << ": " << m);
    CHECK(m.find(prefix + "is truncated: ") == 0);
  }
}

TEST_CASE("versions", "[checkpoints]") {
  std::string b = llm::encode_checkpoint(sample());
  set_le(b, 8, 2, 4);
  CHECK(decode_error(b) == prefix + "has version 2, newer than version 1, "
                                    "the one this library reads");
  set_le(b, 8, 0, 4);
  CHECK(decode_error(b) == prefix + "has version 0, expected 1");
  CHECK(llm::checkpoint_version == 1);
}

TEST_CASE("a flipped bit anywhere is refused", "[checkpoints]") {
  const std::string b = llm::encode_checkpoint(sample());
  // In the middle of the parameters only the checksum can see it; the
  // message quotes the first 8 bytes of both digests.
  const auto s = llm::checkpoint_sections(b);
  std::string flipped = b;
  flipped[s[2].offset + s[2].size / 2] ^= 0x10;
  const std::size_t end = b.size() - 32;
  const llm::Sha256Digest d =
      llm::sha256(std::string_view(flipped).substr(0, end));
  const auto hex8 = [](const unsigned char* p) {
    std::string h;
    for (int i = 0; i < 8; ++i) {
      h += "0123456789abcdef"[p[i] >> 4];
      h += "0123456789abcdef"[p[i] & 15];
    }
    return h;
  };
  CHECK(decode_error(flipped) ==
        prefix + "is damaged: the SHA-256 of its first " +
            std::to_string(end) + " bytes begins " + hex8(d.data()) +
            ", its checksum begins " +
            hex8(reinterpret_cast<const unsigned char*>(b.data()) + end));
  // One bit at every byte position outside the two bulk sections, and at
  // every 31st byte inside PARM and ADAM: nothing decodes. Each flip
  // hashes the whole file again, so every byte of the bulk sections (most
  // of the file) would cost most of this test's time at -O0; 31 is odd,
  // so the sampled bytes still fall on every byte position of a double.
  const auto in_bulk = [&](std::size_t at) {
    for (const auto& sec : s) {
      if ((sec.tag == "PARM" || sec.tag == "ADAM") && at >= sec.offset &&
          at < sec.offset + sec.size) {
        return (at - sec.offset) % 31 != 0;
      }
    }
    return false;
  };
  std::size_t flips = 0;
  for (std::size_t at = 0; at < b.size(); ++at) {
    if (in_bulk(at)) continue;
    std::string x = b;
    x[at] ^= 0x01;
    INFO("byte " << at);
    CHECK(llm::checkpoint_problem(x).has_value());
    ++flips;
  }
  // The bulk sections hold most of the bytes, so most flips were skipped.
  CHECK(flips < b.size() / 4);
}

TEST_CASE("the form of the sections", "[checkpoints]") {
  const std::string b = llm::encode_checkpoint(sample());
  std::string x = b;
  set_le(x, 12, 4, 4);
  CHECK(decode_error(x) == prefix + "has 4 sections, expected 5");
  x = b;
  x[19] = 'X';  // CONF becomes CONX
  CHECK(decode_error(x) ==
        prefix + "has section '43 4f 4e 58' at byte 16, expected CONF");
  // Three bytes between the last section and the checksum.
  x = b;
  x.insert(b.size() - 32, "abc");
  CHECK(decode_error(resealed(x)) ==
        prefix + "has 3 bytes between its last section and its checksum");
  // STEP one byte longer, with its size updated: a byte nobody reads.
  x = b;
  x.insert(b.size() - 32, "z");
  const std::size_t step_head = b.size() - 32 - 16 - 12;
  set_le(x, step_head + 4, 17, 8);
  CHECK(decode_error(resealed(x)) ==
        prefix + "has 1 unread bytes at the end of section STEP");
  // A tensor whose extent claims more than the section holds.
  const auto s = llm::checkpoint_sections(b);
  x = b;
  set_le(x, s[2].offset + 32, std::uint64_t{1} << 40, 8);  // embed [2^40, 4]
  CHECK(decode_error(resealed(x)).find(
            prefix + "has a malformed section PARM: ") == 0);
  // A damaged tokenizer inside a sound checkpoint.
  x = b;
  x[s[1].offset + 20] ^= 1;  // a byte of the first merge
  CHECK(decode_error(resealed(x)) ==
        prefix + "has a bad section TOKN: the tokenizer is damaged "
                 "(checksum mismatch)");
}

TEST_CASE("a config that disagrees with the tensors",
          "[checkpoints]") {
  const std::string b = llm::encode_checkpoint(sample());
  const std::size_t conf = 28;
  std::string x = b;
  set_le(x, conf + 32, 8, 8);  // f = 8 instead of 6
  ModelConfig wider = tiny;
  wider.ffn_width = 8;
  // Hand count of the file's tensors: 260 * 4 + (2*4 + 4*16 + 3*4*6) + 4.
  CHECK(llm::model_parameter_count(tiny) == 1040 + 144 + 4);
  CHECK(decode_error(resealed(x)) ==
        prefix + "has tensors of 1188 scalars, its config makes " +
            std::to_string(llm::model_parameter_count(wider)));
  x = b;
  set_le(x, conf, 300, 8);  // V = 300: the tokenizer has 260
  CHECK(decode_error(resealed(x)) ==
        prefix + "has a tokenizer of 260 tokens for a config of V = 300");
  x = b;
  set_le(x, conf + 24, 3, 8);  // three heads do not divide d = 4
  ModelConfig odd = tiny;
  odd.heads = 3;
  const std::string why =
      message_of<llm::ConfigError>([&] { llm::validate(odd); });
  CHECK(decode_error(resealed(x)) ==
        prefix + "holds an invalid config: " + why);
  // The writer refuses the same faults, and names itself.
  Checkpoint c = sample();
  c.config.ffn_width = 8;
  CHECK(message_of<CheckpointError>([&] { llm::encode_checkpoint(c); }) ==
        "encode_checkpoint: the checkpoint has tensors of 1188 scalars, "
        "its config makes " +
            std::to_string(llm::model_parameter_count(wider)));
}

TEST_CASE("a context below 2 is refused by writer and reader",
          "[checkpoints]") {
  Checkpoint c = sample();
  c.config.context = 1;
  CHECK(message_of<CheckpointError>([&] { llm::encode_checkpoint(c); }) ==
        "encode_checkpoint: the checkpoint has a config of context 1, "
        "expected at least 2");
  std::string x = llm::encode_checkpoint(sample());
  set_le(x, 28 + 40, 1, 8);  // context = 1
  CHECK(decode_error(resealed(x)) ==
        prefix + "has a config of context 1, expected at least 2");
}

TEST_CASE("tensors and moments must match the registry by name and shape",
          "[checkpoints]") {
  const Checkpoint good = sample();
  // Same scalars, wrong name.
  Parameters renamed(12);
  for (const llm::NamedTensor& n : good.params.list()) {
    renamed.add(n.name == "final_norm.gain" ? "final.gain" : n.name,
                n.value);
  }
  Checkpoint c = sample();
  c.params = renamed;
  const std::size_t last = good.params.size() - 1;
  CHECK(message_of<CheckpointError>([&] { llm::encode_checkpoint(c); }) ==
        "encode_checkpoint: the checkpoint has parameter " +
            std::to_string(last) +
            " 'final.gain' [4], expected 'final_norm.gain' [4]");
  // A second moment of the wrong shape.
  c = sample();
  c.optimizer.v[last].value = Tensor({2, 2});
  CHECK(message_of<CheckpointError>([&] { llm::encode_checkpoint(c); }) ==
        "encode_checkpoint: the checkpoint has second moment " +
            std::to_string(last) +
            " 'final_norm.gain' [2,2], expected 'final_norm.gain' [4]");
  // Moments missing altogether.
  c = sample();
  c.optimizer.m.clear();
  CHECK(message_of<CheckpointError>([&] { llm::encode_checkpoint(c); }) ==
        "encode_checkpoint: the checkpoint has 0 first moment tensors, " +
            std::to_string(good.params.size()) + " expected");
}

namespace {

// The chapter's experiment at test size: B = 2 windows of T = 4 ids cut
// at random from a fixed id sequence, AdamW with the book's options.
struct Run {
  Parameters params;
  llm::AdamW optimizer;
  llm::Rng rng;
};

const llm::AdamWOptions options{.lr = 1e-2, .beta2 = 0.99,
                                .weight_decay = 0.1};

Run start() {
  Parameters p(7);
  llm::add_model_parameters(p, tiny);
  llm::AdamW opt(p, options);
  return {std::move(p), std::move(opt), llm::Rng(7)};
}

void train(Run& run, int steps) {
  std::vector<std::size_t> text(64);
  for (std::size_t k = 0; k < text.size(); ++k) text[k] = (k * k * 7 + 3) % 260;
  for (int i = 0; i < steps; ++i) {
    llm::TokenGrid in{.batch = 2, .length = 4, .ids = {}}, target = in;
    for (int b = 0; b < 2; ++b) {
      const std::size_t at = run.rng.next_u64() % (text.size() - 4);
      in.ids.insert(in.ids.end(), text.begin() + at, text.begin() + at + 4);
      target.ids.insert(target.ids.end(), text.begin() + at + 1,
                        text.begin() + at + 5);
    }
    llm::Tape tape;
    const llm::ParameterLeaves leaves(tape, run.params);
    tape.backward(llm::next_token_loss(
        llm::model_forward(llm::model_weights(leaves, tiny), tiny, in)
            .logits,
        target));
    run.optimizer.step(run.params, leaves.gradients());
  }
}

Run resumed(const std::string& bytes, bool optimizer, bool rng) {
  Checkpoint c = llm::decode_checkpoint(bytes);
  llm::AdamW opt(c.params, options);
  if (optimizer) opt.restore(c.optimizer);
  return {std::move(c.params), std::move(opt),
          llm::Rng(rng ? c.rng_state : 7)};
}

}  // namespace

TEST_CASE("resumed training gives the bits of uninterrupted training",
          "[checkpoints]") {
  Run straight = start();
  train(straight, 6);

  Run first = start();
  train(first, 3);
  const std::string bytes = llm::encode_checkpoint(
      {.config = tiny, .tokenizer = tokenizer(), .params = first.params,
       .optimizer = first.optimizer.state(), .step = 3,
       .rng_state = first.rng.state()});
  Run second = resumed(bytes, true, true);
  train(second, 3);
  require_same(second.params.list(), straight.params.list());
  require_same(second.optimizer.state().m, straight.optimizer.state().m);
  require_same(second.optimizer.state().v, straight.optimizer.state().v);
  CHECK(second.optimizer.state().step == 6);
  CHECK(second.rng.state() == straight.rng.state());

  // Dropping either part of the state changes the result.
  Run no_adam = resumed(bytes, false, true);
  train(no_adam, 3);
  CHECK(no_adam.params.fingerprint() != straight.params.fingerprint());
  Run no_rng = resumed(bytes, true, false);
  train(no_rng, 3);
  CHECK(no_rng.params.fingerprint() != straight.params.fingerprint());
}
