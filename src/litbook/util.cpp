#include "util.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace litbook {

std::string Diagnostic::format() const {
  if (where.file.empty()) return "litbook: " + message;
  if (where.line <= 0) return where.file + ": " + message;
  return where.file + ":" + std::to_string(where.line) + ": " + message;
}

namespace {
std::string join_messages(const std::vector<Diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) {
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  return out;
}
}  // namespace

Failure::Failure(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_messages(diagnostics)),
      diags_(std::move(diagnostics)) {}

Failure::Failure(Location where, std::string message)
    : Failure(std::vector<Diagnostic>{{std::move(where), std::move(message)}}) {}

void report_file(std::vector<Diagnostic>& out, std::string file,
                 std::string message) {
  Diagnostic& d = out.emplace_back();
  d.where.file = std::move(file);
  d.message = std::move(message);
}

void Diagnostics::add(Location where, std::string message) {
  list_.push_back({std::move(where), std::move(message)});
}

void Diagnostics::throw_if_any() const {
  if (!list_.empty()) throw Failure(list_);
}

std::optional<std::string> read_file_if_exists(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file(const fs::path& path) {
  auto text = read_file_if_exists(path);
  if (!text) {
    throw Failure({display_path(path), 0},
                  std::string("cannot read file: ") + std::strerror(errno));
  }
  return *text;
}

void write_atomic(const fs::path& path, std::string_view bytes) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw Failure({display_path(path), 0}, "cannot write file");
    }
  }
  fs::rename(tmp, path);
}

bool write_if_changed(const fs::path& path, std::string_view bytes) {
  auto old = read_file_if_exists(path);
  if (old && *old == bytes) return false;
  write_atomic(path, bytes);
  return true;
}

std::string display_path(const fs::path& path) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec && path.is_absolute()) {
    fs::path rel = path.lexically_relative(cwd);
    if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  }
  return path.generic_string();
}

std::string hash_hex(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::size_t end = nl;
    if (end > start && text[end - 1] == '\r') --end;
    lines.emplace_back(text.substr(start, end - start));
    start = nl + 1;
  }
  return lines;
}

bool is_valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) return false;
  }
  return name.front() != '-';
}

std::optional<std::pair<int, int>> first_invalid_utf8(std::string_view t) {
  int line = 1, col = 1;
  std::size_t i = 0;
  while (i < t.size()) {
    auto c = static_cast<unsigned char>(t[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3
                      : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= t.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(t[i + k]) & 0xC0) == 0x80;
    }
    if (ok && len == 2) ok = c >= 0xC2;  // no overlong forms
    if (ok && len == 3) {
      auto c1 = static_cast<unsigned char>(t[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && len == 4) {
      auto c1 = static_cast<unsigned char>(t[i + 1]);
      ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (!ok) return std::make_pair(line, col);
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      col += static_cast<int>(len);
    }
    i += len;
  }
  return std::nullopt;
}

// ---- processes ----------------------------------------------------------

namespace {

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// The three pipes between the tool and a child: [0] reads, [1] writes.
struct Pipes {
  int in[2], out[2], err[2];
};

// In the child: connect the pipes to stdin, stdout and stderr, set the
// environment and directory, and become the program.
[[noreturn]] void exec_child(const std::vector<std::string>& argv,
                             const ProcessOptions& options, const Pipes& p) {
  ::setpgid(0, 0);  // own group, so a timeout can stop its children too
  ::dup2(p.in[0], 0);
  ::dup2(p.out[1], 1);
  ::dup2(p.err[1], 2);
  for (int fd : {p.in[0], p.in[1], p.out[0], p.out[1], p.err[0], p.err[1]}) {
    ::close(fd);
  }
  for (const auto& [k, v] : options.env) ::setenv(k.c_str(), v.c_str(), 1);
  if (options.cwd && ::chdir(options.cwd->c_str()) != 0) _exit(126);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  std::string msg = "cannot run " + argv[0] + ": " + std::strerror(errno);
  ssize_t ignored = ::write(2, msg.data(), msg.size());
  (void)ignored;
  _exit(127);
}

// In the parent: feeds the child's stdin, collects its stdout and
// stderr, and stops its whole group when it runs too long or prints
// too much.
class Pump {
 public:
  Pump(pid_t pid, const Pipes& p, const ProcessOptions& options)
      : pid_(pid), in_(p.in[1]), out_(p.out[0]), err_(p.err[0]),
        options_(options), start_(std::chrono::steady_clock::now()) {
    set_nonblocking(in_);
    set_nonblocking(out_);
    set_nonblocking(err_);
    if (options.input.empty()) close_input();
  }

  // Until the child closes stdout and stderr.
  void run() {
    while (out_open_ || err_open_) {
      std::vector<pollfd> fds;
      if (in_open_) fds.push_back({in_, POLLOUT, 0});
      if (out_open_) fds.push_back({out_, POLLIN, 0});
      if (err_open_) fds.push_back({err_, POLLIN, 0});
      ::poll(fds.data(), fds.size(), 200);
      for (auto& p : fds) {
        if (p.fd == in_ && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
          write_input();
        } else if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
          read_from(p.fd);
        }
      }
      stop_if_late();
    }
    if (in_open_) close_input();
  }

  ProcessResult wait() {
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      stop_if_late();
      ::usleep(5000);
    }
    if (WIFEXITED(status)) {
      result_.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      result_.exit_code = 128 + WTERMSIG(status);
    }
    return std::move(result_);
  }

 private:
  void close_input() {
    ::close(in_);
    in_open_ = false;
  }

  void write_input() {
    const std::string& input = options_.input;
    ssize_t n = ::write(in_, input.data() + written_, input.size() - written_);
    if (n > 0) written_ += static_cast<std::size_t>(n);
    if (n < 0 && errno != EAGAIN) written_ = input.size();
    if (written_ >= input.size()) close_input();
  }

  void read_from(int fd) {
    ssize_t n = ::read(fd, buf_, sizeof buf_);
    bool is_out = fd == out_;
    if (n > 0) {
      std::string& dst = is_out ? result_.out : result_.err;
      dst.append(buf_, static_cast<std::size_t>(n));
      if (is_out && dst.size() > options_.max_output && !killed_) {
        result_.output_too_large = true;
        kill();
      }
    } else if (n == 0 || (n < 0 && errno != EAGAIN)) {
      ::close(fd);
      (is_out ? out_open_ : err_open_) = false;
    }
  }

  void stop_if_late() {
    if (options_.timeout && !killed_ &&
        std::chrono::steady_clock::now() - start_ > *options_.timeout) {
      result_.timed_out = true;
      kill();
    }
  }

  void kill() {
    ::kill(-pid_, SIGKILL);
    killed_ = true;
  }

  pid_t pid_;
  int in_, out_, err_;
  const ProcessOptions& options_;
  std::chrono::steady_clock::time_point start_;
  ProcessResult result_;
  std::size_t written_ = 0;
  bool in_open_ = true, out_open_ = true, err_open_ = true, killed_ = false;
  char buf_[65536];
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const ProcessOptions& options) {
  Pipes p;
  if (::pipe(p.in) || ::pipe(p.out) || ::pipe(p.err)) {
    throw Failure({}, "cannot create pipes to run " + argv.at(0));
  }
  pid_t pid = ::fork();
  if (pid < 0) throw Failure({}, "cannot start " + argv.at(0));
  if (pid == 0) exec_child(argv, options, p);
  ::setpgid(pid, pid);
  ::close(p.in[0]);
  ::close(p.out[1]);
  ::close(p.err[1]);
  Pump pump(pid, p, options);
  pump.run();
  return pump.wait();
}

}  // namespace litbook
