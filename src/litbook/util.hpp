// Small helpers shared by every litbook command: diagnostics, files,
// processes and hashing.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace litbook {

namespace fs = std::filesystem;

/// A place in a chapter: file and 1-based line (0 when unknown).
struct Location {
  std::string file;
  int line = 0;
};

/// One problem found in the book, reported compiler-style.
struct Diagnostic {
  Location where;
  std::string message;
  std::string format() const;
};

/// Appends a problem about a whole file (no line) to `out`. Filled in
/// place: GCC 12 at -O3 misreads a braced Diagnostic temporary pushed into
/// a vector as possibly uninitialised (-Wmaybe-uninitialized).
void report_file(std::vector<Diagnostic>& out, std::string file,
                 std::string message);

/// Thrown for a problem that stops the command; carries every diagnostic.
class Failure : public std::runtime_error {
public:
  explicit Failure(std::vector<Diagnostic> diagnostics);
  Failure(Location where, std::string message);
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

private:
  std::vector<Diagnostic> diags_;
};

/// Collects diagnostics, then throws them all at once.
class Diagnostics {
public:
  void add(Location where, std::string message);
  bool empty() const { return list_.empty(); }
  /// Throws a Failure holding everything collected, if anything was.
  void throw_if_any() const;
  const std::vector<Diagnostic>& list() const { return list_; }

private:
  std::vector<Diagnostic> list_;
};

/// Reads a whole file; throws Failure naming the file when it cannot.
std::string read_file(const fs::path& path);
std::optional<std::string> read_file_if_exists(const fs::path& path);

/// Writes through a temporary file and a rename, so readers never see a
/// half-written file.
void write_atomic(const fs::path& path, std::string_view bytes);

/// Writes only when the bytes differ; returns true when it wrote.
bool write_if_changed(const fs::path& path, std::string_view bytes);

/// A path for display: relative to the current directory when inside it.
std::string display_path(const fs::path& path);

/// FNV-1a 64-bit hash as 16 hex digits (for caches and checksums).
std::string hash_hex(std::string_view bytes);

/// Splits text into lines without their terminators ('\n' or "\r\n").
std::vector<std::string> split_lines(std::string_view text);

/// Result of running a child process.
struct ProcessResult {
  int exit_code = 0;        ///< exit status, or 128 + signal
  bool timed_out = false;
  bool output_too_large = false;
  std::string out;
  std::string err;
};

struct ProcessOptions {
  std::string input = {};                       ///< bytes fed to stdin
  std::optional<std::chrono::milliseconds> timeout = {};
  std::size_t max_output = 256u << 20;          ///< stdout limit in bytes
  std::vector<std::pair<std::string, std::string>> env = {};
  std::optional<fs::path> cwd = {};
};

/// Runs argv[0] (searched on PATH) and captures stdout and stderr.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const ProcessOptions& options = {});

/// True for "a-z0-9-" names that start with a letter or digit.
bool is_valid_name(std::string_view name);

/// The 1-based line and column (in bytes) of the first byte that is not
/// valid UTF-8, or std::nullopt when the text is valid.
std::optional<std::pair<int, int>> first_invalid_utf8(std::string_view text);

}  // namespace litbook
